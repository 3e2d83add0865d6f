"""Withdrawals: the service, the balance page, the API, the payouts desk and its role (issue 10)."""

from datetime import UTC, datetime
from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.selectors import account_balance, balance_for, ledger_check
from gpurent.ledger.services import (
    EXTERNAL_CRYPTO,
    REVENUE_PAYOUT_FEES,
    SUSPENSE_PAYOUTS,
    customer_account,
    system_account,
    transfer_post,
)
from gpurent.payments.errors import InvalidAddress, PayoutBelowMinimum, PayoutNotPending, UnsupportedPair
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payout
from gpurent.payments.payouts import payout_mark_sent, payout_reject, payout_request

pytestmark = pytest.mark.django_db

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
DESK = "/backoffice/backoffice/payoutsdesk/"


def fund(user, cents, ref="deposit:D-TEST"):
    transfer_post(
        reference=ref, debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(user), amount=Usd(cents)
    )


@pytest.fixture
def funded(customer, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    fund(customer, 10_000)
    return customer


@pytest.fixture
def operator(django_user_model):
    user = django_user_model.objects.create_user(
        "payouts@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payouts"))
    return user


def request(user, cents=5_000, **overrides):
    fields = {"asset": "USDT", "network": "tron", "address": TRON, "amount": Usd(cents), **overrides}
    return payout_request(owner=user, **fields)


def test_a_request_moves_the_amount_to_pending_payouts_at_once(funded):
    payout = request(funded)
    assert balance_for(funded) == Usd(5_000)
    assert account_balance(SUSPENSE_PAYOUTS) == Usd(5_000)
    assert (payout.status, payout.amount_cents, payout.fee_cents, payout.net_cents) == ("requested", 5_000, 100, 4_900)
    assert payout.ref.startswith("P-")
    assert AuditLogEntry.objects.filter(action="payout.requested", target_id=str(payout.pk)).exists()
    assert ledger_check() == []


def test_sent_moves_the_net_out_and_the_fee_to_revenue_and_emails_the_reference(
    funded, operator, django_capture_on_commit_callbacks
):
    payout = request(funded)
    with django_capture_on_commit_callbacks(execute=True):
        sent = payout_mark_sent(payout_id=payout.pk, txid="AB" * 32, sent_units=49_000_000, actor=operator)
    assert (sent.status, sent.txid, sent.decided_by) == ("sent", "ab" * 32, operator)
    assert account_balance(SUSPENSE_PAYOUTS) == Usd(0)
    assert account_balance(REVENUE_PAYOUT_FEES) == Usd(100)
    assert balance_for(funded) == Usd(5_000)
    email = next(m for m in mail.outbox if m.to == [funded.email])
    assert f"Reference: Withdrawal {payout.ref}." in email.body
    assert "ab" * 32 in email.body
    assert AuditLogEntry.objects.get(action="payout.sent").actor_label == operator.email
    # A double submit changes nothing; another transaction id or a rejection is refused.
    assert payout_mark_sent(payout_id=payout.pk, txid="ab" * 32, sent_units=49_000_000, actor=operator).pk == payout.pk
    with pytest.raises(PayoutNotPending):
        payout_mark_sent(payout_id=payout.pk, txid="cd" * 32, sent_units=1, actor=operator)
    with pytest.raises(PayoutNotPending):
        payout_reject(payout_id=payout.pk, reason="late", actor=operator)
    assert account_balance(REVENUE_PAYOUT_FEES) == Usd(100)
    assert ledger_check() == []


def test_reject_returns_the_whole_amount_once(funded, operator, django_capture_on_commit_callbacks):
    payout = request(funded, cents=10_000)
    assert balance_for(funded) == Usd(0)
    with django_capture_on_commit_callbacks(execute=True):
        payout_reject(payout_id=payout.pk, reason="address on a sanctions list", actor=operator)
    assert balance_for(funded) == Usd(10_000)
    assert account_balance(SUSPENSE_PAYOUTS) == Usd(0)
    payout_reject(payout_id=payout.pk, reason="again", actor=operator)
    assert balance_for(funded) == Usd(10_000)
    assert Payout.objects.get(pk=payout.pk).reason == "address on a sanctions list"
    assert any("sanctions" in m.body and m.to == [funded.email] for m in mail.outbox)
    with pytest.raises(PayoutNotPending):
        payout_mark_sent(payout_id=payout.pk, txid="tx", sent_units=1, actor=operator)
    assert ledger_check() == []


