"""`python manage.py confirm_payment INTENT_ID --txid TXID --amount AMOUNT`: an operator confirms a payment.

AMOUNT is what arrived, in the pair's asset ("12.5" USDT). Records the payment through
`payments.received.receive.payment_receive` (source `operator`), like the back office: credited once at the intent's
locked rate; a late payment goes to the review queue; the same transaction output twice is refused
(`payment_already_credited`) unless it is the same intent and amount (then nothing changes).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError

from gpurent.core.errors import ApplicationError
from gpurent.payments.assets import pair_get, parse_units
from gpurent.payments.models import PaymentIntent, PaymentSource
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import ManualVerifier


class Command(BaseCommand):
    help = "Confirm (or, with --reject, reject) the payment of a payment intent."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("intent_id", type=UUID)
        parser.add_argument("--txid", default="", help="the transaction id on chain")
        parser.add_argument("--amount", default="", help="the amount received, in the asset (e.g. 12.5)")
        parser.add_argument(
            "--output-index", type=int, default=0, help="the transaction output (or token log) index; default 0"
        )
        parser.add_argument("--reject", action="store_true", help="no valid payment exists for this intent")
        parser.add_argument("--reason", default="", help="why it is rejected")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            intent = PaymentIntent.objects.get(pk=options["intent_id"])
        except PaymentIntent.DoesNotExist:
            raise CommandError(f"no payment intent {options['intent_id']}") from None
        verifier = ManualVerifier()
        try:
            if options["reject"]:
                intent = verifier.reject(intent_id=intent.pk, actor=None, reason=options["reason"])
            else:
                if not options["txid"] or not options["amount"]:
                    raise CommandError("--txid and --amount are required to confirm")
                units = parse_units(options["amount"], pair_get(intent.asset, intent.network))
                payment = payment_receive(
                    intent_id=intent.pk,
                    txid=options["txid"],
                    output_index=options["output_index"],
                    amount_units=units,
                    source=PaymentSource.OPERATOR,
                )
                intent.refresh_from_db()
                deposit = payment.deposit
                credited = f", credited as deposit {deposit.ref}" if deposit else ""
                self.stdout.write(f"intent {intent.pk}: {intent.status}; payment {payment.state}{credited}")
                return
        except (ApplicationError, ValueError) as error:
            raise CommandError(f"{getattr(error, 'code', 'invalid')}: {error}") from None
        self.stdout.write(f"intent {intent.pk}: {intent.status}")
