"""The `payouts` role (decision 0121): the payouts desk and nothing else (least privilege). Sending money out is
kept apart from confirming money in (`payments`): one operator alone cannot both credit a balance and pay it out
unless given both roles on purpose."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE = "payouts"
PERMISSIONS = ["backoffice.view_payoutsdesk", "backoffice.send_payout"]


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
    dependencies = [("backoffice", "0004_payouts_desk")]
    operations = [migrations.RunPython(grant, revoke)]
