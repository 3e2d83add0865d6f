"""A receipt per order, as an HTML page and a PDF (fpdf2): the brand, the order and its terms, every payment
received for it (asset, network, amount, rate, txid), what the balance paid, refunds, and the ledger
references. Everything on it is read from rows: the order, its intents' payments and the ledger transfers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from fpdf import FPDF

from gpurent.core.formats import date_text, decimal_text, usd_text
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.references import reference_text
from gpurent.ledger.selectors import transfers_with_references
from gpurent.orders.models import Order

from ..assets import format_units, pair_get
from ..intents.state import order_payment_badge
from ..models import Payment
from ..selectors import order_references

__all__ = ["Receipt", "ReceiptPayment", "receipt_for", "receipt_pdf"]


@dataclass(frozen=True, slots=True)
class ReceiptPayment:
    received_at: datetime
    asset: str
    network: str
    amount: str
    rate_usd: str
    credited: Usd | None
    txid: str
    state: str
    deposit_ref: str


@dataclass(frozen=True, slots=True)
class Receipt:
    brand: str
    order: Order
    # The order's payment as its page says it (`intents.state.order_payment_badge`): "In review", "Paid"…
    payment_label: str
    payments: list[ReceiptPayment]
    paid_in_crypto: Usd
    balance_used: Usd
    refunded: Usd
    transfers: list[LedgerTransfer]
    issued_at: datetime

    @property
    def anything_paid(self) -> bool:
        """Whether money moved for the order (a payment credited, the order paid, a refund). Before that the page
        and the PDF are titled as what they are, not as a receipt (QA walk 2: "Receipt" with $0 received)."""
        return bool(self.transfers)

    @property
    def title(self) -> str:
        if self.anything_paid:
            return _("Receipt for order %(ref)s") % {"ref": self.order.ref}
        return _("Order %(ref)s: nothing paid yet") % {"ref": self.order.ref}


def rate_text(rate_usd: Decimal, asset: str) -> str:
    """The locked rate as a reader writes it ("1 USDT = 1 USD", "1 BTC = 97.123,45 USD"), not with the
    twelve decimal places it is stored with."""
    return f"1 {asset} = {decimal_text(format(rate_usd, 'f'))} USD"


def receipt_for(order: Order) -> Receipt:
    """The receipt of `order` (the caller has checked the owner)."""
    rows = Payment.objects.filter(intent__order_id=order.pk).select_related("intent", "deposit").order_by("id")
    payments = []
    for row in rows:
        pair = pair_get(row.intent.asset, row.intent.network)
        payments.append(
            ReceiptPayment(
                received_at=row.received_at,
                asset=pair.asset,
                network=pair.network_label,
                amount=format_units(row.amount_units, pair),
                rate_usd=rate_text(row.rate_usd, pair.asset) if row.rate_usd is not None else "",
                credited=Usd(row.credited_cents) if row.credited_cents is not None else None,
                txid=row.txid,
                state=row.get_state_display(),
                deposit_ref=row.deposit.ref if row.deposit else "",
            )
        )
    transfers = list(transfers_with_references(order_references(order)))
    by_reference = {transfer.reference: transfer for transfer in transfers}
    debit = by_reference.get(f"order:{order.ref}")
    refund = by_reference.get(f"refund:{order.ref}")
    intents = order.intents.prefetch_related("payments", "chain_observations")
    # A payment for this order is credited to the balance and the order's debit takes it back out at once: only
    # what the debit took beyond the order's own payments came from an earlier balance.
    credited = sum(payment.credited.cents for payment in payments if payment.credited)
    paid_in_crypto = Usd(min(credited, debit.amount_cents if debit else 0))
    return Receipt(
        brand=settings.BRAND_NAME,
        order=order,
        payment_label=order_payment_badge(order, intents)["label"],
        payments=payments,
        paid_in_crypto=paid_in_crypto,
        balance_used=Usd(debit.amount_cents - paid_in_crypto.cents) if debit else Usd.zero(),
        refunded=Usd(refund.amount_cents) if refund else Usd.zero(),
        transfers=transfers,
        issued_at=timezone.now(),
    )


# DejaVu Sans (vendored with its licence, decision 0163): every letter of es/vi/tr, "Đã trả" included.
FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FONT = "DejaVuSans"


def _pdf() -> FPDF:
    pdf = FPDF(format="A4")
    pdf.add_font(FONT, "", str(FONT_DIR / "DejaVuSans.ttf"))
    pdf.add_font(FONT, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
    return pdf


def _when(value: datetime | None) -> str:
    return date_text(value, time=True, zone=True) if value else "-"


def receipt_pdf(receipt: Receipt) -> bytes:
    """The receipt as a one- or two-page A4 PDF."""
    order = receipt.order
    pdf = _pdf()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_title(receipt.title)
    width = pdf.epw

    def line(label: str, value: object, bold: bool = False) -> None:
        pdf.set_font(FONT, "", 10)
        pdf.cell(55, 6, str(label))
        pdf.set_font(FONT, "B" if bold else "", 10)
        pdf.multi_cell(width - 55, 6, str(value), new_x="LMARGIN", new_y="NEXT")

    def heading(text: str) -> None:
        pdf.ln(3)
        pdf.set_font(FONT, "B", 12)
        pdf.cell(width, 8, str(text), new_x="LMARGIN", new_y="NEXT")

    pdf.set_font(FONT, "B", 18)
    pdf.cell(width, 10, str(receipt.brand), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FONT, "", 12)
    pdf.cell(width, 8, receipt.title, new_x="LMARGIN", new_y="NEXT")
    if not receipt.anything_paid:
        pdf.set_font(FONT, "", 10)
        not_a_receipt = _("Nothing has been paid for this order yet, so this is not a receipt.")
        pdf.multi_cell(width, 6, not_a_receipt, new_x="LMARGIN", new_y="NEXT")
    heading(_("Order"))
    line(_("Reference"), order.ref, bold=True)
    line(_("Customer"), f"{order.contact_name} <{order.contact_email}>")
    cards = ngettext("%(cards)s GPU", "%(cards)s GPUs", order.cards) % {"cards": order.cards}
    line(_("GPU"), f"{order.lots} × {order.gpu.name} ({cards})")
    # The same lines as the receipt page (payments/receipt.html): the term and what it extends, when it was placed,
    # the payment and when it was paid, the term's dates once it has started; no line for what has not happened yet.
    term = str(order.term.label)
    if order.extends_id and order.extends:
        term += " · " + _("extends %(ref)s") % {"ref": order.extends.ref}
    line(_("Term"), term)
    line(_("Price of one lot"), usd_text(order.lot_price))
    line(_("Total"), usd_text(order.total), bold=True)
    line(_("Placed"), _when(order.created_at))
    line(_("Payment"), f"{receipt.payment_label} · {_when(order.paid_at)}" if order.paid_at else receipt.payment_label)
    if order.term_starts_at:
        line(_("Term dates"), f"{_when(order.term_starts_at)} – {_when(order.term_ends_at)}")
    heading(_("Payments received"))
    if not receipt.payments:
        line("", _("No crypto payment was received for this order."))
    for payment in receipt.payments:
        line(_("Received"), _when(payment.received_at))
        line(_("Amount"), f"{decimal_text(payment.amount)} {payment.asset} ({payment.network})", bold=True)
        line(_("Rate"), payment.rate_usd or "-")
        line(_("Credited"), usd_text(payment.credited) if payment.credited else payment.state)
        line(_("Transaction id"), payment.txid)
        line(_("Reference"), payment.deposit_ref or "-")
        pdf.ln(2)
    heading(_("Balance and refunds"))
    line(_("Paid in crypto"), usd_text(receipt.paid_in_crypto))
    line(_("Paid from the balance"), usd_text(receipt.balance_used))
    line(_("Refunded to the balance"), usd_text(receipt.refunded))
    heading(_("Ledger references"))
    if not receipt.transfers:
        line("", _("No ledger movement yet."))
    for transfer in receipt.transfers:
        amount = usd_text(Usd(transfer.amount_cents))
        line(reference_text(transfer.reference), f"{amount} · {_when(transfer.created_at)}")
    pdf.ln(4)
    pdf.set_font(FONT, "", 8)
    pdf.multi_cell(width, 5, str(_("Issued %(when)s.") % {"when": _when(receipt.issued_at)}))
    return bytes(pdf.output())
