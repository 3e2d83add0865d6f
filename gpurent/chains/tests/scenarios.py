"""Payment scenarios every chain watcher must pass, written once and run by each watcher's test file (Litecoin on
a regtest node, Tron and Solana on their fakes) through a `Chain`: how to pay, add blocks and scan there.

Each test file keeps a test per scenario (so a failure names the network), whose body is one call here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from gpurent.chains import observations
from gpurent.chains.base import ScanReport
from gpurent.ledger.models import LedgerTransfer
from gpurent.ledger.selectors import balance_for
from gpurent.orders.enums import PaymentStatus
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import (
    ChainCursor,
    ChainObservation,
    Deposit,
    IntentStatus,
    ObservationState,
    Payment,
    PaymentIntent,
)
from gpurent.payments.received.verification import intents_expire_due

__all__ = [
    "Chain",
    "a_payment_after_expiry_goes_to_review",
    "a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it",
    "a_two_part_payment_is_credited_part_by_part",
    "a_watcher_killed_mid_scan_credits_nothing_twice",
    "an_overpayment_leaves_the_excess_on_the_balance",
    "assert_paid_by_the_watcher",
]


@dataclass(frozen=True)
class Chain:
    """One network as the scenarios drive it. The node is set to credit at 3 confirmations."""

    network: str
    asset: str
    pay: Callable[[str, int], Any]  # (address, amount in the pair's quote units)
    mine: Callable[[int], Any]  # add that many blocks (slots) on top
    scan: Callable[..., ScanReport]  # one watcher scan; `now=` moves the lease clock

    def intent(self, order: Any, customer: Any) -> PaymentIntent:
        return intent_issue_for_order(order=order, owner=customer, asset=self.asset, network=self.network)


def assert_paid_by_the_watcher(intent: PaymentIntent, order: Any) -> None:
    """The intent is confirmed with no operator (`verified_by` empty) and its order is paid."""
    intent.refresh_from_db()
    order.refresh_from_db()
    assert (intent.status, intent.verified_by, order.payment_status) == (
        IntentStatus.CONFIRMED,
        None,
        PaymentStatus.PAID,
    )


def _credited_deposits(customer: Any) -> int:
    return Deposit.objects.filter(owner=customer, status="credited").count()


def a_two_part_payment_is_credited_part_by_part(chain: Chain, order: Any, customer: Any) -> None:
    intent = chain.intent(order, customer)
    chain.scan()
    first = intent.amount_units // 3
    chain.pay(intent.address, first)
    chain.mine(3)
    chain.scan()
    order.refresh_from_db()
    intent.refresh_from_db()
    # A partial payment is credited and leaves the order and the intent open.
    assert (order.payment_status, intent.status) == (PaymentStatus.AWAITING_PAYMENT, IntentStatus.AWAITING_PAYMENT)
    assert _credited_deposits(customer) == 1
    chain.pay(intent.address, intent.amount_units - first)
    chain.mine(3)
    chain.scan()
    order.refresh_from_db()
    intent.refresh_from_db()
    assert (order.payment_status, intent.status) == (PaymentStatus.PAID, IntentStatus.CONFIRMED)
    assert Payment.objects.filter(intent=intent, source="chain").count() == 2
    assert _credited_deposits(customer) == 2


def an_overpayment_leaves_the_excess_on_the_balance(
    chain: Chain, order: Any, customer: Any, *, extra_units: int, extra_cents: int
) -> None:
    """`extra_units` more than asked (in quote units) is worth `extra_cents` at the test rate."""
    intent = chain.intent(order, customer)
    chain.pay(intent.address, intent.amount_units + extra_units)
    chain.mine(3)
    chain.scan()
    order.refresh_from_db()
    assert order.payment_status == PaymentStatus.PAID
    assert balance_for(customer).cents == extra_cents


def a_payment_after_expiry_goes_to_review(chain: Chain, order: Any, customer: Any) -> None:
    intent = chain.intent(order, customer)
    # The customer pays after the quote ran out (as if issued 2 hours ago with a 30-minute validity).
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(minutes=90))
    chain.pay(intent.address, intent.amount_units)
    chain.mine(3)
    chain.scan()
    intent.refresh_from_db()
    order.refresh_from_db()
    assert (intent.status, order.payment_status) == (IntentStatus.REVIEW, PaymentStatus.AWAITING_PAYMENT)
    assert _credited_deposits(customer) == 0
    assert not LedgerTransfer.objects.filter(reference__startswith="deposit:").exists()


def a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it(
    chain: Chain, order: Any, customer: Any
) -> None:
    """Issue 32: seen on chain below its depth before the intent expired, at depth after the expiry sweep ran
    (a mainnet payment sent in the second half of a 30-minute quote): credited at the locked rate and the order
    paid, by the first-seen rule of docs/money.md. It went to review."""
    intent = chain.intent(order, customer)
    chain.scan()
    chain.pay(intent.address, intent.amount_units)
    chain.mine(1)
    chain.scan()
    observation = ChainObservation.objects.get(intent=intent)
    assert observation.state == ObservationState.SEEN
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now())
    intents_expire_due()
    chain.mine(3)
    chain.scan()
    assert_paid_by_the_watcher(intent, order)
    payment = Payment.objects.get(intent=intent)
    assert (payment.state, payment.at_locked_rate, payment.credited_cents) == ("credited", True, intent.usd_cents)
    assert payment.received_at > intent.expires_at > observation.first_seen_at


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no cleanup (BaseException passes every except)."""


def a_watcher_killed_mid_scan_credits_nothing_twice(
    chain: Chain, order: Any, customer: Any, monkeypatch: Any, settings: Any
) -> None:
    """Two half payments at depth; the watcher dies while crediting the second. Its lease holds until it runs
    out, its cursor did not move, and the next scan credits the second payment once and the first not again."""
    first, second = chain.intent(order, customer), chain.intent(order, customer)
    chain.scan()
    cursor = ChainCursor.objects.values_list("height", "block_hash").get(network=chain.network)
    chain.pay(first.address, first.amount_units // 2)
    chain.pay(second.address, second.amount_units // 2)
    chain.mine(3)
    real_credit = observations.observation_credit
    calls = []

    def credit_then_die(**kwargs: Any) -> Any:
        calls.append(kwargs)
        if len(calls) == 2:
            raise Killed
        return real_credit(**kwargs)

    monkeypatch.setattr(observations, "observation_credit", credit_then_die)
    with pytest.raises(Killed):
        chain.scan()
    monkeypatch.setattr(observations, "observation_credit", real_credit)
    # A killed process does not run its `finally`: its lease stays taken until it runs out.
    ChainCursor.objects.filter(network=chain.network).update(
        lease_owner="killed:1", leased_until=timezone.now() + timedelta(seconds=settings.CHAIN_WATCH_LEASE_SECONDS)
    )
    assert ChainCursor.objects.values_list("height", "block_hash").get(network=chain.network) == cursor
    assert _credited_deposits(customer) == 1  # one credited before the kill
    assert chain.scan().skipped  # the dead process's lease holds...
    later = timezone.now() + timedelta(seconds=settings.CHAIN_WATCH_LEASE_SECONDS + 1)
    assert not chain.scan(now=later).skipped  # ...until it runs out; the scan resumes from the saved cursor
    assert _credited_deposits(customer) == 2
    assert ChainObservation.objects.filter(state=ObservationState.CREDITED).count() == 2
    chain.scan(now=later)
    assert _credited_deposits(customer) == 2
