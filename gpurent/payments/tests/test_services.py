"""Payment rules: intents, reports, confirmation, partial and over-payments, review, pay from balance."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.selectors import balance_for, ledger_check, ledger_lines_for
from gpurent.orders.models import Order
from gpurent.payments.errors import (
    IntentClosed,
    NothingToPay,
    PaymentAlreadyCredited,
    RateUnavailable,
    UnsupportedPair,
)
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from gpurent.payments.models import Deposit, ExchangeRate, PaymentIntent
from gpurent.payments.received.verification import intent_confirm, intent_reject, intents_expire_due, review_resolve
from gpurent.payments.services import deposit_create, order_pay_from_balance

pytestmark = pytest.mark.django_db


def usdt_intent(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def test_intent_for_an_order_quotes_the_exact_amount_at_the_current_rate(order, customer):
    intent = usdt_intent(order, customer)
    assert (intent.asset, intent.network, intent.usd_cents) == ("USDT", "tron", 41_000)
    assert intent.amount_units == 410_000_000  # 410 USDT in 6-decimal quote units
    assert intent.rate_usd == Decimal("1")
    assert intent.address == "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
    assert timedelta(minutes=29) < intent.expires_at - intent.created_at <= timedelta(minutes=30)


def test_intent_amount_is_rounded_up_in_the_quote_unit(order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="BTC", network="bitcoin")
    # $410 / $97,000 = 0.00422680412... BTC, rounded up to 8 decimals.
    assert intent.amount_units == 422_681


def test_two_open_intents_on_one_shared_address_never_share_an_amount(order, customer):
    first, second = usdt_intent(order, customer), usdt_intent(order, customer)
    assert first.address == second.address
    assert first.amount_units != second.amount_units


@pytest.mark.parametrize(("asset", "network"), [("USDT", ""), ("USDT", "bitcoin"), ("DOGE", "dogecoin")])
def test_intent_unsupported_pair_is_refused_and_writes_nothing(order, customer, asset, network):
    with pytest.raises(UnsupportedPair):
        intent_issue_for_order(order=order, owner=customer, asset=asset, network=network)
    assert not PaymentIntent.objects.exists()


def test_intent_with_a_stale_rate_is_refused_and_writes_nothing(order, customer):
    ExchangeRate.objects.filter(asset="USDT").update(as_of=timezone.now() - timedelta(hours=2))
    with pytest.raises(RateUnavailable) as raised:
        usdt_intent(order, customer)
    assert (raised.value.code, raised.value.status) == ("rate_unavailable", 503)
    assert not PaymentIntent.objects.exists()


def test_report_is_recorded_once_moves_no_money_and_holds_the_lots(order, customer):
    intent = usdt_intent(order, customer)
    first = intent_report(intent=intent).reported_at
    second = intent_report(intent=intent).reported_at
    assert first is not None
    assert first == second
    assert balance_for(customer) == Usd(0)
    assert not Deposit.objects.exists()
    assert Order.objects.get(pk=order.pk).reserved_until >= first + timedelta(hours=23)


def test_confirm_full_payment_credits_then_pays_the_order_in_one_go(order, customer):
    intent = usdt_intent(order, customer)
    intent = intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=intent.amount_units)
    order.refresh_from_db()
    assert intent.status == "confirmed"
    assert order.payment_status == "paid"
    assert balance_for(customer) == Usd(0)
    deposit = intent.payments.get().deposit
    assert deposit is not None
    assert [(line.transfer.reference, line.direction) for line in ledger_lines_for(customer)] == [
        (f"deposit:{deposit.ref}", "credit"),
        (f"order:{order.ref}", "debit"),
    ]
    assert ledger_check() == []


def test_confirm_same_payment_twice_credits_once(order, customer):
    intent = usdt_intent(order, customer)
    intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=intent.amount_units)
    intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=intent.amount_units)
    assert Deposit.objects.count() == 1
    with pytest.raises(PaymentAlreadyCredited):  # the same transaction with another amount
        intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=intent.amount_units + 1)
    assert Deposit.objects.count() == 1
    assert ledger_check() == []


def test_partial_payment_stays_in_the_balance_and_the_order_stays_unpaid(order, customer):
    intent = usdt_intent(order, customer)
    intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=100_000_000)  # 100 USDT of 410
    order.refresh_from_db()
    assert order.payment_status == "awaiting_payment"
    assert balance_for(customer) == Usd(10_000)
    # New instructions ask only for what is still due.
    assert usdt_intent(order, customer).usd_cents == 31_000


def test_over_payment_leaves_the_excess_in_the_balance(order, customer):
    intent = usdt_intent(order, customer)
    intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=500_000_000)
    order.refresh_from_db()
    assert order.payment_status == "paid"
    assert balance_for(customer) == Usd(9_000)
    assert ledger_check() == []


def test_payment_after_expiry_goes_to_review_with_no_credit(order, customer):
    intent = usdt_intent(order, customer)
    intent = intent_confirm(
        intent_id=intent.pk,
        txid="tx-late",
        received_units=intent.amount_units,
        now=intent.expires_at + timedelta(seconds=1),
    )
    assert intent.status == "review"
    assert balance_for(customer) == Usd(0)
    assert not Deposit.objects.exists()


def test_review_resolve_credits_at_the_locked_rate_once(order, customer, django_user_model):
    operator = django_user_model.objects.create_user("op@example.com", "passphrase 12", first_name="O", last_name="P")
    intent = usdt_intent(order, customer)
    intent_confirm(intent_id=intent.pk, txid="tx-late", received_units=intent.amount_units, now=intent.expires_at)
    [payment] = review_resolve(intent_id=intent.pk, actor=operator, use_current_rate=False)
    assert payment.deposit is not None
    assert payment.deposit.kind == "review"
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    with pytest.raises(IntentClosed):
        review_resolve(intent_id=intent.pk, actor=operator, use_current_rate=False)
    assert ledger_check() == []


def test_reject_an_open_intent_moves_nothing_and_a_confirmed_one_cannot_be_rejected(order, customer):
    intent = usdt_intent(order, customer)
    assert intent_reject(intent_id=intent.pk, reason="nothing arrived").status == "rejected"
    other = usdt_intent(order, customer)
    intent_confirm(intent_id=other.pk, txid="tx", received_units=other.amount_units)
    with pytest.raises(IntentClosed):
        intent_reject(intent_id=other.pk)


@pytest.mark.parametrize(("txid", "units"), [("", 1), ("tx", 0), ("tx", -5)])
def test_confirm_needs_a_txid_and_a_positive_amount(order, customer, txid, units):
    intent = usdt_intent(order, customer)
    with pytest.raises(InvalidRequest):
        intent_confirm(intent_id=intent.pk, txid=txid, received_units=units)


def test_top_up_adds_nothing_until_confirmed_then_pays_an_order_from_the_balance(customer, order):
    deposit = deposit_create(owner=customer, amount=Usd(50_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDC", network="ethereum")
    assert balance_for(customer) == Usd(0)
    intent_confirm(intent_id=intent.pk, txid="0xabc", received_units=intent.amount_units)
    deposit.refresh_from_db()
    assert (deposit.status, deposit.credited_cents) == ("credited", 50_000)
    assert balance_for(customer) == Usd(50_000)
    with pytest.raises(NothingToPay):
        intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDC", network="ethereum")
    with pytest.raises(NothingToPay, match="balance already covers"):
        usdt_intent(order, customer)
    order_pay_from_balance(order=order, owner=customer)
    assert balance_for(customer) == Usd(9_000)
    with pytest.raises(NothingToPay, match="not waiting for a payment"):
        order_pay_from_balance(order=order, owner=customer)
    assert ledger_check() == []


def test_pay_from_balance_that_does_not_cover_the_total_changes_nothing(customer, order):
    with pytest.raises(InsufficientBalance):
        order_pay_from_balance(order=order, owner=customer)
    assert Order.objects.get(pk=order.pk).payment_status == "awaiting_payment"


@pytest.mark.parametrize("cents", [499, 10_000_001])
def test_top_up_amount_limits(customer, cents):
    with pytest.raises(InvalidRequest):
        deposit_create(owner=customer, amount=Usd(cents))


def test_intents_expire_due_is_idempotent(order, customer):
    intent = usdt_intent(order, customer)
    assert intents_expire_due(now=intent.expires_at) == 1
    assert intents_expire_due(now=intent.expires_at) == 0
    assert PaymentIntent.objects.get(pk=intent.pk).status == "expired"
