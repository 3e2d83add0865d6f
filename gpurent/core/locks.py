"""The one lock order of every transaction that moves money (docs/money.md).

Rows are locked in this order of kinds, and within a kind by primary key:

1. orders.Order           (the order the money is for)
2. payments.Deposit       (a top-up)
3. payments.PaymentIntent (the instructions a payment answers)
4. payments.Payout        (a withdrawal)
5. ledger.LedgerAccount   (customer accounts only; system accounts are never locked: their balance is the
                           sum of their entries, so they do not serialise the shop)

A transaction may skip kinds but never go back to an earlier kind after a later one: two transactions that
follow the same order wait for each other instead of deadlocking. `lock_rows` is the one way to lock these
rows. It checks the order of what it is given and what the current transaction already holds from earlier
calls, then takes the locks; services call it first thing, with everything they will write, and the services
they call re-lock the same rows (allowed in any order: a row already held is not waited for). Nothing slow (no
network call) runs while these locks are held.

What a transaction holds is written where Django already keeps per-transaction state: each call that takes new
rows adds a no-op `transaction.on_commit` callback (`_Held`) naming them. Django drops those callbacks when the
transaction commits or rolls back, and drops the ones added inside a savepoint when that savepoint rolls back —
exactly when the database releases the rows' locks — so no stale state outlives a transaction or a rolled-back
savepoint. Under a test case's own atomic blocks (`_from_testcase`), the code's transaction is the outermost
block that is not the test case's, told apart by its savepoint id.

The one exception: queue reads with SKIP LOCKED (`orders_expire_due`, `orders_end_terms`) lock their order
directly. They never wait for a lock, so they cannot take part in a deadlock, and an order is the first kind.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

__all__ = ["LOCK_ORDER", "LockOrderError", "lock_rows"]

logger = logging.getLogger(__name__)

LOCK_ORDER: tuple[str, ...] = (
    "orders.order",
    "payments.deposit",
    "payments.paymentintent",
    "payments.payout",
    "ledger.ledgeraccount",
)


class LockOrderError(ValueError):
    """Rows locked against the money lock order: a programming error that can deadlock two transactions."""


@dataclass(frozen=True, slots=True)
class _Held:
    """Rows of one kind the current transaction has locked, kept as a no-op on-commit callback (see the module
    docstring): `scope` is the savepoint id of the transaction's outermost block under a test case, else None."""

    scope: str | None
    label: str
    keys: frozenset[Any]

    def __call__(self) -> None:
        """Run on commit, when the locks are released with the transaction: nothing to do."""


def _scope(connection: BaseDatabaseWrapper) -> str | None:
    """The code's transaction: the outermost atomic block a test case did not open (index 0, no savepoint, in
    production; a savepoint inside a test case's blocks in tests). Block i > 0 has `savepoint_ids[i - 1]`."""
    blocks = connection.atomic_blocks
    for index, block in enumerate(blocks):
        if not getattr(block, "_from_testcase", False):
            return connection.savepoint_ids[index - 1] if index else None
    return connection.savepoint_ids[-1] if connection.savepoint_ids else None


def _held(connection: BaseDatabaseWrapper, scope: str | None) -> list[_Held]:
    """What the current transaction holds from earlier `lock_rows` calls (none outside a transaction)."""
    if not connection.in_atomic_block:
        return []
    # Entries are (savepoint ids, callback, robust); django-stubs still types them as pairs.
    callbacks = (entry[1] for entry in connection.run_on_commit)
    return [func for func in callbacks if isinstance(func, _Held) and func.scope == scope]


def _wrong_order(message: str) -> None:
    """Fail loudly: raise where a developer sees it (DEBUG, the tests: `LOCK_ORDER_STRICT`); in production log an
    error with the stack and go on, so a latent wrong order shows in the logs instead of failing a payment."""
    if settings.DEBUG or settings.LOCK_ORDER_STRICT:
        raise LockOrderError(message)
    logger.error("money lock order: %s", message, stack_info=True)


def lock_rows(*groups: tuple[type[models.Model], Iterable[Any]]) -> None:
    """Lock the rows `(Model, primary keys)` with SELECT … FOR UPDATE, kind by kind in `LOCK_ORDER`.

    `None` keys are skipped. Rows the current transaction already holds may be given again, in any order (they
    are not waited for). On SQLite (one writer at a time) the statements run and lock nothing more.

    Raises:
        LockOrderError: the groups are not in `LOCK_ORDER`, or (DEBUG, tests) a group takes new rows of a kind
            earlier than one the current transaction already holds; in production that is logged instead.
    """
    connection = transaction.get_connection()
    scope = _scope(connection)
    held = _held(connection, scope)
    latest = max((LOCK_ORDER.index(item.label) for item in held), default=-1)
    held_keys = {(item.label, key) for item in held for key in item.keys}
    rank = -1
    for model, keys in groups:
        label = model._meta.label_lower
        if label not in LOCK_ORDER:
            raise LockOrderError(f"{label} is not in the money lock order")
        if LOCK_ORDER.index(label) < rank:
            raise LockOrderError(
                f"{label} locked after a later kind: see the money lock order in gpurent/core/locks.py"
            )
        rank = LOCK_ORDER.index(label)
        wanted = sorted({key for key in keys if key is not None})
        new = frozenset(key for key in wanted if (label, key) not in held_keys)
        if new and rank < latest:
            _wrong_order(
                f"{label} {sorted(new)} locked after this transaction locked {LOCK_ORDER[latest]}: see the money "
                "lock order in gpurent/core/locks.py"
            )
        if wanted:
            list(
                model._default_manager.select_for_update(of=("self",))
                .filter(pk__in=wanted)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        if new and connection.in_atomic_block:
            connection.on_commit(_Held(scope, label, new))
