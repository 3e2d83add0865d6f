"""Roles for fresh addresses and chain watchers (docs/decisions/0140):

- catalog (who manages receiving addresses) registers watch-only extended public keys and reads derived
  addresses;
- payments reads the chain observations (the evidence behind automatic confirmations).
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "catalog": [
        "payments.view_extendedpublickey",
        "payments.add_extendedpublickey",
        "payments.view_derivedaddress",
    ],
    "payments": ["payments.view_chainobservation", "payments.view_derivedaddress"],
}


def grant(apps, schema_editor):  # type: ignore[no-untyped-def]
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        for dotted in codenames:
            app_label, codename = dotted.split(".")
            group.permissions.add(permission_model.objects.get(content_type__app_label=app_label, codename=codename))


def revoke(apps, schema_editor):  # type: ignore[no-untyped-def]
    permission_model = apps.get_model("auth", "Permission")
    for name, codenames in ROLES.items():
        group = apps.get_model("auth", "Group").objects.filter(name=name).first()
        if group is not None:
            for dotted in codenames:
                app_label, codename = dotted.split(".")
                group.permissions.remove(*permission_model.objects.filter(content_type__app_label=app_label, codename=codename))


class Migration(migrations.Migration):
    dependencies = [("backoffice", "0002_staff_roles"), ("payments", "0002_chain_watch")]
    operations = [migrations.RunPython(grant, revoke)]
