"""The `payments` role may read the operator notices (decision 0104): why a customer was refused a quote (the rate
source's HTTP status, a stale rate) is theirs to act on."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE = "payments"
PERMISSION = ("core", "view_operatornotice")


def grant(apps, schema_editor):  # type: ignore[no-untyped-def]
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group, _ = apps.get_model("auth", "Group").objects.get_or_create(name=ROLE)
    permission = apps.get_model("auth", "Permission").objects.get(
        content_type__app_label=PERMISSION[0], codename=PERMISSION[1]
    )
    group.permissions.add(permission)


def revoke(apps, schema_editor):  # type: ignore[no-untyped-def]
    group = apps.get_model("auth", "Group").objects.filter(name=ROLE).first()
    if group is not None:
        group.permissions.remove(
            *apps.get_model("auth", "Permission").objects.filter(
                content_type__app_label=PERMISSION[0], codename=PERMISSION[1]
            )
        )


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0005_payouts_role"), ("core", "0005_operatornotice")]
    operations = [migrations.RunPython(grant, revoke)]
