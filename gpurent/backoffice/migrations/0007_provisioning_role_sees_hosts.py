"""The `provisioning` role also works GPU hosts (decision 0360): registers them, drains and checks them, and
reads the rentals' accounts and every call made to a host's agent."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE = "provisioning"
PERMISSIONS = [
    "hosts.view_gpuhost",
    "hosts.add_gpuhost",
    "hosts.change_gpuhost",
    "hosts.view_hostrental",
    "hosts.view_hostoperation",
]


def grant(apps, schema_editor):  # type: ignore[no-untyped-def]
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=ROLE)
    permission_model = apps.get_model("auth", "Permission")
    for dotted in PERMISSIONS:
        app_label, codename = dotted.split(".")
        group.permissions.add(permission_model.objects.get(content_type__app_label=app_label, codename=codename))


def revoke(apps, schema_editor):  # type: ignore[no-untyped-def]
    group = apps.get_model("auth", "Group").objects.filter(name=ROLE).first()
    if group is not None:
        group.permissions.remove(*group.permissions.filter(content_type__app_label="hosts"))


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0006_payments_role_sees_operator_notices"), ("hosts", "0001_initial")]
    operations = [migrations.RunPython(grant, revoke)]
