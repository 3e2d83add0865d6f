"""What orders asks of payments: every call from orders into payments, by name, in one place (decision 0487).

Payments sits above orders (an intent belongs to an order: DESIGN §10, `tests/test_architecture.py`), so orders
may not import it. Four things orders needs from it are declared here and called through `payments()` where they
happen, so the effect is written at its call site:

- `order_intents_close(order) -> int`: `services.order_transition`, when an order stops waiting for payment (paid,
  cancelled, expired), closes the order's open intents in the same transaction, with the order locked
  (`payments.intents.lifecycle.order_intents_close`).
- `order_cancel_warning(order) -> str`: before a customer cancels, what happens to money already sent for the
  order, or "" (`payments.intents.lifecycle.order_cancel_warning_for_payments`).
- `order_payment_fields(order) -> dict`: the payment fields of the order's API shape (`intents`,
  `payment_reported`, `payment_state`: `payments.presenters.order_payment_fields`).
- `order_ledger_references(orders) -> {order id: [reference, …]}`: the ledger references that moved each order's
  money, for the orders CSV (`payments.selectors.order_ledger_references`).

Payments provides all four at once, in `PaymentsConfig.ready()` (`payments_provide`); asking before that (payments
not installed) is a configuration error, not a silent no-op.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from .models import Order

__all__ = ["PaymentsPort", "payments", "payments_provide"]


@dataclass(frozen=True, slots=True)
class PaymentsPort:
    """The payments functions orders calls (see the module docstring for when each runs)."""

    order_intents_close: Callable[[Order], int]
    order_cancel_warning: Callable[[Order], str]
    order_payment_fields: Callable[[Order], dict[str, Any]]
    order_ledger_references: Callable[[Sequence[Order]], Mapping[int, list[str]]]


_provided: list[PaymentsPort] = []


def payments_provide(port: PaymentsPort) -> None:
    """Called once, from `PaymentsConfig.ready()`; a second call replaces the first."""
    _provided[:] = [port]


def payments() -> PaymentsPort:
    """The payments functions orders calls.

    Raises:
        ImproperlyConfigured: payments has not provided them (it is not in INSTALLED_APPS).
    """
    if not _provided:
        raise ImproperlyConfigured("gpurent.payments provides what orders asks of it: add it to INSTALLED_APPS")
    return _provided[0]
