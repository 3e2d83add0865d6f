"""A ledger reference as a customer reads it: a word in their language and the machine reference to quote.

A transfer's reference is a machine string, `<kind>:<ref>` ("deposit:D-7KQ3-M9XA", "order:R-7KQ3-M9XB"): the API,
the CSV files and the back office show it whole. Pages, e-mails and the receipt show the kind as a word of the
reader's language and the ref as the code to copy or quote: "Pago recibido D-7KQ3-M9XA", "Đơn hàng R-7KQ3-M9XB"
(docs/decisions/0441-ledger-references-as-words.md). A kind this module does not know is shown as stored.

A `deposit:` reference is crypto the shop received: a top-up the customer asked for, an order's payment or a late
payment an operator credited. Its word says only that ("Payment received"), not "top-up": a customer who paid an
order never made a top-up (QA walk 2: es "Recarga", tr "Yükleme" beside "Pago de pedido" for the same D-…).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["REFERENCE_KINDS", "reference_parts", "reference_text"]

# Every prefix the shop writes (payments.received, payments.services, orders.provisioning, payments.payouts,
# ledger.services), with the word a customer reads for it.
REFERENCE_KINDS: dict[str, Promise] = {
    "deposit": _("Payment received"),
    "order": _("Order"),
    "refund": _("Refund"),
    "reversal": _("Reversal"),
    "payout": _("Withdrawal"),
    "payout-sent": _("Withdrawal sent"),
    "payout-fee": _("Withdrawal fee"),
    "payout-returned": _("Withdrawal returned"),
}


def reference_parts(reference: str) -> tuple[str, str]:
    """`reference` as (the kind's word in the active language, the ref): ("Pago recibido", "D-7KQ3-M9XA").

    A reference without a known kind comes back as ("", reference), to be shown as stored.
    """
    kind, separator, ref = reference.partition(":")
    label = REFERENCE_KINDS.get(kind) if separator else None
    if label is None or not ref:
        return "", reference
    return str(label), ref


def reference_text(reference: str) -> str:
    """`reference` as one line of text, for an e-mail or a PDF: "Pago recibido D-7KQ3-M9XA"."""
    label, ref = reference_parts(reference)
    return f"{label} {ref}" if label else ref
