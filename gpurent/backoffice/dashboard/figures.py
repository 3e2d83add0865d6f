"""The dashboard's figures, each one query (or two) that groups in the database: a date truncation and SUM or
COUNT, written with Django's functions so that SQLite and PostgreSQL run the same code (decision 0416).

Money comes from the ledger: revenue is what `revenue:rentals` received (`order:<ref>`) less what it gave back
(`refund:<ref>`, reversals), dated by the transfer; money received is each credited payment (its `credited_cents`
is the amount of its `deposit:<ref>` transfer, posted in the same transaction). Orders come from their history:
`paid_at` and `term_starts_at` are written by `orders.services.order_transition` in the transaction that records
the status change to `paid` and to `ready`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    DateField,
    DurationField,
    Expression,
    ExpressionWrapper,
    F,
    IntegerField,
    Min,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, StrIndex, Substr, Trunc

from gpurent.catalog.enums import Term
from gpurent.ledger.models import LedgerAccount, LedgerTransfer
from gpurent.ledger.services import REVENUE_RENTALS
from gpurent.orders.access_removal import access_to_remove
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import MachineRequest, Order
from gpurent.payments.assets import PAIRS
from gpurent.payments.models import Payment, PaymentIntent, PaymentState, Payout, PayoutStatus
from gpurent.payments.selectors import intents_to_verify
from gpurent.support.enums import RequestStatus
from gpurent.support.models import SupportRequest

from .periods import Period

__all__ = [
    "Funnel",
    "Medians",
    "OpenWork",
    "Series",
    "funnel_of",
    "medians_of",
    "open_work",
    "received_by_pair",
    "rentals_placed",
    "revenue_by_term",
]


@dataclass(frozen=True, slots=True)
class Series:
    """One line or one colour of bars: a value per bucket of the period (USD cents here)."""

    key: str
    label: str
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.values)


def bucket_of(field: str, period: Period) -> Trunc:
    """The first day of the bucket (day or week) a datetime column falls in, in the shop's time zone."""
    return Trunc(field, period.bucket, output_field=DateField())


def _spread(period: Period, rows: Iterable[Mapping[str, Any]], key: str) -> dict[Any, list[int]]:
    """Rows of (key, bucket, cents) as a list of cents per bucket for each key."""
    index = {day: position for position, day in enumerate(period.buckets)}
    spread: dict[Any, list[int]] = {}
    for row in rows:
        values = spread.setdefault(row[key], [0] * len(period.buckets))
        values[index[row["bucket"]]] += int(row["cents"])
    return spread


def revenue_by_term(period: Period) -> list[Series]:
    """Net revenue per bucket for each term (3, 7, 30 days): transfers into `revenue:rentals` less those out of it.

    A transfer names its order in its reference (`order:R-…`, `refund:R-…`), a reversal (`reversal:<id>`) the
    transfer it reverses, whose reference names the order: the reversals are a second query, joined to the
    transfers they reverse (a handful of rows; joining every transfer would hash the whole ledger). The order's
    term is found by an `IN (SELECT ref …)` per term, which both databases answer with one hash (or temporary
    index) of the orders' references, not a lookup per transfer. A transfer of no known order (none today) would
    be counted under the key 0, shown only if it is not zero.
    """
    revenue = LedgerAccount.objects.filter(code=REVENUE_RENTALS).values_list("pk", flat=True).first()
    rows: list[dict[str, Any]] = []
    if revenue is not None:
        transfers = LedgerTransfer.objects.filter(
            Q(credit_account_id=revenue) | Q(debit_account_id=revenue),
            created_at__gte=period.start,
            created_at__lt=period.end,
        )
        signed = Case(When(credit_account_id=revenue, then=F("amount_cents")), default=-F("amount_cents"))
        terms = [
            When(order_ref__in=Order.objects.filter(term_days=term).values("ref"), then=Value(term)) for term in Term
        ]
        for named, reference in [
            (transfers.filter(reverses__isnull=True), F("reference")),
            (transfers.filter(reverses__isnull=False), F("reverses__reference")),
        ]:
            rows += (
                named.annotate(order_ref=Substr(reference, StrIndex(reference, Value(":")) + 1))
                .annotate(term=Case(*terms, default=Value(0), output_field=IntegerField()))
                .values("term", bucket=bucket_of("created_at", period))
                .annotate(cents=Sum(signed))
                .order_by()
            )
    spread = _spread(period, rows, "term")
    series = [
        Series(str(term.value), str(term.label), tuple(spread.pop(term.value, [0] * len(period.buckets))))
        for term in Term
    ]
    if spread:
        series.append(Series("0", "?", tuple(spread.pop(0))))
    return series


def received_by_pair(period: Period) -> list[Series]:
    """USD credited to balances per bucket for each asset/network pair that received anything in the period
    (in the order of `payments.assets.PAIRS`), dated when it was credited."""
    rows = (
        Payment.objects.filter(
            state=PaymentState.CREDITED,
            credited_cents__gt=0,
            credited_at__gte=period.start,
            credited_at__lt=period.end,
        )
        .annotate(pair=F("intent__asset"), pair_network=F("intent__network"))
        .values("pair", "pair_network", bucket=bucket_of("credited_at", period))
        .annotate(cents=Sum("credited_cents"))
        .order_by()
    )
    spread = _spread(period, ({**row, "key": f"{row['pair']}/{row['pair_network']}"} for row in rows), "key")
    return [Series(pair.key, pair.display_label, tuple(spread[pair.key])) for pair in PAIRS if pair.key in spread]


