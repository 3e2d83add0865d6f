"""Random sequences of payment operations never break the money rules (Hypothesis stateful testing).

The machine places orders, asks for top-ups, issues intents for both, reports them, receives payments for
them (exactly, partially, over-paid, a dust amount, late, in several parts, to closed intents, the same
transaction again or for another intent), rejects them, resolves reviews, changes rates, cancels orders and
pays orders from the balance, in any order, for two customers. It tolerates the
domain errors (`ApplicationError`) the services legitimately raise, but predicts each outcome from its own
model and checks it; after every step it checks the ledger and the payment invariants against the rows:

- `ledger_check() == []`;
- every payment is a row, credited at most once: a credited payment with a non-zero credit has one credited
  Deposit of its own and one `deposit:<ref>` transfer of exactly that credit; a dust or review payment has
  none; each intent's credits equal the model's (cumulative value at the locked rate, rounded down once);
- an order is debited at most once, for exactly its total (`order:<ref>`), and is paid iff it was debited;
- each customer's balance is its credits minus its debits (from the ledger and from the deposits and paid
  orders), equals the model's, and is never below zero.

Each example runs inside a savepoint that is rolled back afterwards, so examples never see each other's rows.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.conf import settings as dj_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from conftest import make_gpu
from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.models import AccountKind, LedgerAccount, LedgerTransfer
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_cancel, order_place
from gpurent.payments.assets import pair_get
from gpurent.payments.errors import (
    IntentClosed,
    IntentLimitReached,
    NothingToPay,
    PaymentAlreadyCredited,
    TooManyOpenIntents,
)
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from gpurent.payments.models import (
    Deposit,
    DepositStatus,
    ExchangeRate,
    IntentStatus,
    Payment,
    PaymentIntent,
    PaymentState,
)
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.received.verification import intent_confirm, intent_reject, intents_expire_due, review_resolve
from gpurent.payments.services import deposit_create, order_pay_from_balance

PAIRS = [("USDT", "tron"), ("BTC", "bitcoin"), ("ETH", "ethereum")]
# Odd prices, so totals and what is still due are never round numbers; some orders cost less than a top-up,
# others more (the balance covers them only after several payments).
PRICES = {3: 1_037, 7: 12_345, 30: 49_999}
# Top-up amounts in cents, including two outside $5.00 .. $100,000.00 (refused with InvalidRequest).
TOP_UPS = [500, 1_234, 2_345, 6_000, 25_000, 499, 10_000_001]
# How much arrives compared with the amount asked for.
RECEIVED = ["exact", "over", "partial", "dust", "nothing"]
# When a payment is first seen and when recorded (at its confirmation depth), against its intent's expiry: one in
# four after it, half of those first seen before it (credited at the locked rate by the first-seen rule).
TIMING = st.sampled_from(
    ["in time", "in time", "in time", "in time", "in time", "in time", "confirmed late", "seen late"]
)
NEW_RATES = {"USDT": ["1", "0.9987"], "BTC": ["97000", "91234.56789", "103000.5"], "ETH": ["3500", "3333.33"]}

_OPEN = {IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED}
_LOCKED_RATE = {IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED, IntentStatus.CONFIRMED, IntentStatus.CLOSED}


def expected_credit_cents(units: int, rate: Decimal, asset: str, network: str) -> int:
    """The value of `units` quote units at `rate`, rounded down to the cent, computed independently."""
    decimals = pair_get(asset, network).quote_decimals
    return int(Fraction(units) * Fraction(rate) * 100 / 10**decimals)  # int() of a positive Fraction floors


@dataclass
class IntentModel:
    pk: uuid.UUID
    customer: int
    order_pk: int | None
    deposit_pk: int | None
    asset: str
    network: str
    amount_units: int
    rate: Decimal
    expires_at: Any
    status: str = IntentStatus.AWAITING_PAYMENT
    payments: list[tuple[str, int]] = field(default_factory=list)  # (txid, units) of every payment recorded
    locked_units: int = 0  # units credited at the locked rate
    credited_payments: int = 0  # payments credited (dust included)
    review_units: list[int] = field(default_factory=list)  # payments waiting in review
    credit_cents: int = 0  # everything credited for this intent
    share_cents: int = 0  # the balance share held for its order while it is open


class PaymentsMachine(RuleBasedStateMachine):
    orders = Bundle("orders")
    deposits = Bundle("deposits")
    intents = Bundle("intents")

    def __init__(self) -> None:
        super().__init__()
        self._savepoint = transaction.atomic()
        # The example's isolation, as a test case's own blocks are: each rule's service runs a transaction of its
        # own inside it, for the money lock order too (gpurent/core/locks.py tells them apart by this flag).
        self._savepoint._from_testcase = True  # type: ignore[attr-defined]  # Django's flag, not in django-stubs
        self._savepoint.__enter__()
        user_model = get_user_model()
        self.customers = [
            user_model.objects.create_user(f"sm{index}@example.com", "passphrase 12", first_name="S", last_name="M")
            for index in range(2)
        ]
        self.operator = user_model.objects.create_user("op@example.com", "passphrase 12", first_name="O", last_name="P")
        self.gpu = make_gpu(
            slug="sm-gpu",
            stock_lots=1_000,
            price_3d_cents=PRICES[3],
            price_7d_cents=PRICES[7],
            price_30d_cents=PRICES[30],
        )
        self.rates = {
            asset: ExchangeRate.objects.filter(asset=asset).latest("as_of").usd_per_unit for asset, _ in PAIRS
        }
        self.balances = [0, 0]  # the model of each customer's balance, in cents
        self.intent_models: dict[uuid.UUID, IntentModel] = {}
        self.txids = itertools.count(1)
        self.paid_orders: set[int] = set()

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._savepoint.__exit__(None, None, None)

    # --- helpers ----------------------------------------------------------------------------------------------

    def _balance(self, customer: int) -> int:
        return balance_for(self.customers[customer]).cents

    def _customer_of(self, owner_id: int) -> int:
        return next(index for index, user in enumerate(self.customers) if user.pk == owner_id)

    def _order_awaiting(self, model: IntentModel) -> bool:
        if model.order_pk is None:
            return False
        return Order.objects.get(pk=model.order_pk).payment_status == PaymentStatus.AWAITING_PAYMENT

    def _held(self, customer: int, *, except_order: int | None) -> int:
        """The balance held by open intents of other unpaid orders: the largest share per order."""
        shares: dict[int, int] = {}
        for other in self.intent_models.values():
            if (
                other.customer == customer
                and other.order_pk is not None
                and other.order_pk != except_order
                and other.status == IntentStatus.AWAITING_PAYMENT
                and Order.objects.get(pk=other.order_pk).payment_status == PaymentStatus.AWAITING_PAYMENT
            ):
                shares[other.order_pk] = max(shares.get(other.order_pk, 0), other.share_cents)
        return sum(shares.values())

    def _spendable(self, customer: int, order_pk: int) -> int:
        return self.balances[customer] - self._held(customer, except_order=order_pk)

    def _credited(self, model: IntentModel, credit: int, *, order_was_awaiting: bool) -> None:
        """Apply a credit to the model, and check the automatic payment of the intent's order: it happens iff
        the order was awaiting payment and the balance after the credit covers its total; the order's other
        open intents are then closed."""
        self.balances[model.customer] += credit
        model.credit_cents += credit
        if model.order_pk is None:
            return
        order = Order.objects.get(pk=model.order_pk)
        expect_paid = order_was_awaiting and self._spendable(model.customer, order.pk) >= order.total_cents
        if expect_paid:
            event("credit: paid the order")
            assert order.payment_status == PaymentStatus.PAID
            self.balances[model.customer] -= order.total_cents
            self.paid_orders.add(order.pk)
            self._order_closed(order.pk)
        elif order_was_awaiting:
            assert order.payment_status == PaymentStatus.AWAITING_PAYMENT

    def _order_closed(self, order_pk: int) -> None:
        """The order stopped waiting for payment: its open intents close (confirmed if they received any)."""
        for other in self.intent_models.values():
            if other.order_pk == order_pk and other.status == IntentStatus.AWAITING_PAYMENT:
                other.status = IntentStatus.CONFIRMED if other.payments else IntentStatus.CLOSED

    # --- rules ------------------------------------------------------------------------------------------------

    @initialize(target=orders, customer=st.integers(0, 1), term=st.sampled_from([3, 7, 30]), lots=st.integers(1, 3))
    def first_order(self, customer: int, term: int, lots: int) -> Any:
        return self.place_order(customer, term, lots)

    @initialize(target=deposits, customer=st.integers(0, 1), cents=st.sampled_from(TOP_UPS[:5]))
    def first_top_up(self, customer: int, cents: int) -> Any:
        return self.create_top_up(customer, cents)

    @initialize(
        target=intents, customer=st.integers(0, 1), cents=st.sampled_from(TOP_UPS[:5]), pair=st.sampled_from(PAIRS)
    )
    def first_intent(self, customer: int, cents: int, pair: tuple[str, str]) -> Any:
        deposit = deposit_create(owner=self.customers[customer], amount=Usd(cents))
        return self.issue_for_deposit(deposit.pk, pair)

    @rule(target=orders, customer=st.integers(0, 1), term=st.sampled_from([3, 7, 30]), lots=st.integers(1, 3))
    def place_order(self, customer: int, term: int, lots: int) -> Any:
        order = order_place(
            owner=self.customers[customer],
            gpu_slug=self.gpu.slug,
            term_days=term,
            lots=lots,
            environment="ubuntu",
            contact=Contact("S", "M", "sm@example.com"),
        )
        assert order.total_cents == PRICES[term] * lots
        return order.pk

    @rule(target=deposits, customer=st.integers(0, 1), cents=st.sampled_from(TOP_UPS))
    def create_top_up(self, customer: int, cents: int) -> Any:
        before = self._balance(customer)
        try:
            deposit = deposit_create(owner=self.customers[customer], amount=Usd(cents))
        except InvalidRequest:
            event("top-up: refused amount")
            assert not 500 <= cents <= 10_000_000
            return multiple()
        assert 500 <= cents <= 10_000_000
        assert deposit.status == DepositStatus.PENDING
        assert self._balance(customer) == before  # asking for a top-up adds nothing
        return deposit.pk

    def _intents_of(self, *, order_pk: int | None = None, deposit_pk: int | None = None) -> tuple[int, int]:
        """How many intents of the order or top-up are open (awaiting payment, before expiry), and in all."""
        mine = [
            model
            for model in self.intent_models.values()
            if (order_pk is not None and model.order_pk == order_pk)
            or (deposit_pk is not None and model.deposit_pk == deposit_pk)
        ]
        now = timezone.now()
        live = sum(1 for model in mine if model.status == IntentStatus.AWAITING_PAYMENT and model.expires_at > now)
        return live, len(mine)

    def _refused(self, refused: Exception, live: int, count: int) -> Any:
        """The limits of decision 0310: open ones are counted first, then all of them."""
        event(f"intent refused: {type(refused).__name__}")
        if isinstance(refused, TooManyOpenIntents):
            assert live >= dj_settings.PAYMENTS_MAX_OPEN_INTENTS
        else:
            assert live < dj_settings.PAYMENTS_MAX_OPEN_INTENTS
            assert count >= dj_settings.PAYMENTS_MAX_INTENTS
        return multiple()

    def _allowed(self, live: int, count: int) -> None:
        assert live < dj_settings.PAYMENTS_MAX_OPEN_INTENTS
        assert count < dj_settings.PAYMENTS_MAX_INTENTS

    @rule(target=intents, order_pk=orders, pair=st.sampled_from(PAIRS))
    def issue_for_order(self, order_pk: int, pair: tuple[str, str]) -> Any:
        order = Order.objects.get(pk=order_pk)
        customer = self._customer_of(order.owner_id)
        share = max(0, min(self._spendable(customer, order_pk), order.total_cents))
        due = order.total_cents - share
        live, count = self._intents_of(order_pk=order_pk)
        try:
            intent = intent_issue_for_order(order=order, owner=self.customers[customer], asset=pair[0], network=pair[1])
        except NothingToPay:
            event("intent for order: nothing to pay")
            assert order.payment_status != PaymentStatus.AWAITING_PAYMENT or due <= 0
            return multiple()
        except (TooManyOpenIntents, IntentLimitReached) as refused:
            return self._refused(refused, live, count)
        assert order.payment_status == PaymentStatus.AWAITING_PAYMENT
        self._allowed(live, count)
        assert intent.usd_cents == due > 0
        assert intent.balance_share_cents == share
        return self._remember(intent, customer)

    @rule(target=intents, deposit_pk=deposits, pair=st.sampled_from(PAIRS))
    def issue_for_deposit(self, deposit_pk: int, pair: tuple[str, str]) -> Any:
        deposit = Deposit.objects.get(pk=deposit_pk)
        customer = self._customer_of(deposit.owner_id)
        live, count = self._intents_of(deposit_pk=deposit_pk)
        try:
            intent = intent_issue_for_deposit(
                deposit=deposit, owner=self.customers[customer], asset=pair[0], network=pair[1]
            )
        except NothingToPay:
            event("intent for top-up: nothing to pay")
            assert deposit.status != DepositStatus.PENDING
            return multiple()
        except (TooManyOpenIntents, IntentLimitReached) as refused:
            return self._refused(refused, live, count)
        assert deposit.status == DepositStatus.PENDING
        self._allowed(live, count)
        assert intent.usd_cents == deposit.requested_cents
        return self._remember(intent, customer)

    @rule(target=intents, order_pk=orders, pair=st.sampled_from(PAIRS), received=st.sampled_from(RECEIVED[:3]))
    def customer_pays_order_in_crypto(self, order_pk: int, pair: tuple[str, str], received: str) -> Any:
        """The usual checkout: instructions for the order, then the payment arrives in time."""
        intent_pk = self.issue_for_order(order_pk, pair)
        if not isinstance(intent_pk, uuid.UUID):
            return intent_pk  # nothing to pay
        self._confirm(intent_pk, received, timing="in time")
        return intent_pk

    @rule(
        target=intents,
        customer=st.integers(0, 1),
        cents=st.sampled_from(TOP_UPS[:5]),
        pair=st.sampled_from(PAIRS),
        received=st.sampled_from(RECEIVED[:3]),
    )
    def customer_tops_up_in_crypto(self, customer: int, cents: int, pair: tuple[str, str], received: str) -> Any:
        """The usual top-up: ask for it, get instructions, the payment arrives in time."""
        deposit = deposit_create(owner=self.customers[customer], amount=Usd(cents))
        intent_pk = self.issue_for_deposit(deposit.pk, pair)
        assert isinstance(intent_pk, uuid.UUID)
        self._confirm(intent_pk, received, timing="in time")
        return intent_pk

    def _remember(self, intent: PaymentIntent, customer: int) -> uuid.UUID:
        assert intent.rate_usd == self.rates[intent.asset]
        assert (
            expected_credit_cents(intent.amount_units, intent.rate_usd, intent.asset, intent.network)
            >= intent.usd_cents
        )
        self.intent_models[intent.pk] = IntentModel(
            pk=intent.pk,
            customer=customer,
            order_pk=intent.order_id,
            deposit_pk=intent.deposit_id,
            asset=intent.asset,
            network=intent.network,
            amount_units=intent.amount_units,
            rate=intent.rate_usd,
            expires_at=intent.expires_at,
            share_cents=intent.balance_share_cents,
        )
        return intent.pk

    @rule(intent_pk=intents)
    def report(self, intent_pk: uuid.UUID) -> None:
        model = self.intent_models[intent_pk]
        before = self._balance(model.customer)
        intent = intent_report(intent=PaymentIntent.objects.get(pk=intent_pk))
        assert intent.reported_at is not None
        assert intent.status == model.status
        assert self._balance(model.customer) == before  # a report moves no money

    def _open_intents(self) -> list[uuid.UUID]:
        return [pk for pk, model in self.intent_models.items() if model.status in _OPEN]

    @precondition(lambda self: self._open_intents())
    @rule(data=st.data())
    def payment_arrives(self, data: st.DataObject) -> None:
        """A payment for an intent still open (awaiting payment, or expired): the common case."""
        intent_pk = data.draw(st.sampled_from(self._open_intents()), label="open intent")
        received = data.draw(st.sampled_from(RECEIVED), label="received")
        self._confirm(intent_pk, received, timing=data.draw(TIMING, label="timing"))

    @rule(intent_pk=intents, received=st.sampled_from(RECEIVED), timing=TIMING)
    def confirm(self, intent_pk: uuid.UUID, received: str, timing: str) -> None:
        """A confirmation for any intent, closed ones included (another transaction, out of order)."""
        self._confirm(intent_pk, received, timing)

    def _confirm(self, intent_pk: uuid.UUID, received: str, timing: str) -> None:
        model = self.intent_models[intent_pk]
        units = {
            "exact": model.amount_units,
            "partial": max(1, model.amount_units // 3),
            "over": model.amount_units * 2 + 7,
            "dust": 1,
            "nothing": 0,
        }[received]
        txid = f"tx-{next(self.txids)}"
        if units == 0:
            balance = self._balance(model.customer)
            for bad_txid, bad_units in (("", model.amount_units), (txid, 0)):
                with pytest.raises(InvalidRequest):  # refused before anything is read or written
                    intent_confirm(intent_id=intent_pk, txid=bad_txid, received_units=bad_units)
            assert self._balance(model.customer) == balance
            return
        now = model.expires_at + timedelta(seconds=1) if timing != "in time" else None
        seen_at = model.expires_at - timedelta(seconds=1) if timing == "confirmed late" else None
        deposits_before = Deposit.objects.filter(status=DepositStatus.CREDITED).count()
        order_was_awaiting = self._order_awaiting(model)
        top_up_was_pending = (
            model.deposit_pk is not None
            and Deposit.objects.filter(pk=model.deposit_pk, status=DepositStatus.PENDING).exists()
        )
        payment = payment_receive(
            intent_id=intent_pk, txid=txid, amount_units=units, source="operator", seen_at=seen_at, now=now
        )
        model.payments.append((txid, units))
        intent = PaymentIntent.objects.get(pk=intent_pk)
        if timing == "seen late" or model.status not in _LOCKED_RATE:
            # A payment first seen after expiry (or one to an intent in review or rejected) waits for an
            # operator, uncredited.
            assert payment.state == PaymentState.REVIEW
            assert payment.deposit_id is None
            assert Deposit.objects.filter(status=DepositStatus.CREDITED).count() == deposits_before
            if model.status in (IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED, IntentStatus.REJECTED):
                model.status = IntentStatus.REVIEW
            model.review_units.append(units)
            assert intent.status == model.status
            event("payment: late, to review")
            return
        event(f"payment: credited ({received}, {model.status}, {timing}, {'order' if model.order_pk else 'top-up'})")
        credit = expected_credit_cents(
            model.locked_units + units, model.rate, model.asset, model.network
        ) - expected_credit_cents(model.locked_units, model.rate, model.asset, model.network)
        model.locked_units += units
        model.credited_payments += 1
        assert payment.state == PaymentState.CREDITED
        assert payment.credited_cents == credit
        if credit == 0:
            assert payment.deposit_id is None  # dust worth less than a cent: carried, no movement
            assert Deposit.objects.filter(status=DepositStatus.CREDITED).count() == deposits_before
        else:
            deposit = payment.deposit
            assert deposit is not None
            assert deposit.credited_cents == credit
            # A top-up's first credit credits the top-up itself; any other gets a deposit of its own.
            assert (deposit.pk == model.deposit_pk) == top_up_was_pending
            assert Deposit.objects.filter(status=DepositStatus.CREDITED).count() == deposits_before + 1
        if model.status in _OPEN and model.locked_units >= model.amount_units:
            model.status = IntentStatus.CONFIRMED  # dust or a partial payment leaves it open (or expired)
        self._credited(model, credit, order_was_awaiting=order_was_awaiting)

    @rule(intent_pk=intents, other_amount=st.booleans(), data=st.data())
    def confirm_again(self, intent_pk: uuid.UUID, other_amount: bool, data: st.DataObject) -> None:
        """A redelivery or a second worker: the same payment again changes nothing; the same transaction with
        another amount, or for another intent, is refused (`payment_already_credited`)."""
        model = self.intent_models[intent_pk]
        if not model.payments:
            return
        txid, units = data.draw(st.sampled_from(model.payments), label="earlier payment")
        same_network = sorted((pk for pk, m in self.intent_models.items() if m.network == model.network), key=str)
        target = data.draw(st.sampled_from(same_network), label="reported for")
        balances, deposits = list(self.balances), Deposit.objects.count()
        same = target == intent_pk and not other_amount
        try:
            intent_confirm(intent_id=target, txid=txid, received_units=units + (5 if other_amount else 0))
        except PaymentAlreadyCredited:
            event("payment again: refused")
            assert not same
        else:
            assert same
            event("payment again: no change")
        assert [self._balance(index) for index in (0, 1)] == balances
        assert Deposit.objects.count() == deposits

    @rule(intent_pk=intents)
    def reject(self, intent_pk: uuid.UUID) -> None:
        model = self.intent_models[intent_pk]
        balance = self._balance(model.customer)
        try:
            intent = intent_reject(intent_id=intent_pk, reason="state machine")
        except IntentClosed:
            assert model.credited_payments or model.status == IntentStatus.CONFIRMED
            return
        assert model.status == IntentStatus.REJECTED or not (
            model.credited_payments or model.status == IntentStatus.CONFIRMED
        )
        assert intent.status == IntentStatus.REJECTED
        if model.status != IntentStatus.REJECTED:
            model.review_units = []  # declined with the intent
        model.status = IntentStatus.REJECTED
        assert self._balance(model.customer) == balance

    @rule(intent_pk=intents, use_current_rate=st.booleans())
    def resolve_review(self, intent_pk: uuid.UUID, use_current_rate: bool) -> None:
        model = self.intent_models[intent_pk]
        order_was_awaiting = self._order_awaiting(model)
        try:
            resolved = review_resolve(intent_id=intent_pk, actor=self.operator, use_current_rate=use_current_rate)
        except IntentClosed:
            assert not model.review_units
            return
        event("review: credited")
        assert sorted(p.amount_units for p in resolved) == sorted(model.review_units)
        rate = self.rates[model.asset] if use_current_rate else model.rate
        credit = sum(expected_credit_cents(u, rate, model.asset, model.network) for u in model.review_units)
        assert sum(p.credited_cents or 0 for p in resolved) == credit
        model.credited_payments += len(resolved)
        model.review_units = []
        if model.status == IntentStatus.REVIEW:
            model.status = IntentStatus.CONFIRMED
        self._credited(model, credit, order_was_awaiting=order_was_awaiting)

    @rule(intent_pk=intents)
    def expire_intents(self, intent_pk: uuid.UUID) -> None:
        """The expiry sweep runs at this intent's expiry: it and every open intent issued before it expire."""
        until = self.intent_models[intent_pk].expires_at
        intents_expire_due(now=until)
        for model in self.intent_models.values():
            if model.status == IntentStatus.AWAITING_PAYMENT and model.expires_at <= until:
                model.status = IntentStatus.EXPIRED

    @rule(order_pk=orders)
    def pay_from_balance(self, order_pk: int) -> None:
        order = Order.objects.get(pk=order_pk)
        customer = self._customer_of(order.owner_id)
        try:
            paid = order_pay_from_balance(order=order, owner=self.customers[customer])
        except NothingToPay:
            assert order.payment_status != PaymentStatus.AWAITING_PAYMENT
            return
        except InsufficientBalance:
            event("pay from balance: insufficient")
            assert order.payment_status == PaymentStatus.AWAITING_PAYMENT
            assert self._spendable(customer, order_pk) < order.total_cents
            return
        event("pay from balance: paid")
        assert self._spendable(customer, order_pk) >= order.total_cents
        assert paid.payment_status == PaymentStatus.PAID
        assert paid.pk not in self.paid_orders
        self.paid_orders.add(paid.pk)
        self.balances[customer] -= order.total_cents
        self._order_closed(order_pk)

    @rule(order_pk=orders)
    def customer_tops_up_then_pays_from_balance(self, order_pk: int) -> None:
        """The other checkout: top up what is missing (USDT, paid exactly, in time), then pay from the balance."""
        order = Order.objects.get(pk=order_pk)
        customer = self._customer_of(order.owner_id)
        missing = order.total_cents - self._spendable(customer, order_pk)
        if order.payment_status == PaymentStatus.AWAITING_PAYMENT and missing > 0:
            deposit = deposit_create(owner=self.customers[customer], amount=Usd(max(missing, 500)))
            intent_pk = self.issue_for_deposit(deposit.pk, ("USDT", "tron"))
            assert isinstance(intent_pk, uuid.UUID)
            self._confirm(intent_pk, "exact", timing="in time")
        self.pay_from_balance(order_pk)

    @rule(order_pk=orders)
    def order_cancel_by_customer(self, order_pk: int) -> None:
        order = Order.objects.get(pk=order_pk)
        try:
            order_cancel(order=order, actor=self.customers[self._customer_of(order.owner_id)], confirmed=True)
        except TransitionNotAllowed:
            assert order.payment_status != PaymentStatus.AWAITING_PAYMENT
            return
        self._order_closed(order_pk)

    @rule(pair=st.sampled_from(PAIRS), data=st.data())
    def change_rate(self, pair: tuple[str, str], data: st.DataObject) -> None:
        asset = pair[0]
        rate = Decimal(data.draw(st.sampled_from(NEW_RATES[asset])))
        ExchangeRate.objects.create(asset=asset, usd_per_unit=rate, source="state machine", as_of=timezone.now())
        self.rates[asset] = rate

    # --- invariants, checked after every step (one pass over the rows, to keep each step cheap) ------------------

    @invariant()
    def money_rules_hold(self) -> None:
        assert ledger_check() == []
        transfers = {transfer.reference: transfer for transfer in LedgerTransfer.objects.all()}
        deposits = {deposit.pk: deposit for deposit in Deposit.objects.all()}
        orders = {order.pk: order for order in Order.objects.all()}
        intents = {intent.pk: intent for intent in PaymentIntent.objects.all()}
        accounts = {
            account.customer_id: account.pk
            for account in LedgerAccount.objects.filter(kind=AccountKind.CUSTOMER)
            if account.customer_id is not None
        }
        self._check_credits(transfers, deposits, intents, accounts)
        self._check_debits(transfers, orders, accounts)
        self._check_balances(transfers, deposits, orders, accounts)

    def _check_credits(
        self,
        transfers: dict[str, LedgerTransfer],
        deposits: dict[int, Deposit],
        intents: dict[uuid.UUID, PaymentIntent],
        accounts: dict[int, int],
    ) -> None:
        """Every payment is credited at most once, with a deposit of its own; nothing else is credited."""
        assert set(intents) == set(self.intent_models)
        payments = list(Payment.objects.all())
        credited_by: dict[int, int] = {}
        per_intent: dict[uuid.UUID, int] = {}
        for payment in payments:
            intent = intents[payment.intent_id]
            if payment.state != PaymentState.CREDITED:
                assert payment.deposit_id is None, payment.pk
                assert payment.credited_cents is None, payment.pk
                continue
            per_intent[payment.intent_id] = per_intent.get(payment.intent_id, 0) + (payment.credited_cents or 0)
            if not payment.credited_cents:
                assert payment.deposit_id is None  # dust worth less than a cent moves nothing
                continue
            assert payment.deposit_id is not None
            assert payment.deposit_id not in credited_by
            credited_by[payment.deposit_id] = payment.pk
            deposit = deposits[payment.deposit_id]
            assert deposit.status == DepositStatus.CREDITED
            assert deposit.owner_id == intent.owner_id
            assert deposit.credited_cents == payment.credited_cents
            transfer = transfers[f"deposit:{deposit.ref}"]
            assert transfer.amount_cents == payment.credited_cents
            assert transfer.credit_account_id == accounts[intent.owner_id]
        for pk, intent in intents.items():
            model = self.intent_models[pk]
            assert intent.status == model.status, (pk, intent.status, model.status)
            assert per_intent.get(pk, 0) == model.credit_cents, pk
            assert sorted((p.txid, p.amount_units) for p in payments if p.intent_id == pk) == sorted(model.payments)
        for deposit in deposits.values():
            # A credited deposit has its credited payment behind it; any other moved no money.
            assert (deposit.status == DepositStatus.CREDITED) == (deposit.pk in credited_by), deposit.ref
            if deposit.status != DepositStatus.CREDITED:
                assert f"deposit:{deposit.ref}" not in transfers
        credits = [reference for reference in transfers if reference.startswith("deposit:")]
        assert len(credits) == len(credited_by)

    def _check_debits(
        self, transfers: dict[str, LedgerTransfer], orders: dict[int, Order], accounts: dict[int, int]
    ) -> None:
        """Each order is debited at most once (the reference is unique), for exactly its total, iff it is paid."""
        refs = {order.ref: order for order in orders.values()}
        for reference, transfer in transfers.items():
            if reference.startswith("order:"):
                order = refs[reference.removeprefix("order:")]
                assert order.payment_status == PaymentStatus.PAID, reference
                assert transfer.amount_cents == order.total_cents
                assert transfer.debit_account_id == accounts[order.owner_id]
        for order in orders.values():
            assert (order.payment_status == PaymentStatus.PAID) == (f"order:{order.ref}" in transfers), order.ref
        assert self.paid_orders == {pk for pk, order in orders.items() if order.payment_status == PaymentStatus.PAID}

    def _check_balances(
        self,
        transfers: dict[str, LedgerTransfer],
        deposits: dict[int, Deposit],
        orders: dict[int, Order],
        accounts: dict[int, int],
    ) -> None:
        """A balance is credits minus debits, by the ledger and by the deposits and paid orders; never negative."""
        for index, user in enumerate(self.customers):
            account = accounts.get(user.pk)
            credits = sum(t.amount_cents for t in transfers.values() if t.credit_account_id == account)
            debits = sum(t.amount_cents for t in transfers.values() if t.debit_account_id == account)
            deposited = sum(
                d.credited_cents or 0
                for d in deposits.values()
                if d.owner_id == user.pk and d.status == DepositStatus.CREDITED
            )
            spent = sum(
                o.total_cents
                for o in orders.values()
                if o.owner_id == user.pk and o.payment_status == PaymentStatus.PAID
            )
            balance = self._balance(index)
            assert balance == credits - debits == deposited - spent == self.balances[index], (index, balance)
            assert balance >= 0


@pytest.mark.django_db
def test_random_payment_sequences_keep_the_money_rules(payment_setup) -> None:
    run_state_machine_as_test(
        PaymentsMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=30,
            deadline=None,
            database=None,  # no .hypothesis/ folder in the tree
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
