"""The Bitcoin Core family watcher against a real Litecoin Core node in regtest: derived addresses, real
transactions from the node's wallet, confirmations counted, reorgs, restarts."""

import os
from datetime import timedelta
from decimal import Decimal

import pytest
from bip_utils import Bip32KeyNetVersions, Bip32Secp256k1
from django.urls import reverse
from django.utils import timezone

from gpurent.chains.bitcoin import BitcoinFamilyWatcher
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import (
    ChainObservation,
    Deposit,
    IntentStatus,
    ObservationState,
    PaymentIntent,
)
from gpurent.payments.received.verification import intents_expire_due

from . import scenarios

pytestmark = [pytest.mark.chain_node, pytest.mark.django_db(transaction=True)]

LTC = pair_get("LTC", "litecoin")
TPUB = Bip32KeyNetVersions(bytes.fromhex("043587cf"), bytes.fromhex("04358394"))


@pytest.fixture
def ltc(settings, litecoin_node, payment_setup):
    """A fresh watch-only account key per test (so tests on the shared node never see each other's
    payments), regtest addresses, 3 confirmations."""
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    settings.PAYMENTS_CONFIRMATIONS = {"litecoin": 3}
    account = Bip32Secp256k1.FromSeed(os.urandom(32), TPUB).DerivePath("m/84'/1'/0'")
    extended_key_register(network="litecoin", key=account.PublicKey().ToExtended())
    # The cursor is per database; the node keeps blocks from earlier tests, which this key never saw.
    return litecoin_node


def watcher(node):
    return BitcoinFamilyWatcher("litecoin", node.client("watch"))


def ltc_amount(units):
    return Decimal(format_units(units, LTC))


def chain(node):
    """The regtest node as the shared scenarios drive it."""
    return scenarios.Chain(
        "litecoin", "LTC", lambda to, units: node.send(to, ltc_amount(units)), node.mine, watcher(node).scan
    )


def test_payment_is_seen_then_confirmed_with_no_operator(ltc, order, customer, client, settings, django_user_model):
    intent = intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")
    assert intent.address.startswith("rltc1q")
    assert watcher(ltc).scan().imported == 1  # the node watches the new address from the next scan on
    txid = ltc.send(intent.address, ltc_amount(intent.amount_units))
    watcher(ltc).scan()
    seen = ChainObservation.objects.get(txid=txid)
    assert (seen.state, seen.confirmations, seen.amount_units) == (ObservationState.SEEN, 0, intent.amount_units)

    ltc.mine(1)
    watcher(ltc).scan()
    client.force_login(customer)
    page = client.get(f"/rentals/{order.ref}/").content.decode()
    assert "Seen on chain, 1 of 3 confirmations" in page
    intent.refresh_from_db()
    assert intent.status == IntentStatus.AWAITING_PAYMENT

    ltc.mine(2)
    report = watcher(ltc).scan()
    assert report.credited == 1
    scenarios.assert_paid_by_the_watcher(intent, order)
    assert ChainObservation.objects.get(txid=txid).state == ObservationState.CREDITED

    ltc.mine(1)
    watcher(ltc).scan()  # seen again at 4 confirmations: nothing more happens
    assert Deposit.objects.filter(owner=customer).count() == 1

    # The payments desk shows the evidence and that nobody had to confirm it.
    settings.CHAIN_EXPLORER_TX_URLS = {"litecoin": "https://ltc-explorer.invalid/tx/{txid}"}
    settings.CHAIN_WATCH_URLS = {"litecoin": "http://127.0.0.1:1/"}
    # A superuser: this test's database is flushed between tests (transaction=True), roles included.
    operator = django_user_model.objects.create_user(
        "desk@shop.example", "passphrase 12", first_name="D", last_name="K", is_staff=True, is_superuser=True
    )
    client.force_login(operator)
    assert "chain watcher (automatic)" in client.get("/backoffice/backoffice/paymentsdesk/?queue=all").content.decode()
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert f"https://ltc-explorer.invalid/tx/{txid}" in detail
    assert "3 of 3 confirmations" in detail  # as counted when it was credited
    assert "confirmed automatically by the chain watcher" in detail


def test_overpayment_pays_the_order_and_leaves_the_excess_on_the_balance(ltc, order, customer):
    # +1 LTC = +$80.00
    scenarios.an_overpayment_leaves_the_excess_on_the_balance(
        chain(ltc), order, customer, extra_units=10**8, extra_cents=8_000
    )


