"""`python manage.py provision ORDER_REF --ready --host HOST --port PORT --user USER [--public-key KEY |
--password-stdin] [--jupyter-url-stdin]`, `--preparing`, `--failed [--reason TEXT]` and `--correct` (the same
options as `--ready`; what is left out of the login is kept): the provisioning desk for operators' scripts.

The rules are the desk's (`orders.provisioning_steps`): the same steps apply to the same states, a refusal names the
order's state and what applies, a failure without `--reason` gives the customer the standard sentence in their
language. A one-time password and a Jupyter URL (it carries its token) are read from standard input, never from
the command line (which other users can see): the password on the first line, the URL on the next.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gpurent.core.errors import ApplicationError
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails
from gpurent.orders.provisioning_steps import CORRECT, FAILED, PREPARING, READY, provision_step


class Command(BaseCommand):
    help = (
        "Take a paid order's next provisioning step, as the desk does: preparing, ready (with SSH access), failed "
        "(refunded) or correct (the access details of a Ready rental)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("order_ref")
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--preparing", action="store_true")
        action.add_argument("--ready", action="store_true")
        action.add_argument("--failed", action="store_true")
        action.add_argument("--correct", action="store_true", help="correct the access details of a Ready rental")
        parser.add_argument("--host", default="")
        parser.add_argument("--port", type=int, default=22)
        parser.add_argument("--user", default="")
        parser.add_argument("--public-key", default="", help="another public key you installed (one OpenSSH line)")
        parser.add_argument("--password-stdin", action="store_true", help="read the one-time password from stdin")
        parser.add_argument(
            "--jupyter-url-stdin", action="store_true", help="read the Jupyter URL with its token from stdin"
        )
        parser.add_argument(
            "--reason", default="", help="why provisioning failed, told to the customer (default: the standard note)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            order = Order.objects.get(ref=options["order_ref"].strip().upper())
        except Order.DoesNotExist:
            raise CommandError(f"no order {options['order_ref']}") from None
        step = next(name for name in (PREPARING, READY, FAILED, CORRECT) if options[name])
        password = sys.stdin.readline().strip() if options["password_stdin"] else ""
        jupyter_url = sys.stdin.readline().strip() if options["jupyter_url_stdin"] else ""
        access = AccessDetails(
            options["host"], options["port"], options["user"], options["public_key"], password, jupyter_url
        )
        try:
            order = provision_step(order=order, step=step, actor=None, access=access, reason=options["reason"])
        except ApplicationError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"order {order.ref}: {order.provisioning_status}")
        if order.term_ends_at:
            self.stdout.write(f"term ends {order.term_ends_at.isoformat()}")
