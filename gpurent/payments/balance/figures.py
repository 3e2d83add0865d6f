"""The customer's balance seen from payments: the deposit rows that credit it, and how much of it orders hold.

Read-only but for `deposit_row_create` (a new deposit row with its reference; the caller posts its ledger transfer).
The balance itself is the ledger's (`gpurent.ledger.selectors.balance_for`); what is **held** is derived from the
open intents' balance shares, so nothing is ever released by hand (decision 0373).

The balance page reads everything it shows of these live, with the pending top-ups' count, in one statement
written once (`balance_page_figures`, decision 0499); `payments/tests/test_balance_page_figures.py` holds it equal to
`balance_figures` and `top_ups_refusal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.core.references import new_reference
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.selectors import balance_for
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.models import Order

from ..intents.refusals import top_up_window_start
from ..models import Deposit, DepositKind, DepositStatus, IntentStatus, PaymentIntent

__all__ = [
    "BalanceFigures",
    "BalancePageFigures",
    "balance_available",
    "balance_figures",
    "balance_held",
    "balance_page_figures",
    "deposit_row_create",
    "spendable_for_order",
]


def deposit_row_create(**fields: object) -> Deposit:
    """A new deposit row with a fresh `D-…` reference (retried on the rare clash): the row only, for a top-up
    (`services.deposit_create`, which checks the amount and the limits first) or a credited payment."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Deposit.objects.create(ref=new_reference("D"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free deposit reference")


def balance_held(owner_id: int, *, now: datetime | None = None, except_order_id: int | None = None) -> Usd:
    """The balance held for orders by their open intents (awaiting payment, before expiry, order unpaid):
    the balance share each intent states. Derived from the intent rows; nothing to release by hand."""
    now = now or timezone.now()
    held = (
        PaymentIntent.objects.filter(
            owner_id=owner_id,
            status=IntentStatus.AWAITING_PAYMENT,
            expires_at__gt=now,
            order__payment_status=PaymentStatus.AWAITING_PAYMENT,
            balance_share_cents__gt=0,
        )
        .exclude(order_id=except_order_id or 0)
        .values("order_id")
        .annotate(share=Max("balance_share_cents"))
    )
    # An order with several open intents holds its largest share once, not the sum.
    return Usd(sum(row["share"] for row in held))


def spendable_for_order(order: Order) -> Usd:
    """What the order's owner may spend on it from the balance: the balance minus what other orders hold."""
    return balance_for(order.owner) - balance_held(order.owner_id, except_order_id=order.pk)


@dataclass(frozen=True)
class BalanceFigures:
    """A customer's balance in the three figures the balance page, the API and the withdrawal check show
    (decision 0373): `balance` is the whole balance (the ledger's, holds included), `held` what orders' open
    payment instructions hold of it, `spendable` the rest: what a withdrawal or a new order may take."""

    balance: Usd
    held: Usd

    @property
    def spendable(self) -> Usd:
        return self.balance - self.held


def balance_figures(owner: AbstractBaseUser, *, now: datetime | None = None) -> BalanceFigures:
    """The one source of the balance's figures (see `BalanceFigures`)."""
    return BalanceFigures(balance=balance_for(owner), held=balance_held(owner.pk, now=now))


def balance_available(owner: AbstractBaseUser) -> Usd:
    """The balance minus every hold: what a withdrawal or a new order may take."""
    return balance_figures(owner).spendable


@dataclass(frozen=True)
class BalancePageFigures:
    """What the balance page shows live, read together: the three figures, the customer's ledger account (None
    before its first movement) and how many pending top-ups count against a new one (decision 0320), counted up
    to `PAYMENTS_MAX_PENDING_TOP_UPS`."""

    figures: BalanceFigures
    account_id: int | None
    pending_top_ups: int


def balance_page_figures(owner: AbstractBaseUser, *, now: datetime) -> BalancePageFigures:
    """`balance_figures`, the ledger account's id and `top_ups_refusal`'s count in one statement written once per
    process: the ORM compiled three querysets for them on every view of the page, about 4 ms of its ~20 ms of CPU
    (decision 0499). The same rules: `payments/tests/test_balance_page_figures.py` holds the results equal."""
    adapt = connection.ops.adapt_datetimefield_value
    limit = settings.PAYMENTS_MAX_PENDING_TOP_UPS
    code = f"customer:{owner.pk}"
    with connection.cursor() as cursor:
        cursor.execute(
            _page_figures_sql(),
            [
                *(code, code),
                *(owner.pk, IntentStatus.AWAITING_PAYMENT, adapt(now), PaymentStatus.AWAITING_PAYMENT),
                *(owner.pk, DepositKind.TOP_UP, DepositStatus.PENDING, adapt(top_up_window_start(now)), limit),
            ],
        )
        account_id, balance, held, pending = cursor.fetchone()
    return BalancePageFigures(
        # PostgreSQL sums big integers as `numeric` (a Decimal here).
        figures=BalanceFigures(balance=Usd(balance or 0), held=Usd(int(held or 0))),
        account_id=account_id,
        pending_top_ups=pending,
    )


@cache
def _page_figures_sql() -> str:
    """`balance_page_figures`' statement: four scalar subqueries, each the SQL its ORM twin compiles to
    (`balance_for`, `ledger_lines_for`'s account, `balance_held`, `top_ups_refusal`'s capped count)."""
    account, intent = LedgerAccount._meta.db_table, PaymentIntent._meta.db_table
    order, deposit = Order._meta.db_table, Deposit._meta.db_table
    # S608: the names come from the models, every value is a parameter.
    return (
        f"SELECT (SELECT id FROM {account} WHERE code = %s),"  # noqa: S608
        f" (SELECT balance_cents FROM {account} WHERE code = %s),"
        # An order with several open intents holds its largest share once, not the sum.
        f" (SELECT SUM(share) FROM (SELECT MAX(i.balance_share_cents) AS share FROM {intent} i"
        f" INNER JOIN {order} o ON o.id = i.order_id WHERE i.owner_id = %s AND i.status = %s"
        " AND i.expires_at > %s AND o.payment_status = %s AND i.balance_share_cents > 0 GROUP BY i.order_id) held),"
        f" (SELECT COUNT(*) FROM (SELECT id FROM {deposit} WHERE owner_id = %s AND kind = %s AND status = %s"
        " AND created_at > %s LIMIT %s) pending)"
    )
