"""`python manage.py confirm_payment INTENT --txid TXID --amount AMOUNT`: an operator confirms a payment.

INTENT is the intent's id (the payments desk shows it) or the reference of its order or top-up (R-…, D-…): the
reference stands for the one intent of it still to verify (reported, nothing recorded yet), else the one still
open. AMOUNT is what arrived, in the pair's asset ("12.5" USDT). TXID must have the form of the intent's network
(`networks.txid_refusal`). Records the payment through `payments.received.receive.payment_receive` (source
`operator`), like the back office: credited once at the intent's locked rate; a late payment goes to the review
queue; the same transaction output twice is refused (`payment_already_credited`, saying where it was recorded)
unless it is the same intent and amount (then nothing changes). On an intent already confirmed or closed, a
transaction is recorded only with `--additional` (a second, real transaction to the same instructions, credited
to the balance). Every refusal is one sentence.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from gpurent.core.errors import ApplicationError
from gpurent.payments.assets import pair_get, parse_units
from gpurent.payments.errors import IntentAlreadySettled
from gpurent.payments.models import IntentStatus, PaymentIntent, PaymentSource
from gpurent.payments.networks import txid_refusal
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import ManualVerifier
from gpurent.payments.selectors import intents_to_verify

# Which of a reference's intents the reference stands for: the first group that has one.
_OPEN = Q(status__in=[IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED, IntentStatus.REVIEW])


def _intent_line(intent: PaymentIntent) -> str:
    pair = pair_get(intent.asset, intent.network)
    reported = ", reported" if intent.reported_at else ""
    return f"{intent.pk} ({pair.label}, {intent.status}{reported})"


def intent_find(given: str, *, additional: bool) -> PaymentIntent:
    """The intent `given` names: its id, or an order's or top-up's reference (its intent to verify, else its open
    one; with `additional`, else its confirmed one).

    Raises:
        CommandError: no such intent or reference, or the reference has several candidates (listed, by id).
    """
    try:
        intent_id = UUID(given)
    except ValueError:
        intent_id = None
    if intent_id is not None:
        found = PaymentIntent.objects.filter(pk=intent_id).first()
        if found is None:
            raise CommandError(f"no payment intent {intent_id}")
        return found
    ref = given.strip().upper()
    intents = PaymentIntent.objects.filter(Q(order__ref=ref) | Q(deposit__ref=ref)).order_by("created_at")
    if not intents.exists():
        raise CommandError(
            f"No order or top-up {ref} has payment instructions: give a reference (R-…, D-…) or an intent id."
        )
    groups = [intents.filter(intents_to_verify()), intents.filter(_OPEN)]
    if additional:
        groups.append(intents.filter(status=IntentStatus.CONFIRMED))
    for group in groups:
        candidates = list(group)
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            listed = "; ".join(_intent_line(intent) for intent in candidates)
            raise CommandError(
                f"{ref} has {len(candidates)} payment instructions that could be meant: {listed}. Give the intent id."
            )
    listed = "; ".join(_intent_line(intent) for intent in intents)
    hint = "" if additional else " (for a second transaction to confirmed instructions: --additional)"
    raise CommandError(f"{ref} has no payment instructions open or to verify{hint}: {listed}. Give the intent id.")


class Command(BaseCommand):
    help = (
        "Confirm (or, with --reject, reject) the payment of a payment intent, given by its id or by its order's or "
        "top-up's reference."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("intent", help="the intent id, or the reference of its order or top-up (R-…, D-…)")
        parser.add_argument("--txid", default="", help="the transaction id on chain, in the network's form")
        parser.add_argument("--amount", default="", help="the amount received, in the asset (e.g. 12.5)")
        parser.add_argument(
            "--output-index", type=int, default=0, help="the transaction output (or token log) index; default 0"
        )
        parser.add_argument(
            "--additional",
            action="store_true",
            help="the intent is already confirmed or closed and a second, real transaction paid it: credit it to "
            "the balance",
        )
        parser.add_argument("--reject", action="store_true", help="no valid payment exists for this intent")
        parser.add_argument("--reason", default="", help="why it is rejected")

    def handle(self, *args: Any, **options: Any) -> None:
        intent = intent_find(options["intent"], additional=options["additional"])
        verifier = ManualVerifier()
        try:
            if options["reject"]:
                intent = verifier.reject(intent_id=intent.pk, actor=None, reason=options["reason"])
            else:
                if not options["txid"] or not options["amount"]:
                    raise CommandError("--txid and --amount are required to confirm")
                refusal = txid_refusal(intent.network, options["txid"])
                if refusal is not None:
                    raise CommandError(refusal)
                pair = pair_get(intent.asset, intent.network)
                try:
                    units = parse_units(options["amount"], pair)
                except ValueError:
                    raise CommandError(
                        f"The amount “{options['amount']}” is not a plain amount of {pair.asset} with at most "
                        f"{pair.quote_decimals} decimals (e.g. 12.5)."
                    ) from None
                payment = payment_receive(
                    intent_id=intent.pk,
                    txid=options["txid"],
                    output_index=options["output_index"],
                    amount_units=units,
                    source=PaymentSource.OPERATOR,
                    refuse_if_settled=not options["additional"],
                )
                intent.refresh_from_db()
                deposit = payment.deposit
                credited = f", credited as deposit {deposit.ref}" if deposit else ""
                self.stdout.write(f"intent {intent.pk}: {intent.status}; payment {payment.state}{credited}")
                return
        except IntentAlreadySettled as error:
            raise CommandError(
                f"{error.message} If a second, real transaction paid it, run again with --additional (it is "
                "credited to the balance)."
            ) from None
        except ApplicationError as error:
            message = f"{error.message.rstrip('.')}: {error.detail}." if error.detail else error.message
            raise CommandError(message) from None
        self.stdout.write(f"intent {intent.pk}: {intent.status}")
