"""What happened to an order's money, summed from the ledger transfers that name it (DESIGN §5).

An order's payment status says whether it was debited; it cannot say that part of its total arrived and sits in
the customer's balance. The page, the API, the CSV and the printable summary read this instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer

from .models import Order

__all__ = ["OrderMoney", "order_money"]


@dataclass(frozen=True)
class OrderMoney:
    """An order's money in USD, from its ledger transfers (a reversed transfer counts for nothing):

    - `received`: credited to the owner's balance by payments sent to the order's instructions (`deposit:…`);
    - `paid`: debited from the balance for the order (`order:R-…`): its total once paid, else nothing;
    - `refunded`: returned to the balance because the order could not be provided (`refund:R-…`).
    """

    received: Usd
    paid: Usd
    refunded: Usd

    @property
    def moved(self) -> bool:
        """Whether any money moved for the order (received, paid or refunded): only then is there a receipt."""
        return bool(self.received.cents or self.paid.cents or self.refunded.cents)

    @property
    def in_balance(self) -> Usd:
        """What was received for the order and not spent on it (or given back): it is in the owner's balance,
        where it can pay this order or another one, or be withdrawn. Never below zero: an order paid with
        money that arrived for something else leaves nothing of its own there."""
        left = self.received + self.refunded - self.paid
        return left if left.cents > 0 else Usd.zero()


def order_money(orders: Sequence[Order], references: Mapping[int, list[str]]) -> dict[int, OrderMoney]:
    """Each order's money by order id, given the ledger references that moved it (`export.order_ledger_references`,
    which the caller usually needs too): one query, none when nothing moved."""
    order_of = {reference: order_id for order_id, names in references.items() for reference in names}
    cents: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if order_of:
        moved = LedgerTransfer.objects.filter(reference__in=list(order_of), reversed_by__isnull=True)
        for reference, amount in moved.values_list("reference", "amount_cents"):
            cents[order_of[reference]][reference.split(":", 1)[0]] += amount
    return {
        order.pk: OrderMoney(
            received=Usd(cents[order.pk]["deposit"]),
            paid=Usd(cents[order.pk]["order"]),
            refunded=Usd(cents[order.pk]["refund"]),
        )
        for order in orders
    }
