"""`{% order_payment_panel order %}`: the payment section of an order page, rendered by payments.

Orders do not import payments; the order page includes this tag, so what it shows about intents, the balance
and the ledger comes from the app that owns them.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from gpurent.ledger.selectors import balance_for, transfers_with_references
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.models import Order

from ..balance.statement import balance_statement_page
from ..forms import PairForm
from ..intents.refusals import intent_refusal
from ..intents.state import order_payment_badge
from ..models import Deposit, PaymentIntent
from ..presenters import deposit_badge
from ..selectors import intents_for_order, order_references
from ..views import intent_display

register = template.Library()


@register.inclusion_tag("payments/partials/order_panel.html", takes_context=True)
def order_payment_panel(context: template.Context, order: Order) -> dict[str, Any]:
    intents: list[PaymentIntent] = list(intents_for_order(order).prefetch_related("payments", "chain_observations"))
    references = order_references(order)
    transfers = list(transfers_with_references(references))
    balance = balance_for(order.owner)
    awaiting = order.payment_status == PaymentStatus.AWAITING_PAYMENT
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "order": order,
        "intents": [intent_display(intent) for intent in intents],
        "balance": balance,
        "balance_covers": balance >= order.total,
        # No "Get new instructions" button when the request would be refused: the service's own rule says why.
        "refusal": intent_refusal(intents_for_order(order), now=timezone.now(), what="order") if awaiting else None,
        # "Pay with" starts on the pair of the newest instructions: new ones are most often asked for the same pair.
        "pair_form": PairForm(
            auto_id="pair_%s", initial={"pair": f"{intents[0].asset}/{intents[0].network}"} if intents else None
        ),
        "transfers": transfers,
    }


@register.inclusion_tag("orders/partials/status.html")
def order_payment_status(order: Order) -> dict[str, Any]:
    """The order's payment badge (`intents.state.order_payment_badge`): "In review", "Seen on
    chain" or "Payment reported" while it awaits its payment and one of its intents is in that state (DESIGN §5),
    else its payment status. Reads `order.intents.all()` with their payments and chain observations."""
    return order_payment_badge(order, order.intents.all())


@register.inclusion_tag("payments/partials/deposit_status.html")
def deposit_status(deposit: Deposit) -> dict[str, Any]:
    """A top-up's badge (`presenters.deposit_badge`): "Payment reported", "Lapsed" or its status."""
    return deposit_badge(deposit, now=timezone.now())


@register.inclusion_tag("payments/partials/balance_statement.html", takes_context=True)
def balance_statement_section(context: template.Context, user: Any, cursor: str | None = None) -> dict[str, Any]:
    """One page of the balance's lines (newest first, after `cursor`) with their references and the withdrawals'
    transactions, for the printable summary (the request goes along for the pager's links)."""
    lines, page = balance_statement_page(user, cursor)
    return {"lines": lines, "page": page, "request": context["request"]}
