"""The one lock order of every transaction that moves money (docs/money.md).

Rows are locked in this order of kinds, and within a kind by primary key:

1. orders.Order           (the order the money is for)
2. payments.Deposit       (a top-up)
3. payments.PaymentIntent (the instructions a payment answers)
4. payments.Payout        (a withdrawal)
5. ledger.LedgerAccount   (customer accounts only; system accounts are never locked: their balance is the
                           sum of their entries, so they do not serialise the shop)

A transaction may skip kinds but never go back to an earlier kind after a later one: two transactions that
follow the same order wait for each other instead of deadlocking. `lock_rows` checks the order of what it is
given and takes the locks; services call it first thing, with everything they will write, and the services
they call re-lock the same rows (a no-op). Nothing slow (no network call) runs while these locks are held.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models

__all__ = ["LOCK_ORDER", "lock_rows"]

LOCK_ORDER: tuple[str, ...] = (
    "orders.order",
    "payments.deposit",
    "payments.paymentintent",
    "payments.payout",
    "ledger.ledgeraccount",
)


def lock_rows(*groups: tuple[type[models.Model], Iterable[Any]]) -> None:
    """Lock the rows `(Model, primary keys)` with SELECT … FOR UPDATE, kind by kind in `LOCK_ORDER`.

    `None` keys are skipped. On SQLite (one writer at a time) the statements run and lock nothing more.

    Raises:
        ValueError: the groups are not in `LOCK_ORDER` (a programming error, caught by the tests).
    """
    rank = -1
    for model, keys in groups:
        label = model._meta.label_lower
        if label not in LOCK_ORDER:
            raise ValueError(f"{label} is not in the money lock order")
        if LOCK_ORDER.index(label) < rank:
            raise ValueError(f"{label} locked after a later kind: see the money lock order in gpurent/core/locks.py")
        rank = LOCK_ORDER.index(label)
        wanted = sorted({key for key in keys if key is not None})
        if wanted:
            list(
                model._default_manager.select_for_update(of=("self",))
                .filter(pk__in=wanted)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
