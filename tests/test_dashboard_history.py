"""The dashboard benchmark's history generator (bench/dashboard_history.py, decision 0417), small: the ledger it
writes passes every invariant, its rows follow time as a shop's do, and the dashboard's figures over it equal
the same sums taken plainly from the rows, one order or transfer at a time."""

import importlib
from pathlib import Path

import pytest
from django.utils import timezone

from gpurent.backoffice.dashboard.figures import funnel_of, received_by_pair, revenue_by_term
from gpurent.backoffice.dashboard.occupancy import occupancy_by_model
from gpurent.backoffice.dashboard.periods import period_of
from gpurent.ledger.models import LedgerEntry, LedgerTransfer
from gpurent.ledger.selectors import ledger_check
from gpurent.orders.models import Order
from gpurent.payments.models import Payment

pytestmark = pytest.mark.django_db

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def history(monkeypatch, demo_catalog):
    monkeypatch.syspath_prepend(str(BENCH))
    now = timezone.now()
    counts = importlib.import_module("dashboard_history").history_generate(orders=200, ledger_lines=2_000, now=now)
    return now, counts


def test_the_history_keeps_the_ledger_whole_and_in_time_order(history):
    _, counts = history
    assert ledger_check() == []
    assert counts["ledger entries"] == LedgerEntry.objects.count()
    assert 1_900 <= counts["ledger entries"] <= 2_200
    assert Order.objects.filter(extends__isnull=True).count() == 200
    placed = list(Order.objects.filter(extends__isnull=True).order_by("id").values_list("created_at", flat=True))
    assert placed == sorted(placed)
    moved = list(LedgerTransfer.objects.order_by("id").values_list("created_at", flat=True))
    assert moved == sorted(moved)


def test_the_dashboards_figures_equal_plain_sums_over_the_history(history):
    now, _ = history
    period = period_of(365, now)
    in_period = {"created_at__gte": period.start, "created_at__lt": period.end}
    terms = dict(Order.objects.values_list("ref", "term_days"))
    expected: dict[int, int] = {3: 0, 7: 0, 30: 0}
    for reference, cents in LedgerTransfer.objects.filter(**in_period).values_list("reference", "amount_cents"):
        kind, _, ref = reference.partition(":")
        if kind in ("order", "refund"):
            expected[terms[ref]] += cents if kind == "order" else -cents
    assert {int(s.key): s.total for s in revenue_by_term(period)} == expected
    received = sum(s.total for s in received_by_pair(period))
    assert received == sum(
        LedgerTransfer.objects.filter(reference__startswith="deposit:", **in_period).values_list(
            "amount_cents", flat=True
        )
    )
    credited = Payment.objects.filter(
        state="credited", credited_at__gte=period.start, credited_at__lt=period.end
    ).values_list("credited_cents", flat=True)
    assert received == sum(cents or 0 for cents in credited)
    assert funnel_of(period).placed == Order.objects.filter(extends__isnull=True, **in_period).count()
    rentals = Order.objects.filter(extends__isnull=True, term_starts_at__isnull=False)
    rented = 0.0
    for order in rentals:
        assert order.term_starts_at is not None
        assert order.term_ends_at is not None
        overlap = min(order.term_ends_at, now) - max(order.term_starts_at, period.start)
        rented += order.cards * max(0.0, overlap.total_seconds())
    # The database counts whole seconds: each start and end may drop up to a second per card.
    slack = sum(2 * order.cards for order in rentals)
    assert sum(sum(model.card_seconds) for model in occupancy_by_model(period)) == pytest.approx(rented, abs=slack)
