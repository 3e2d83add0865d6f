"""The operator's dashboard: its figures equal a small known history made through the shop's own services (orders
placed, paid by crypto payments, provisioned or failed, expired; a withdrawal, a reported and a late payment),
who may see it, and the period selector."""

import re
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from conftest import make_running_rental
from gpurent.backoffice.dashboard.figures import funnel_of, medians_of, open_work, received_by_pair, revenue_by_term
from gpurent.backoffice.dashboard.occupancy import occupancy_by_model
from gpurent.backoffice.dashboard.periods import period_of
from gpurent.core.formats import date_text
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.services import transfer_reverse
from gpurent.orders.extensions import order_extension_place
from gpurent.orders.models import MachineRequest
from gpurent.orders.provisioning import AccessDetails, provision_fail, provision_ready, provision_start
from gpurent.orders.services import Contact, order_place, orders_expire_due
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from gpurent.payments.models import ExchangeRate, Payment, ReceivingAddress
from gpurent.payments.payouts import payout_request
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.services import deposit_create, order_pay_from_balance
from gpurent.payments.tests.conftest import RATES, SHARED_ADDRESSES
from tests.conftest import fund

pytestmark = pytest.mark.django_db

URL = "/backoffice/backoffice/dashboard/"
TODAY = timezone.localdate()
D1, D2 = TODAY - timedelta(days=2), TODAY - timedelta(days=1)


def at(day, hour, minute=0):
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


class Clock:
    """The shop's clock for this test: every `timezone.now()` (services, `auto_now_add`) reads `now`."""

    def __init__(self, now):
        self.now = now

    def set(self, now):
        self.now = now
        # Rates as of this moment, so that instructions issued now are quoted from a fresh one.
        for asset, rate in RATES.items():
            ExchangeRate.objects.create(asset=asset, usd_per_unit=Decimal(rate), source="test", as_of=now)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", lambda: clock.now)
    return clock


@pytest.fixture
def history(clock, gpu, django_user_model):
    """Four rentals of the A100 ($95 / $205 / $790 a lot) over two days, then now is today at 12:00.

    D1 10:00 Ana places 7 days × 2 ($410), pays 10:30 (USDT on Tron); ready 11:15.
    D1 12:00 Bo places 3 days × 1 ($95); never paid, expired on D2.
    D2 09:00 Ana places 30 days × 1 ($790), pays 09:20 (USDC on Ethereum); fails 10:00, refunded.
    D2 13:00 Bo places 3 days × 1 ($95), pays 15:00 (USDT on Tron); ready 16:00.
    D2 17:00 Ana withdraws $100; a top-up's payment is reported (not confirmed); another arrives late (review);
             Bo asks for a restart (open), Ana for a stop (handled).
    """
    for network, address in SHARED_ADDRESSES.items():
        ReceivingAddress.objects.create(network=network, address=address, mode="shared")
    ana = django_user_model.objects.create_user("ana@example.com", "passphrase 12", first_name="Ana", last_name="A")
    bo = django_user_model.objects.create_user("bo@example.com", "passphrase 12", first_name="Bo", last_name="B")
    access = AccessDetails("h.example", 22, "ubuntu", one_time_secret="pw")

    def place(owner, when, term, lots):
        clock.set(when)
        contact = Contact(owner.first_name, owner.last_name, owner.email)
        return order_place(
            owner=owner, gpu_slug=gpu.slug, term_days=term, lots=lots, environment="ubuntu", contact=contact
        )

    def pay(order, when, asset, network):
        clock.set(when)
        intent = intent_issue_for_order(order=order, owner=order.owner, asset=asset, network=network)
        payment_receive(
            intent_id=intent.pk, txid=f"{order.ref}-tx", amount_units=intent.amount_units, source="operator"
        )

    def ready(order, start, done):
        clock.set(start)
        order = provision_start(order=order, actor=None)
        clock.set(done)
        return provision_ready(order=order, actor=None, access=access)

    first = place(ana, at(D1, 10), 7, 2)
    pay(first, at(D1, 10, 30), "USDT", "tron")
    ready(first, at(D1, 10, 40), at(D1, 11, 15))
    place(bo, at(D1, 12), 3, 1)
    third = place(ana, at(D2, 9), 30, 1)
    pay(third, at(D2, 9, 20), "USDC", "ethereum")
    clock.set(at(D2, 9, 40))
    third = provision_start(order=third, actor=None)
    clock.set(at(D2, 10))
    provision_fail(order=third, actor=None, reason="no machine")
    clock.set(at(D2, 12, 30))
    assert orders_expire_due() == 1
    fourth = place(bo, at(D2, 13), 3, 1)
    pay(fourth, at(D2, 15), "USDT", "tron")
    ready(fourth, at(D2, 15, 30), at(D2, 16))

    clock.set(at(D2, 17))
    payout_request(owner=ana, asset="USDT", network="tron", address=SHARED_ADDRESSES["tron"], amount=Usd(10_000))
    top_up = deposit_create(owner=bo, amount=Usd(5_000))
    intent_report(intent=intent_issue_for_deposit(deposit=top_up, owner=bo, asset="USDT", network="tron"))
    late = deposit_create(owner=ana, amount=Usd(5_000))
    late_intent = intent_issue_for_deposit(deposit=late, owner=ana, asset="USDC", network="ethereum")
    MachineRequest.objects.create(order=fourth, kind="restart")
    MachineRequest.objects.create(order=first, kind="stop", handled_at=at(D2, 17, 30))
    clock.set(at(D2, 18))
    late_payment = payment_receive(
        intent_id=late_intent.pk, txid="late-tx", amount_units=late_intent.amount_units, source="operator"
    )
    assert late_payment.state == "review"
    clock.set(at(TODAY, 12))
    return clock


