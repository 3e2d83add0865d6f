"""The payments state machine with withdrawals and refunds interleaved (Hypothesis stateful testing, issue 10).

`PayoutsMachine` runs every rule of `PaymentsMachine` (orders, top-ups, intents, multi-part payments, repeated
and foreign txids, payments to closed intents, holds, reviews, rate changes, cancels, paying from the balance)
plus: customers ask to withdraw (any amount: below the minimum, more than is available, or fine), operators
mark withdrawals sent (again with the same txid: a double submit) or reject them (again), and failed paid
orders are refunded. After every step, besides the base invariants:

- each customer's balance = credits − order debits + refunds − withdrawals not rejected, by the ledger, by the
  rows and by the model; never negative; a withdrawal never takes what an open intent holds;
- `suspense:payouts` holds exactly the withdrawals still requested; `revenue:payout_fees` the fees of those
  sent; every payout has exactly the transfers of its status (`payout:`, then `payout-sent:` and
  `payout-fee:`, or `payout-returned:`), each of its amount.
"""

from __future__ import annotations

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, rule, run_state_machine_as_test

from gpurent.core.money import Usd
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.selectors import account_balance
from gpurent.ledger.services import REVENUE_PAYOUT_FEES, SUSPENSE_PAYOUTS
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order
from gpurent.orders.provisioning import provision_fail, provision_start
from gpurent.payments.errors import PayoutBelowMinimum, PayoutNotPending
from gpurent.payments.models import Deposit, DepositStatus, Payout, PayoutStatus
from gpurent.payments.payouts import payout_mark_sent, payout_reject, payout_request

from .test_state_machine import PaymentsMachine

MIN, FEE = 2_000, 100
TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
ALL = -1


