"""A pending top-up made `PAYMENTS_TOP_UP_HOURS` ago or more reads "Lapsed" in every list a customer sees
(decision 0335): the balance page, its own page and the API (`lapsed`, with `status` unchanged). Each answer
comes from `refusals.top_up_lapsed`, the test of the refusal itself, so a list never says a top-up takes
instructions that the service would refuse, nor the other way round."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.payments.errors import NothingToPay
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_report
from gpurent.payments.intents.refusals import top_up_lapsed
from gpurent.payments.models import Deposit, DepositStatus
from gpurent.payments.presenters import deposit_badge
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db

HINT = "takes no new payment instructions; payments sent to its instructions are still credited"


def made_hours_ago(deposit, hours):
    Deposit.objects.filter(pk=deposit.pk).update(created_at=timezone.now() - timedelta(hours=hours))
    deposit.refresh_from_db()
    return deposit


@pytest.fixture
def top_up(customer):
    return deposit_create(owner=customer, amount=Usd(2_500))


@pytest.mark.parametrize(("hours", "lapsed"), [(0, False), (23, False), (24, True), (24 * 30, True)])
def test_lapsed_is_exactly_when_the_service_refuses_new_instructions(customer, payment_setup, top_up, hours, lapsed):
    made_hours_ago(top_up, hours)
    assert top_up_lapsed(top_up, now=timezone.now()) is lapsed
    try:
        intent_issue_for_deposit(deposit=top_up, owner=customer, asset="USDT", network="tron")
        refused = False
    except NothingToPay:
        refused = True
    assert refused is lapsed


@pytest.mark.parametrize("status", [DepositStatus.CREDITED, DepositStatus.CANCELLED])
def test_a_credited_or_cancelled_top_up_never_lapses(top_up, status):
    Deposit.objects.filter(pk=top_up.pk).update(status=status, credited_cents=2_500)
    made_hours_ago(top_up, 48)
    assert top_up_lapsed(top_up, now=timezone.now()) is False
    assert deposit_badge(top_up, now=timezone.now())["value"] == status


def test_the_lapse_is_a_setting(settings, top_up):
    settings.PAYMENTS_TOP_UP_HOURS = 2
    made_hours_ago(top_up, 2)
    assert top_up_lapsed(top_up, now=timezone.now())


def test_the_balance_page_lists_a_lapsed_top_up_as_lapsed_and_a_recent_one_as_pending(client, customer, top_up):
    old = made_hours_ago(deposit_create(owner=customer, amount=Usd(1_000)), 25)
    client.force_login(customer)
    page = client.get(reverse("payments:balance")).content.decode()
    old_line = page.split(f">{old.ref}</a>")[1].split("</li>")[0]
    new_line = page.split(f">{top_up.ref}</a>")[1].split("</li>")[0]
    assert '<span class="status status-lapsed">Lapsed</span>' in old_line
    assert HINT in old_line
    assert '<span class="status status-pending">Pending</span>' in new_line
    assert HINT not in new_line


def test_the_top_up_page_badge_says_lapsed_beside_its_explanation(client, customer, top_up):
    client.force_login(customer)
    url = reverse("payments:deposit", args=[top_up.ref])
    assert "status-pending" in client.get(url).content.decode()
    made_hours_ago(top_up, 24)
    page = client.get(url).content.decode()
    assert '<span class="status status-lapsed">Lapsed</span>' in page
    assert "takes no new payment instructions: start a new top-up" in page


def test_a_reported_payment_on_a_lapsed_top_up_reads_payment_reported(customer, payment_setup, top_up):
    intent = intent_issue_for_deposit(deposit=top_up, owner=customer, asset="USDT", network="tron")
    intent_report(intent=intent)
    made_hours_ago(top_up, 24)
    badge = deposit_badge(Deposit.objects.get(pk=top_up.pk), now=timezone.now())
    assert (badge["value"], badge["label"]) == ("payment_reported", "Payment reported")


def test_the_api_adds_lapsed_and_keeps_the_status_values(client, customer, top_up):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    old = made_hours_ago(deposit_create(owner=customer, amount=Usd(1_000)), 24)
    listed = {item["ref"]: item for item in client.get("/api/v1/deposits", **auth).json()["items"]}
    assert {ref: (item["status"], item["lapsed"]) for ref, item in listed.items()} == {
        top_up.ref: ("pending", False),
        old.ref: ("pending", True),
    }
    assert client.get(f"/api/v1/deposits/{old.ref}", **auth).json()["lapsed"] is True
    assert client.get(f"/api/v1/deposits/{top_up.ref}", **auth).json()["lapsed"] is False
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["DepositOut"]
    assert "lapsed" in schema["required"]


@pytest.mark.parametrize(("language", "label"), [("es", "Caducada"), ("vi", "Đã hết hạn"), ("tr", "Süresi doldu")])
def test_the_badge_is_translated(top_up, language, label):
    made_hours_ago(top_up, 24)
    with translation.override(language):
        badge = deposit_badge(top_up, now=timezone.now())
    assert badge["label"] == label
    assert badge["hint"] != HINT
