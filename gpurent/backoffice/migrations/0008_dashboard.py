"""The operator's dashboard (decision 0415): its proxy, whose one permission is `view_dashboard`, and the `reports`
role that holds it and nothing else. Business figures (revenue, money received) are kept from the desk roles
unless an operator is given `reports` too; superusers see the dashboard anyway."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE = "reports"
PERMISSIONS = ["backoffice.view_dashboard"]


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
    apps.get_model("auth", "Group").objects.filter(name=ROLE).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0007_provisioning_role_sees_hosts"),
        ("orders", "0007_order_lots_held_by_host"),
    ]
    operations = [
        migrations.CreateModel(
            name="Dashboard",
            fields=[],
            options={
                "verbose_name": "Business dashboard",
                "verbose_name_plural": "Business dashboard",
                "proxy": True,
                "default_permissions": ("view",),
                "indexes": [],
                "constraints": [],
            },
            bases=("orders.order",),
        ),
        migrations.RunPython(grant, revoke),
    ]