@pytest.fixture
def reports_operator(django_user_model):
    user = django_user_model.objects.create_user(
        "reports@shop.example", "passphrase 12", first_name="R", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="reports"))
    return user


def section(page, testid):
    return page.split(f'data-testid="{testid}"', 1)[1].split("</section>", 1)[0]


def table_rows(html):
    """Each table row's cells as text, tags removed."""
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
    ]


# --- The figures, computed in the database ---------------------------------------------------------------------


def test_revenue_by_term_is_the_ledger_net_of_refunds_per_day(history):
    period = period_of(30, timezone.now())
    series = {s.key: s for s in revenue_by_term(period)}
    assert list(series) == ["3", "7", "30"]
    assert series["7"].values[-3:] == (41_000, 0, 0)
    assert series["3"].values[-3:] == (0, 9_500, 0)
    assert series["30"].values[-3:] == (0, 0, 0)  # paid and refunded the same day
    assert sum(s.total for s in series.values()) == 50_500


def test_a_reversal_counts_against_the_term_of_the_order_it_reverses(history):
    paid = LedgerTransfer.objects.get(reference__startswith="order:", amount_cents=41_000)
    transfer_reverse(transfer=paid)  # today, at the clock's 12:00
    history.set(at(TODAY, 12, 5))
    series = {s.key: s for s in revenue_by_term(period_of(30, timezone.now()))}
    assert series["7"].values[-3:] == (41_000, 0, -41_000)
    assert sum(s.total for s in series.values()) == 50_500 - 41_000


def test_an_extension_is_revenue_of_its_term_but_neither_a_rental_placed_nor_one_to_provision(gpu, django_user_model):
    owner = django_user_model.objects.create_user("ext@example.com", "passphrase 12", first_name="E", last_name="X")
    fund(owner, 100_000)
    rental = make_running_rental(owner, gpu)  # 3 days: $95
    extension = order_extension_place(rental=rental, owner=owner, term_days=7)  # $205
    order_pay_from_balance(order=extension, owner=owner)
    period = period_of(30, timezone.now())
    assert {s.key: s.total for s in revenue_by_term(period)} == {"3": 9_500, "7": 20_500, "30": 0}
    assert (funnel_of(period).placed, funnel_of(period).ready) == (1, 1)
    assert open_work().to_provision == 0


def test_money_received_by_pair_equals_the_ledger_deposits(history):
    period = period_of(30, timezone.now())
    series = {s.key: s.values[-3:] for s in received_by_pair(period)}
    assert series == {"USDT/tron": (41_000, 9_500, 0), "USDC/ethereum": (0, 79_000, 0)}
    deposits = LedgerTransfer.objects.filter(reference__startswith="deposit:").aggregate(total=Sum("amount_cents"))
    assert deposits["total"] == 41_000 + 9_500 + 79_000
    assert Payment.objects.filter(state="review").count() == 1  # received late: no money moved, not counted


def test_funnel_and_medians_of_the_rentals_placed(history):
    period = period_of(30, timezone.now())
    funnel = funnel_of(period)
    assert (funnel.placed, funnel.paid, funnel.ready) == (4, 3, 2)
    assert (funnel.expired, funnel.cancelled, funnel.awaiting, funnel.preparing, funnel.failed) == (1, 0, 0, 0, 1)
    medians = medians_of(period, funnel)
    assert medians.to_paid == timedelta(minutes=30)  # of 20 min, 30 min and 2 h
    assert medians.paid_to_ready == timedelta(minutes=52, seconds=30)  # of 45 and 60 min: the two middle ones


