"""`python manage.py sweep`: the periodic housekeeping. Idempotent; safe to run on several machines at once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from gpurent.orders.services import orders_expire_due


class Command(BaseCommand):
    help = "Expire unpaid orders past their payment deadline and return their lots to stock."

    def handle(self, *args: Any, **options: Any) -> None:
        expired = orders_expire_due()
        self.stdout.write(f"sweep: {expired} unpaid order(s) expired.")