def test_bad_requests_write_nothing(funded):
    with pytest.raises(PayoutBelowMinimum):
        request(funded, cents=1_999)
    with pytest.raises(InsufficientBalance):
        request(funded, cents=10_001)
    with pytest.raises(InvalidAddress):
        request(funded, address="0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")  # an Ethereum address on Tron
    with pytest.raises(UnsupportedPair):
        request(funded, network="solana")
    with pytest.raises(InvalidRequest):
        payout_mark_sent(payout_id=request(funded).pk, txid="  ", sent_units=1, actor=None)
    assert Payout.objects.count() == 1
    assert balance_for(funded) == Usd(5_000)


def test_the_balance_held_for_an_open_intent_cannot_be_withdrawn(funded, order):
    # $100 on the balance, a $410 order: its intent holds the $100 for the order while it is open.
    intent = intent_issue_for_order(order=order, owner=funded, asset="USDT", network="tron")
    assert intent.balance_share_cents == 10_000
    with pytest.raises(InsufficientBalance):
        request(funded, cents=2_000)
    assert balance_for(funded) == Usd(10_000)


def test_the_balance_page_withdraws_once_per_key_and_shows_it(client, funded):
    client.force_login(funded)
    page = client.get(reverse("payments:balance")).content.decode()
    assert "$100.00" in page
    assert 'name="address"' in page
    body = {"pair": "USDT/tron", "address": TRON, "amount_usd": "30.00", "idempotency_key": "w-1"}
    first = client.post(reverse("payments:withdraw"), body)
    again = client.post(reverse("payments:withdraw"), body)
    assert first.status_code == again.status_code == 302
    payout = Payout.objects.get()
    assert balance_for(funded) == Usd(7_000)
    page = client.get(reverse("payments:balance")).content.decode()
    assert f"Withdrawal <code>{payout.ref}</code>" in page  # in the withdrawals list
    assert f'data-reference="payout:{payout.ref}">Withdrawal <code>{payout.ref}</code>' in page  # and the ledger
    refused = client.post(reverse("payments:withdraw"), {**body, "address": "nope", "idempotency_key": "w-2"})
    assert refused.status_code == 422
    assert "not a valid" in refused.content.decode()
    assert Payout.objects.count() == 1


@pytest.fixture
def auth(funded):
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=funded, name='t')[1]}"}


def api_post(client, body, auth, key):
    return client.post("/api/v1/payouts", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_api_withdraws_once_per_key_lists_reads_and_scopes_to_the_owner(client, auth, funded, django_user_model):
    body = {"asset": "USDT", "network": "tron", "address": TRON, "amount_usd": "25.00"}
    first = api_post(client, body, auth, "a-1")
    again = api_post(client, body, auth, "a-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    out = first.json()
    assert (out["amount_usd"], out["fee_usd"], out["net_usd"], out["status"]) == ("25.00", "1.00", "24.00", "requested")
    assert out["reference"] == f"payout:{out['ref']}"
    assert Payout.objects.count() == 1
    assert client.get("/api/v1/payouts", **auth).json()["items"][0]["ref"] == out["ref"]
    assert client.get(f"/api/v1/payouts/{out['ref']}", **auth).status_code == 200
    too_much = api_post(client, {**body, "amount_usd": "80.00"}, auth, "a-2")
    assert (too_much.status_code, too_much.json()["error"]["code"]) == (422, "insufficient_balance")
    small = api_post(client, {**body, "amount_usd": "5.00"}, auth, "a-3")
    assert small.json()["error"]["code"] == "payout_below_minimum"
    bad = api_post(client, {**body, "amount_usd": "1e3"}, auth, "a-4")
    assert bad.status_code == 422
    eve = django_user_model.objects.create_user("eve@example.com", "passphrase 12", first_name="E", last_name="V")
    eve_auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=eve, name='t')[1]}"}
    assert client.get(f"/api/v1/payouts/{out['ref']}", **eve_auth).status_code == 404
    assert client.get("/api/v1/payouts", **eve_auth).json()["items"] == []
    assert "/api/v1/payouts" in client.get("/api/v1/openapi.json").json()["paths"]