def test_occupancy_counts_card_seconds_per_day_and_today_up_to_now(history):
    period = period_of(30, timezone.now())
    (a100,) = occupancy_by_model(period)
    # D1: 2 cards from 11:15; D2: 2 cards all day and 1 from 16:00; today: 3 cards until 12:00.
    assert a100.card_seconds[-3:] == (2 * 12 * 3600 + 2 * 45 * 60, 2 * 86_400 + 8 * 3600, 3 * 12 * 3600)
    assert sum(a100.card_seconds[:-3]) == 0
    # 8 lots of one card: 5 free, 3 rented now (the expired and failed orders gave theirs back).
    assert a100.fleet_cards == 8
    assert a100.utilisation(period) == Decimal("2.1")  # 423,000 card-s of 8 × (29 days + 12 h)


def test_a_year_is_shown_in_weeks_that_start_on_monday(history):
    period = period_of(365, timezone.now())
    assert period.bucket == "week"
    assert all(day.weekday() == 0 for day in period.buckets)
    assert period.buckets[0] <= TODAY - timedelta(days=364) < period.buckets[0] + timedelta(days=7)
    assert sum(s.total for s in revenue_by_term(period)) == 50_500
    assert sum(occupancy_by_model(period)[0].card_seconds) == 423_000


# --- The page -----------------------------------------------------------------------------------------------


def test_the_page_shows_the_figures_in_tables_charts_and_queues(client, history, reports_operator):
    client.force_login(reports_operator)
    response = client.get(URL)
    assert "no-store" in response["Cache-Control"]  # the business's figures: never kept by a browser or proxy
    page = response.content.decode()
    revenue = table_rows(section(page, "revenue"))
    assert revenue == [
        ["Day", "3 days", "7 days", "30 days", "Total"],
        [date_text(D1), "$0.00", "$410.00", "$0.00", "$410.00"],
        [date_text(D2), "$95.00", "$0.00", "$0.00", "$95.00"],
        ["Total", "$95.00", "$410.00", "$0.00", "$505.00"],
    ]
    assert f"{date_text(D1)} · 7 days: $410.00" in section(page, "revenue")  # the bar's title
    received = table_rows(section(page, "received"))
    assert received[0] == ["Day", "USDC on Ethereum (ERC-20)", "USDT on Tron (TRC-20)", "Total"]  # as PAIRS
    assert received[-1] == ["Total", "$790.00", "$505.00", "$1,295.00"]
    funnel = section(page, "funnel")
    for text in ["Placed: 4", "Paid: 3", "1 fewer than placed (−25%)", "Ready: 2", "1 fewer than paid (−33.3%)"]:
        assert text in funnel
    for text in ["1 expired", "1 failed"]:
        assert text in funnel
    assert "<strong>30 min</strong>" in funnel  # the medians
    assert "<strong>52 min</strong>" in funnel
    assert table_rows(section(page, "occupancy"))[1] == ["A100 80GB", "8", "0.2", "2.1%"]
    work = page.split('data-testid="open-work"', 1)[1].split("</ul>", 1)[0]
    assert [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in re.findall(r"<li>(.*?)</li>", work, re.S)] == [
        f"Withdrawals to send: 1 · $100.00 · oldest {date_text(at(D2, 17), time=True, zone=True)}",
        "Payments reported, to verify: 1",
        "Late payments in review: 1",
        "Paid rentals waiting for their machine: 0",
        "Machine requests to handle: 1",
        "Ended rentals whose access is still to remove: 0",
        "Support requests to answer: 0",
    ]


def test_the_page_costs_the_same_queries_whatever_the_period(client, history, reports_operator):
    client.force_login(reports_operator)
    counts = []
    for days in (30, 90, 365):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(URL, {"days": days}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2] <= 25


def test_in_spanish_numbers_follow_the_language_and_svg_coordinates_do_not(client, history, reports_operator):
    client.force_login(reports_operator)
    client.cookies["gpurent_language"] = "es"
    page = client.get(URL).content.decode()
    assert "410,00\xa0US$" in page
    assert re.search(r'<rect x="\d+(\.\d+)?" y="\d+(\.\d+)?" width="\d+(\.\d+)?"', page)
    charts = "".join(re.findall(r'<svg class="dashboard-svg".*?</svg>', page, re.S))
    assert charts.count("<svg") == 4
    for number in re.findall(r' (?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"', charts):
        assert re.fullmatch(r"-?\d+(\.\d+)?%?", number), number
    for points in re.findall(r' points="([^"]*)"', charts):
        assert re.fullmatch(r"(-?\d+(\.\d+)?,-?\d+(\.\d+)? ?)+", points), points
    assert 'viewBox="0 0 480 220" width="100%"' in page