def test_a_transaction_that_leaves_the_chain_before_depth_is_not_credited_until_mined_again(ltc, order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")
    txid = ltc.send(intent.address, ltc_amount(intent.amount_units))
    (block,) = ltc.mine(1)
    watcher(ltc).scan()
    assert ChainObservation.objects.get(txid=txid).confirmations == 1

    # Reorg: the block leaves the chain, and the transaction is kept out of the blocks that replace it.
    ltc.call("invalidateblock", block)
    ltc.call("prioritisetransaction", txid, 0, -100_000_000)
    ltc.mine(4)
    watcher(ltc).scan()
    observation = ChainObservation.objects.get(txid=txid)
    assert observation.confirmations == 0
    assert observation.state != ObservationState.CREDITED
    intent.refresh_from_db()
    assert intent.status == IntentStatus.AWAITING_PAYMENT
    assert not Deposit.objects.filter(owner=customer).exists()

    # Seen again in a block and taken to depth: credited, once.
    ltc.call("prioritisetransaction", txid, 0, 100_000_000)
    ltc.mine(3)
    watcher(ltc).scan()
    watcher(ltc).scan()
    intent.refresh_from_db()
    assert intent.status == IntentStatus.CONFIRMED
    assert Deposit.objects.filter(owner=customer).count() == 1


def test_a_payment_after_expiry_goes_to_review(ltc, order, customer):
    scenarios.a_payment_after_expiry_goes_to_review(chain(ltc), order, customer)


def test_a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it(ltc, order, customer):
    scenarios.a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it(chain(ltc), order, customer)


def test_a_watcher_killed_mid_scan_resumes_from_its_cursor_and_credits_nothing_twice(
    ltc, order, customer, monkeypatch, settings
):
    scenarios.a_watcher_killed_mid_scan_credits_nothing_twice(chain(ltc), order, customer, monkeypatch, settings)


def test_a_two_part_payment_is_credited_part_by_part_and_pays_the_order(ltc, order, customer):
    scenarios.a_two_part_payment_is_credited_part_by_part(chain(ltc), order, customer)


def state(txid):
    row = ChainObservation.objects.get(txid=txid)
    return row.state, row.confirmations, row.block_height


def test_a_payment_double_spent_after_a_reorg_leaves_the_seen_state(
    ltc, order, customer, client, settings, django_user_model
):
    """Issue 32: its block left the chain and a conflicting transaction spent its coins, mined to 17
    confirmations; it stayed "Seen on chain, 0 of 3 confirmations" for ever (listsinceblock never lists a
    conflicted receive), on the intent page (still asking for news after the intent expired) and the desk."""
    intent = intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")
    watcher(ltc).scan()
    txid = ltc.send(intent.address, ltc_amount(intent.amount_units))
    (block,) = ltc.mine(1)
    watcher(ltc).scan()
    ltc.call("invalidateblock", block)  # back to the mempool
    watcher(ltc).scan()
    assert state(txid) == (ObservationState.SEEN, 0, None)

    ltc.double_spend(txid)
    ltc.mine(16)
    watcher(ltc).scan()
    assert state(txid) == (ObservationState.DROPPED, 0, None)
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    intents_expire_due()
    watcher(ltc).scan()
    assert state(txid) == (ObservationState.DROPPED, 0, None)
    intent.refresh_from_db()
    assert intent.status == IntentStatus.EXPIRED
    assert not Deposit.objects.filter(owner=customer).exists()

    settings.CHAIN_WATCH_URLS = {"litecoin": "http://127.0.0.1:1/"}
    client.force_login(customer)
    page = client.get(f"/rentals/{order.ref}/").content.decode()
    assert "Seen on chain" not in page
    assert "left it before it was confirmed" in page
    assert reverse("payments:intent_chain", args=[intent.pk]) not in page  # nothing more to ask the watcher
    operator = django_user_model.objects.create_user(
        "desk@shop.example", "passphrase 12", first_name="D", last_name="K", is_staff=True, is_superuser=True
    )
    client.force_login(operator)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert "no block\n        · 0 of 3 confirmations · Left the chain" in detail  # not "(mempool)"


def test_a_payment_replaced_by_a_fee_bump_leaves_the_seen_state_and_its_replacement_is_credited_once(
    ltc, order, customer
):
    """Issue 32: the original of a fee bump (BIP125) stayed "seen" beside its replacement, for ever once the
    replacement was mined. It leaves the seen state at the next scan; the replacement pays the order, once."""
    intent = intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")
    watcher(ltc).scan()
    original = ltc.send(intent.address, ltc_amount(intent.amount_units), replaceable=True)
    watcher(ltc).scan()
    assert state(original) == (ObservationState.SEEN, 0, None)

    bumped = ltc.miner.call("bumpfee", original)["txid"]
    watcher(ltc).scan()
    assert state(original)[0] == ObservationState.DROPPED
    assert state(bumped) == (ObservationState.SEEN, 0, None)

    ltc.mine(3)
    watcher(ltc).scan()
    watcher(ltc).scan()
    assert state(original)[0] == ObservationState.DROPPED
    assert state(bumped)[0] == ObservationState.CREDITED
    scenarios.assert_paid_by_the_watcher(intent, order)
    assert Deposit.objects.filter(owner=customer).count() == 1