def test_a_withdrawal_made_under_a_millisecond_past_a_second_is_replayed_as_first_answered(client, auth):
    """The replay answers the stored JSON, read back to the millisecond: both write "…51.000Z" (it was "…51Z")."""
    body = {"asset": "USDT", "network": "tron", "address": TRON, "amount_usd": "25.00"}
    with mock.patch.object(timezone, "now", return_value=datetime(2026, 12, 5, 23, 27, 51, 123, tzinfo=UTC)):
        first = api_post(client, body, auth, "k-ms")
    again = api_post(client, body, auth, "k-ms")
    assert first.json() == again.json()
    assert first.json()["created_at"] == "2026-12-05T23:27:51.000Z"


def test_payouts_role_sees_only_its_desk_and_sends_once(client, funded, operator, django_user_model):
    payout = request(funded)
    client.force_login(operator)
    assert client.get("/backoffice/backoffice/paymentsdesk/").status_code == 403
    listing = client.get(DESK).content.decode()
    assert payout.ref in listing
    url = f"{DESK}{payout.pk}/change/"
    assert TRON in client.get(url).content.decode()
    body = {"action": "sent", "txid": "c3" * 32, "sent": "49", "reason": "", "idempotency_key": "d-1"}
    first, again = client.post(url, body), client.post(url, body)  # a double submit replays
    assert (first.status_code, again.status_code) == (302, 302)
    assert first["Location"] == again["Location"] == DESK  # a decision goes back to the list
    # The withdrawal is decided now: another decision is refused on its own page.
    late = client.post(url, {"action": "reject", "reason": "too late", "idempotency_key": "d-2"}, follow=True)
    assert late.redirect_chain[-1][0] == url
    assert Payout.objects.get(pk=payout.pk).status == "sent"
    payout.refresh_from_db()
    assert (payout.status, payout.txid, payout.sent_units) == ("sent", "c3" * 32, 49_000_000)
    assert account_balance(REVENUE_PAYOUT_FEES) == Usd(100)
    payments_operator = django_user_model.objects.create_user(
        "pay-op@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    payments_operator.groups.set(Group.objects.filter(name="payments"))
    client.force_login(payments_operator)
    assert client.get(DESK).status_code == 403


def test_desk_reject_needs_a_reason_and_returns_the_money(client, funded, operator):
    payout = request(funded)
    client.force_login(operator)
    url = f"{DESK}{payout.pk}/change/"
    missing = client.post(url, {"action": "reject", "reason": "", "idempotency_key": "r-1"})
    assert missing.status_code == 200  # the form again, with the error
    assert Payout.objects.get(pk=payout.pk).status == "requested"
    client.post(url, {"action": "reject", "reason": "wrong network", "idempotency_key": "r-2"})
    assert Payout.objects.get(pk=payout.pk).status == "rejected"
    assert balance_for(funded) == Usd(10_000)


def test_operators_of_the_payouts_role_are_emailed_a_request(funded, operator, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        payout = request(funded)
    assert any(m.to == [operator.email] and payout.ref in m.subject for m in mail.outbox)


def test_the_withdrawal_says_what_will_be_sent_after_the_fee(client, funded, settings):
    settings.PAYOUTS_FEE_CENTS = 250
    client.force_login(funded)
    page = client.get(reverse("payments:balance")).content.decode()
    assert "You receive the amount minus the fee of $2.50." in page
    body = {"pair": "USDT/tron", "address": TRON, "amount_usd": "30.00", "idempotency_key": "w-net"}
    response = client.post(reverse("payments:withdraw"), body, follow=True)
    assert "$30.00 left your balance; $27.50 (after the fee of $2.50) will be sent to you soon." in (
        response.content.decode()
    )
    assert Payout.objects.get().fee_cents == 250
