"""`{% order_payment_panel order %}`: the payment section of an order page, rendered by payments.

Orders do not import payments; the order page includes this tag, so what it shows about intents, the balance
and the ledger comes from the app that owns them.
"""

from __future__ import annotations

from typing import Any

from django import template

from gpurent.ledger.selectors import balance_for, transfers_with_references
from gpurent.orders.models import Order

from ..forms import PairForm
from ..models import PaymentIntent
from ..selectors import intents_for_order, order_references, payment_reported
from ..views import intent_display

register = template.Library()


@register.inclusion_tag("payments/partials/order_panel.html", takes_context=True)
def order_payment_panel(context: template.Context, order: Order) -> dict[str, Any]:
    intents: list[PaymentIntent] = list(intents_for_order(order).prefetch_related("payments"))
    references = order_references(order)
    balance = balance_for(order.owner)
    return {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "order": order,
        "intents": [intent_display(intent) for intent in intents],
        "reported": payment_reported(intents),
        "balance": balance,
        "balance_covers": balance >= order.total,
        "pair_form": PairForm(auto_id="pair_%s"),
        "transfers": list(transfers_with_references(references)),
    }
