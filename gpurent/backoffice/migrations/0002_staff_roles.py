"""Staff roles as groups with the least permissions each desk needs (DESIGN §9).

- payments: the payments desk (verify payments), read intents, deposits, the ledger and orders, add rates;
- provisioning: the provisioning desk (prepare, deliver, fail orders), machine requests, provisioning runs;
- catalog: GPU models, prices and stock, exchange rates, receiving addresses.
Superusers keep every permission; an operator can belong to several groups.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "payments": [
        "backoffice.view_paymentsdesk",
        "backoffice.verify_payment",
        "payments.view_paymentintent",
        "payments.view_deposit",
        "payments.view_webhookdelivery",
        "payments.view_exchangerate",
        "payments.add_exchangerate",
        "ledger.view_ledgeraccount",
        "ledger.view_ledgertransfer",
        "ledger.view_ledgerentry",
        "orders.view_order",
    ],
    "provisioning": [
        "backoffice.view_provisioningdesk",
        "backoffice.provision_order",
        "orders.view_order",
        "orders.view_machinerequest",
        "orders.change_machinerequest",
        "orders.view_provisioningrun",
    ],
    "catalog": [
        "catalog.view_gpumodel",
        "catalog.add_gpumodel",
        "catalog.change_gpumodel",
        "payments.view_exchangerate",
        "payments.add_exchangerate",
        "payments.change_exchangerate",
        "payments.view_receivingaddress",
        "payments.add_receivingaddress",
        "payments.change_receivingaddress",
    ],
}


def create_roles(apps, schema_editor):  # type: ignore[no-untyped-def]
    # Permissions are normally made after all migrations; make them now so the groups can hold them.
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


def remove_roles(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("backoffice", "0001_initial"),
        ("catalog", "0001_initial"),
        ("ledger", "0002_append_only_triggers"),
        ("orders", "0002_machinerequest_provisioningrun_orderaccess"),
        ("payments", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_roles, remove_roles)]
