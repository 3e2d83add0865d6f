"""`python manage.py provision ORDER_REF --ready --host HOST --port PORT --user USER [--public-key KEY |
--password-stdin]` and `--preparing`, `--failed --reason TEXT`: the provisioning desk for operators' scripts.

A one-time password is read from standard input, never from the command line (which other users can see).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gpurent.core.errors import ApplicationError
from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails, provision_fail, provision_ready, provision_start


class Command(BaseCommand):
    help = "Move a paid order through provisioning: preparing, ready (with SSH access) or failed (refunded)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("order_ref")
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--preparing", action="store_true")
        action.add_argument("--ready", action="store_true")
        action.add_argument("--failed", action="store_true")
        parser.add_argument("--host", default="")
        parser.add_argument("--port", type=int, default=22)
        parser.add_argument("--user", default="")
        parser.add_argument("--public-key", default="", help="the customer's public key you installed")
        parser.add_argument("--password-stdin", action="store_true", help="read the one-time password from stdin")
        parser.add_argument("--reason", default="", help="why provisioning failed")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            order = Order.objects.get(ref=options["order_ref"].upper())
        except Order.DoesNotExist:
            raise CommandError(f"no order {options['order_ref']}") from None
        try:
            if options["preparing"]:
                order = provision_start(order=order, actor=None)
            elif options["failed"]:
                if not options["reason"]:
                    raise CommandError("--reason is required with --failed")
                order = provision_fail(order=order, actor=None, reason=options["reason"])
            else:
                if order.provisioning_status == ProvisioningStatus.NOT_STARTED:
                    order = provision_start(order=order, actor=None)
                password = sys.stdin.readline().strip() if options["password_stdin"] else ""
                access = AccessDetails(
                    options["host"], options["port"], options["user"], options["public_key"], password
                )
                order = provision_ready(order=order, actor=None, access=access)
        except ApplicationError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"order {order.ref}: {order.provisioning_status}")
        if order.term_ends_at:
            self.stdout.write(f"term ends {order.term_ends_at.isoformat()}")
