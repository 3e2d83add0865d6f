"""`python manage.py sweep`: the periodic housekeeping. Idempotent; safe to run on several machines at once.

It lives in payments because it needs both orders and payments (payments may import orders, not the reverse).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from gpurent.orders.services import orders_expire_due
from gpurent.payments.verification import intents_expire_due


class Command(BaseCommand):
    help = "Expire payment intents and unpaid orders past their deadlines; expired orders return their lots."

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        intents = intents_expire_due(now=now)
        orders = orders_expire_due(now=now)
        self.stdout.write(f"sweep: {intents} payment intent(s) and {orders} unpaid order(s) expired.")