class PayoutsMachine(PaymentsMachine):
    payouts = Bundle("payouts")

    def __init__(self) -> None:
        super().__init__()
        self.payout_models: dict[int, tuple[int, int, str]] = {}  # pk -> (customer, amount, status)
        self.refunded: set[int] = set()

    @rule(target=payouts, customer=st.integers(0, 1), cents=st.sampled_from([1_999, 2_000, 5_000, 12_345, 10**6, ALL]))
    def request_withdrawal(self, customer: int, cents: int) -> object:
        if cents == ALL:  # the whole balance, held part included: refused while an open intent holds some of it
            cents = max(self.balances[customer], MIN)
        available = self.balances[customer] - self._held(customer, except_order=None)
        try:
            payout = payout_request(
                owner=self.customers[customer], asset="USDT", network="tron", address=TRON, amount=Usd(cents)
            )
        except PayoutBelowMinimum:
            assert cents < MIN
            return None
        except InsufficientBalance:
            event("withdrawal: insufficient")
            assert cents >= MIN
            assert available < cents
            if self.balances[customer] >= cents:
                event("withdrawal: refused, the balance is held for an order")
            return None
        event("withdrawal: requested")
        assert MIN <= cents <= available
        self.balances[customer] -= cents
        self.payout_models[payout.pk] = (customer, cents, PayoutStatus.REQUESTED)
        return payout.pk

    @rule(order_pk=PaymentsMachine.orders)
    def instructions_then_withdraw_everything(self, order_pk: int) -> None:
        """New instructions for an order hold the balance's share for it; withdrawing the whole balance then
        must be refused (and is allowed again once nothing is held)."""
        self.issue_for_order(order_pk, ("USDT", "tron"))
        self.request_withdrawal(self._customer_of(Order.objects.get(pk=order_pk).owner_id), ALL)

    @rule(payout_pk=payouts, txid=st.sampled_from(["tx-a", "tx-b"]))
    def mark_sent(self, payout_pk: int | None, txid: str) -> None:
        if payout_pk is None:
            return
        customer, amount, status = self.payout_models[payout_pk]
        before = Payout.objects.get(pk=payout_pk)
        try:
            payout_mark_sent(payout_id=payout_pk, txid=txid, sent_units=amount * 10_000, actor=self.operator)
        except PayoutNotPending:
            assert status == PayoutStatus.REJECTED or (status == PayoutStatus.SENT and before.txid != txid)
            return
        assert status == PayoutStatus.REQUESTED or before.txid == txid  # first time, or a double submit
        event("withdrawal: sent")
        self.payout_models[payout_pk] = (customer, amount, PayoutStatus.SENT)

    @rule(payout_pk=payouts)
    def reject_withdrawal(self, payout_pk: int | None) -> None:
        if payout_pk is None:
            return
        customer, amount, status = self.payout_models[payout_pk]
        try:
            payout_reject(payout_id=payout_pk, reason="state machine", actor=self.operator)
        except PayoutNotPending:
            assert status == PayoutStatus.SENT
            return
        if status == PayoutStatus.REQUESTED:
            event("withdrawal: rejected")
            self.balances[customer] += amount
        self.payout_models[payout_pk] = (customer, amount, PayoutStatus.REJECTED)

    @rule(order_pk=PaymentsMachine.orders)
    def refund_failed_order(self, order_pk: int) -> None:
        order = Order.objects.get(pk=order_pk)
        customer = self._customer_of(order.owner_id)
        try:
            if order.provisioning_status == ProvisioningStatus.NOT_STARTED:
                order = provision_start(order=order, actor=self.operator)
            provision_fail(order=order, actor=self.operator, reason="state machine")
        except TransitionNotAllowed:
            assert order.payment_status != PaymentStatus.PAID or order_pk in self.refunded
            return
        event("order refunded")
        assert order_pk in self.paid_orders
        assert order_pk not in self.refunded
        self.refunded.add(order_pk)
        self.balances[customer] += order.total_cents

    def _check_balances(self, transfers, deposits, orders, accounts) -> None:
        """A balance = credits − debits by the ledger = deposits − paid orders + refunds − withdrawals not
        rejected, by the rows = the model; never negative. The payout accounts hold what their rows say."""
        payouts = list(Payout.objects.all())
        for index, user in enumerate(self.customers):
            account = accounts.get(user.pk)
            credits = sum(t.amount_cents for t in transfers.values() if t.credit_account_id == account)
            debits = sum(t.amount_cents for t in transfers.values() if t.debit_account_id == account)
            deposited = sum(
                d.credited_cents or 0 for d in deposits.values() if d.owner_id == user.pk and d.status == "credited"
            )
            mine = [o for o in orders.values() if o.owner_id == user.pk]
            spent = sum(o.total_cents for o in mine if o.payment_status == PaymentStatus.PAID)
            refunded = sum(o.total_cents for o in mine if o.provisioning_status == ProvisioningStatus.FAILED)
            withdrawn = sum(
                p.amount_cents for p in payouts if p.owner_id == user.pk and p.status != PayoutStatus.REJECTED
            )
            balance = self._balance(index)
            assert balance == credits - debits == deposited - spent + refunded - withdrawn == self.balances[index]
            assert balance >= 0
        assert {p.pk: (p.status, p.amount_cents) for p in payouts} == {
            pk: (status, amount) for pk, (_, amount, status) in self.payout_models.items()
        }
        requested = sum(p.amount_cents for p in payouts if p.status == PayoutStatus.REQUESTED)
        sent = [p for p in payouts if p.status == PayoutStatus.SENT]
        assert account_balance(SUSPENSE_PAYOUTS) == Usd(requested)
        assert account_balance(REVENUE_PAYOUT_FEES) == Usd(FEE * len(sent))
        for payout in payouts:
            expected = {f"payout:{payout.ref}": payout.amount_cents}
            if payout.status == PayoutStatus.SENT:
                expected |= {f"payout-sent:{payout.ref}": payout.amount_cents - FEE, f"payout-fee:{payout.ref}": FEE}
            if payout.status == PayoutStatus.REJECTED:
                expected |= {f"payout-returned:{payout.ref}": payout.amount_cents}
            found = LedgerTransfer.objects.filter(reference__contains=payout.ref).values_list(
                "reference", "amount_cents"
            )
            assert dict(found) == expected, payout.ref


@pytest.mark.django_db
@override_settings(PAYOUTS_MIN_CENTS=MIN, PAYOUTS_FEE_CENTS=FEE)
def test_random_sequences_with_withdrawals_and_refunds_keep_the_money_rules(payment_setup) -> None:
    assert not Deposit.objects.exclude(status=DepositStatus.PENDING).exists()
    run_state_machine_as_test(
        PayoutsMachine,
        settings=settings(
            max_examples=25,
            stateful_step_count=30,
            deadline=None,
            database=None,  # no .hypothesis/ folder in the tree
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
