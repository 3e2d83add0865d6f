"""`python manage.py load_demo`: the demo catalog, demo rates and receiving addresses, and the demo operator
where the settings allow it.

Safe to re-run: models that exist keep their stock (which orders may have reserved) and are only brought up
to date in their descriptions and prices; missing ones are created. Rates are refreshed to "now".
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from gpurent.catalog.demo import DEMO_GPUS, DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD
from gpurent.catalog.models import GpuModel
from gpurent.payments.demo import load_demo_payments


class Command(BaseCommand):
    help = "Load the demo catalog, rates and addresses (idempotent) and, in local settings, a demo operator."

    def handle(self, *args: Any, **options: Any) -> None:
        created = updated = 0
        with transaction.atomic():
            for position, item in enumerate(DEMO_GPUS):
                fields = {key: value for key, value in item.items() if key not in {"slug", "prices", "stock_lots"}}
                fields["price_3d_cents"], fields["price_7d_cents"], fields["price_30d_cents"] = item["prices"]
                fields["position"] = position
                gpu, was_created = GpuModel.objects.get_or_create(
                    slug=item["slug"], defaults={**fields, "stock_lots": item["stock_lots"]}
                )
                if was_created:
                    created += 1
                    continue
                for name, value in fields.items():
                    setattr(gpu, name, value)
                gpu.save()
                updated += 1
        self.stdout.write(f"Catalog: {created} GPU models created, {updated} brought up to date.")
        rates, addresses = load_demo_payments()
        self.stdout.write(f"Payments: {rates} demo rates refreshed, {addresses} demo receiving addresses added.")
        if settings.DEMO_OPERATOR_ENABLED:
            self._ensure_demo_operator()

    def _ensure_demo_operator(self) -> None:
        user_model = get_user_model()
        operator = user_model.objects.filter(email=DEMO_OPERATOR_EMAIL).first()
        if operator is not None:
            self.stdout.write(f"Demo operator: {DEMO_OPERATOR_EMAIL} (already there).")
        else:
            operator = user_model.objects.create_superuser(
                DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD, first_name="Demo", last_name="Operator"
            )
            self.stdout.write(f"Demo operator created: {DEMO_OPERATOR_EMAIL}.")
        # Operator e-mails go to the members of a role (e.g. "payment reported" to `payments`): the demo operator
        # is in every desk role, so the local demo shows them.
        operator.groups.add(*Group.objects.filter(name__in=["payments", "provisioning", "payouts"]))
