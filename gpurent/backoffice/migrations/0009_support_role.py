"""The `support` role (QA walk of the back office, defect 6): the support inbox and nothing else. Its operators read
the customers' requests and their threads, reply and close them, and are e-mailed when a customer opens a request or
writes again (`support.services`). Replying needs `change_supportrequest`: the request's page has no other writable
field (its reply form and its close button go through the support services)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLE = "support"
PERMISSIONS = ["support.view_supportrequest", "support.change_supportrequest", "support.view_supportmessage"]


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
    dependencies = [("backoffice", "0008_dashboard"), ("support", "0002_support_message_request_id")]
    operations = [migrations.RunPython(grant, revoke)]