def rentals_placed(period: Period) -> QuerySet[Order]:
    """The rentals (orders that are not extensions) placed in the period: the cohort of the funnel."""
    return Order.objects.filter(extends__isnull=True, created_at__gte=period.start, created_at__lt=period.end)


@dataclass(frozen=True, slots=True)
class Funnel:
    """Rentals placed in the period, how far each got, and where the others stopped."""

    placed: int
    paid: int
    ready: int
    awaiting: int  # not paid yet, still within their payment deadline
    expired: int
    cancelled: int
    preparing: int  # paid, machine not ready yet
    failed: int  # paid, the machine could not be provided (refunded)


def funnel_of(period: Period) -> Funnel:
    """One COUNT … FILTER per stage (a CASE on SQLite) over the rentals placed in the period."""
    paid = Q(payment_status=PaymentStatus.PAID)
    counts = rentals_placed(period).aggregate(
        placed=Count("pk"),
        paid=Count("pk", filter=paid),
        ready=Count("pk", filter=Q(term_starts_at__isnull=False)),
        awaiting=Count("pk", filter=Q(payment_status=PaymentStatus.AWAITING_PAYMENT)),
        expired=Count("pk", filter=Q(payment_status=PaymentStatus.EXPIRED)),
        cancelled=Count("pk", filter=Q(payment_status=PaymentStatus.CANCELLED)),
        preparing=Count(
            "pk",
            filter=paid & Q(provisioning_status__in=[ProvisioningStatus.NOT_STARTED, ProvisioningStatus.PREPARING]),
        ),
        failed=Count("pk", filter=Q(provisioning_status=ProvisioningStatus.FAILED)),
    )
    return Funnel(**counts)


@dataclass(frozen=True, slots=True)
class Medians:
    """Median time from placing to paid, and from paid to ready, of the rentals placed in the period (None when
    no rental got that far)."""

    to_paid: timedelta | None
    paid_to_ready: timedelta | None


def _median(rows: QuerySet[Order], since: str, until: str, count: int) -> timedelta | None:
    """The median of `until - since` over `rows`, which hold exactly `count` rows: the middle one or two of the
    sorted durations, read with LIMIT/OFFSET (no percentile function: SQLite has none, and one code path is kept)."""
    if count == 0:
        return None
    duration: Expression = ExpressionWrapper(F(until) - F(since), output_field=DurationField())
    middle = list(
        rows.annotate(duration=duration)
        .order_by("duration")
        .values_list("duration", flat=True)[(count - 1) // 2 : count // 2 + 1]
    )
    return sum(middle, timedelta()) / len(middle)


def medians_of(period: Period, funnel: Funnel) -> Medians:
    """Two sorted, two-row reads over the funnel's cohort; `funnel` gives their sizes."""
    cohort = rentals_placed(period)
    return Medians(
        to_paid=_median(cohort.filter(payment_status=PaymentStatus.PAID), "created_at", "paid_at", funnel.paid),
        paid_to_ready=_median(cohort.filter(term_starts_at__isnull=False), "paid_at", "term_starts_at", funnel.ready),
    )


@dataclass(frozen=True, slots=True)
class OpenWork:
    """What waits for an operator now, whatever the period: the desks' queues."""

    payouts: int  # withdrawals requested, not sent or rejected yet
    payouts_cents: int
    payouts_oldest: datetime | None
    reported: int  # payment instructions a customer reported paid, not confirmed (the payments desk's first rows)
    in_review: int  # payments received late, waiting for an operator to credit or decline them
    to_provision: int  # paid rentals whose machine is not ready yet
    machine_requests: int  # customers' stop or restart requests not handled yet
    access_to_remove: int  # ended rentals without a GPU host whose access is not marked removed yet
    support_requests: int  # support requests waiting for an operator: new, or the customer wrote last
    support_oldest: datetime | None  # since when the one waiting longest waits (its customer's last message)


def open_work(*, to_provision: int | None = None) -> OpenWork:
    """The queues; `to_provision` when the caller has counted it already (`occupancy.orders_now().waiting`)."""
    payouts = Payout.objects.filter(status=PayoutStatus.REQUESTED).aggregate(
        count=Count("pk"), cents=Coalesce(Sum("amount_cents"), 0), oldest=Min("created_at")
    )
    support = SupportRequest.objects.filter(status=RequestStatus.OPEN).aggregate(
        count=Count("pk"), oldest=Min("last_message_at")
    )
    if to_provision is None:
        # As the provisioning desk counts them: an extension needs no machine (it moves its rental's term end).
        to_provision = Order.objects.filter(
            extends__isnull=True,
            payment_status=PaymentStatus.PAID,
            provisioning_status__in=[ProvisioningStatus.NOT_STARTED, ProvisioningStatus.PREPARING],
        ).count()
    return OpenWork(
        payouts=payouts["count"],
        payouts_cents=payouts["cents"],
        payouts_oldest=payouts["oldest"],
        # As the payments desk's "reported" queue counts them: a part already credited waits for the customer.
        reported=PaymentIntent.objects.filter(intents_to_verify()).count(),
        in_review=Payment.objects.filter(state=PaymentState.REVIEW).count(),
        to_provision=to_provision,
        machine_requests=MachineRequest.objects.filter(handled_at__isnull=True).count(),
        access_to_remove=access_to_remove().count(),
        support_requests=support["count"],
        support_oldest=support["oldest"],
    )