# --- Who may see it, and the period ---------------------------------------------------------------------------


def test_a_customer_is_sent_to_the_back_office_login(client, django_user_model):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    client.force_login(customer)
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/backoffice/login/")


@pytest.mark.parametrize(("groups", "status"), [(("reports",), 200), (("payments",), 403), ((), 403)])
def test_only_the_reports_role_sees_the_dashboard(client, django_user_model, groups, status):
    user = django_user_model.objects.create_user(
        "staff@shop.example", "passphrase 12", first_name="S", last_name="T", is_staff=True
    )
    user.groups.set(Group.objects.filter(name__in=groups))
    client.force_login(user)
    assert client.get(URL).status_code == status


def test_the_dashboard_has_no_page_per_order(client, django_user_model, reports_operator):
    # The proxy is an order's: its change form would show one order to a role that reads figures only.
    client.force_login(
        django_user_model.objects.create_superuser("su@shop.example", "passphrase 12", first_name="S", last_name="U")
    )
    assert client.get(URL + "1/change/").status_code == 404
    assert client.get(URL).status_code == 200
    assert "Business dashboard" in client.get("/backoffice/").content.decode()


@pytest.mark.parametrize("days", ["7", "abc", "30.0", "-30", "99999999999999999999", "\u0663\u0660"])
def test_a_period_other_than_30_90_or_365_days_is_a_clear_400(client, reports_operator, days):
    client.force_login(reports_operator)
    response = client.get(URL, {"days": days})
    assert response.status_code == 400
    assert "Choose a period of 30, 90 or 365 days." in response.content.decode()
    assert 'data-testid="revenue"' not in response.content.decode()


@pytest.mark.parametrize(("query", "buckets"), [({}, 30), ({"days": ""}, 30), ({"days": "90"}, 90)])
def test_the_period_defaults_to_30_days(client, reports_operator, query, buckets):
    client.force_login(reports_operator)
    response = client.get(URL, query)
    assert response.status_code == 200
    assert len(response.context["period"].buckets) == buckets


def test_an_empty_money_chart_says_so_instead_of_a_cent_scale(client, reports_operator):
    client.force_login(reports_operator)
    page = client.get(URL).content.decode()
    for key in ("revenue", "received"):
        shown = section(page, key)
        assert f'<p data-testid="{key}-empty">Nothing in this period.</p>' in shown
        assert "<svg" not in shown
        assert "$0.01" not in shown


def test_the_funnel_says_what_each_drop_is_counted_from(client, django_user_model, gpu, reports_operator):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    for _ in range(4):
        order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=7,
            lots=1,
            environment="ubuntu",
            contact=Contact("C", "U", "c@x.io"),
        )
    client.force_login(reports_operator)
    funnel = section(client.get(URL).content.decode(), "funnel")
    assert 'Paid: 0 <tspan class="drop">· 4 fewer than placed (−100%)</tspan>' in funnel
    assert "−100% (4)" not in funnel
    assert "fewer than paid" not in funnel  # none was paid: nothing to count the ready ones from


def test_an_occupancy_too_small_to_draw_says_so_instead_of_a_line_on_the_axis(
    client, clock, gpu, django_user_model, reports_operator
):
    """A rental that started minutes ago averages 0.0 card every day: the QA walk saw its line at 0 on a 0–1 scale
    (decision 0563). It is said in words, and its figures read "< 0.1", not "0"."""
    owner = django_user_model.objects.create_user("new@example.com", "passphrase 12", first_name="N", last_name="W")
    fund(owner, 100_000)
    clock.now = at(TODAY, 11, 58)
    make_running_rental(owner, gpu)
    clock.now = at(TODAY, 12)
    client.force_login(reports_operator)
    shown = section(client.get(URL).content.decode(), "occupancy")
    assert "<svg" not in shown
    assert "<polyline" not in shown
    assert "too few to draw" in shown
    assert "No GPU was rented in this period." not in shown
    assert table_rows(shown)[1] == ["A100 80GB", "8", "&lt; 0.1", "&lt; 0.1%"]


def test_an_empty_occupancy_chart_says_no_gpu_was_rented(client, gpu, reports_operator):
    client.force_login(reports_operator)
    shown = section(client.get(URL).content.decode(), "occupancy")
    assert "<svg" not in shown
    assert '<p data-testid="occupancy-empty">No GPU was rented in this period.</p>' in shown
    assert table_rows(shown)[1] == ["A100 80GB", "8", "0", "0%"]
