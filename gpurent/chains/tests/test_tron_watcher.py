"""The Tron watcher against a fake full node that serves the documented HTTP API answers (no Tron node runs
here; docs/decisions/0143): TRX and TRC-20 USDT, confirmations, reorgs before depth, restarts."""

import os
from functools import partial

import pytest
from bip_utils import Bip32Secp256k1

from gpurent.chains.rpc import HttpApiClient
from gpurent.chains.tron import TronWatcher
from gpurent.chains.watchers import configured_watchers, watch_chains_once
from gpurent.orders.enums import PaymentStatus
from gpurent.payments.assets import chain_units, pair_get
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import (
    ChainCursor,
    ChainObservation,
    Deposit,
    IntentStatus,
    ObservationState,
    Payment,
)
from gpurent.payments.networks.codecs import b58check_encode

from . import scenarios
from .fake_tron import FakeTronNode

pytestmark = pytest.mark.django_db

TRX = pair_get("TRX", "tron")
USDT = pair_get("USDT", "tron")


@pytest.fixture
def node():
    fake = FakeTronNode()
    yield fake
    fake.stop()


@pytest.fixture
def tron(settings, node, payment_setup):
    """A watch-only Tron account key (m/44'/195'/0'), 3 confirmations."""
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 3}
    account = Bip32Secp256k1.FromSeed(os.urandom(32)).DerivePath("m/44'/195'/0'")
    extended_key_register(network="tron", key=account.PublicKey().ToExtended())
    return node


def scan(node, **kwargs):
    return TronWatcher(HttpApiClient(node.url)).scan(**kwargs)


def sun(intent):
    return chain_units(intent.amount_units, TRX)


def chain(node):
    """The node as the shared scenarios drive it (TRX)."""
    return scenarios.Chain(
        "tron", "TRX", lambda to, units: node.pay_trx(to, chain_units(units, TRX)), node.mine, partial(scan, node)
    )


def test_trx_payment_is_seen_then_confirmed_with_no_operator(tron, order, customer, client, settings, admin_user):
    scan(tron)
    intent = intent_issue_for_order(order=order, owner=customer, asset="TRX", network="tron")
    assert intent.address.startswith("T")
    txid = tron.pay_trx(intent.address, sun(intent))
    tron.mine(1)
    scan(tron)
    client.force_login(customer)
    assert "Seen on chain, 1 of 3 confirmations" in client.get(f"/rentals/{order.ref}/").content.decode()
    intent.refresh_from_db()
    assert intent.status == IntentStatus.AWAITING_PAYMENT

    tron.mine(2)
    assert scan(tron).credited == 1
    scenarios.assert_paid_by_the_watcher(intent, order)
    observation = ChainObservation.objects.get(txid=txid)
    assert (observation.state, observation.output_index, observation.amount_chain) == (
        ObservationState.CREDITED,
        0,
        str(sun(intent)),
    )
    tron.mine(1)
    scan(tron)
    assert Deposit.objects.filter(owner=customer).count() == 1

    settings.CHAIN_EXPLORER_TX_URLS = {"tron": "https://tronscan.org/#/transaction/{txid}"}
    client.force_login(admin_user)
    detail = client.get(f"/backoffice/backoffice/paymentsdesk/{intent.pk}/change/").content.decode()
    assert f"https://tronscan.org/#/transaction/{txid}" in detail
    assert "confirmed automatically by the chain watcher" in detail


def test_usdt_transfer_event_pays_a_usdt_intent_and_a_reverted_call_pays_nothing(tron, order, customer):
    scan(tron)
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    failed = tron.pay_token(USDT.token_contract, intent.address, intent.amount_units, success=False)
    paid = tron.pay_token(USDT.token_contract, intent.address, intent.amount_units)  # 6 decimals, as quoted
    tron.mine(3)
    assert scan(tron).credited == 1
    observation = ChainObservation.objects.get(txid=paid)
    assert (observation.asset, observation.output_index, observation.amount_units) == ("USDT", 1, intent.amount_units)
    assert not ChainObservation.objects.filter(txid=failed).exists()
    order.refresh_from_db()
    assert order.payment_status == PaymentStatus.PAID


def test_a_token_of_another_contract_is_not_usdt(tron, order, customer):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    other = b58check_encode(b"\x41" + bytes(range(1, 21)))
    tron.pay_token(other, intent.address, intent.amount_units)
    tron.mine(3)
    scan(tron)
    assert not ChainObservation.objects.exists()


def test_a_two_part_payment_is_credited_part_by_part_and_pays_the_order(tron, order, customer):
    scenarios.a_two_part_payment_is_credited_part_by_part(chain(tron), order, customer)


def test_an_overpayment_pays_the_order_and_leaves_the_excess_on_the_balance(tron, order, customer):
    # +400 TRX at $0.25 = +$100.00
    scenarios.an_overpayment_leaves_the_excess_on_the_balance(
        chain(tron), order, customer, extra_units=400 * 10**6, extra_cents=10_000
    )


def test_a_block_replaced_before_depth_credits_nothing_until_the_payment_is_mined_again(tron, order, customer):
    scan(tron)
    intent = intent_issue_for_order(order=order, owner=customer, asset="TRX", network="tron")
    txid = tron.pay_trx(intent.address, sun(intent))
    tron.mine(1)
    scan(tron)
    assert ChainObservation.objects.get(txid=txid).confirmations == 1

    tron.reorg(1)  # the block with the payment leaves the chain, and the transaction with it
    tron.mine(4)
    scan(tron)
    observation = ChainObservation.objects.get(txid=txid)
    assert (observation.state, observation.block_height) == (ObservationState.DROPPED, None)
    intent.refresh_from_db()
    assert intent.status == IntentStatus.AWAITING_PAYMENT
    assert not Deposit.objects.filter(owner=customer).exists()


def test_a_transaction_moved_to_another_block_by_a_reorg_is_credited_once(tron, order, customer):
    scan(tron)
    intent = intent_issue_for_order(order=order, owner=customer, asset="TRX", network="tron")
    txid = tron.pay_trx(intent.address, sun(intent))
    (first_block,) = tron.mine(1)
    scan(tron)
    tron.reorg(1, keep_transactions=True)
    tron.mine(1, empty=True)  # another block takes its height; the payment lands one block later
    tron.mine(3)
    scan(tron)
    scan(tron)
    observation = ChainObservation.objects.get(txid=txid)
    assert (observation.state, observation.block_height) == (ObservationState.CREDITED, first_block + 1)
    assert Deposit.objects.filter(owner=customer, status="credited").count() == 1


def test_a_saved_block_that_left_the_chain_rewinds_the_scan(tron, order, customer):
    scan(tron)
    tron.mine(6)
    scan(tron)
    saved = ChainCursor.objects.get(network="tron")
    tron.reorg(5)
    tron.mine(6)
    report = scan(tron)
    assert report.notes == [f"saved block {saved.height} left the chain; rescanning from {saved.height - 3}"]
    assert ChainCursor.objects.get(network="tron").block_hash != saved.block_hash


def test_a_payment_after_expiry_goes_to_review(tron, order, customer):
    scenarios.a_payment_after_expiry_goes_to_review(chain(tron), order, customer)


def test_a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it(tron, order, customer):
    scenarios.a_payment_seen_before_expiry_is_credited_at_the_locked_rate_at_depth_after_it(
        chain(tron), order, customer
    )


def test_a_watcher_killed_mid_scan_resumes_from_its_cursor_and_credits_nothing_twice(
    tron, order, customer, monkeypatch, settings
):
    scenarios.a_watcher_killed_mid_scan_credits_nothing_twice(chain(tron), order, customer, monkeypatch, settings)


def test_on_a_shared_address_the_exact_amount_names_the_intent(settings, node, payment_setup, order, customer):
    """No key registered: Tron falls back to the shared address, where amounts are unique (decision 0140)."""
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 3}
    first = intent_issue_for_order(order=order, owner=customer, asset="TRX", network="tron")
    second = intent_issue_for_order(order=order, owner=customer, asset="TRX", network="tron")
    assert first.address == second.address
    assert first.amount_units != second.amount_units
    node.pay_trx(second.address, sun(second))
    odd = node.pay_trx(second.address, sun(second) + 5 * 10**6)  # matches no intent: left to an operator
    node.mine(3)
    scan(node)
    second.refresh_from_db()
    assert second.status == IntentStatus.CONFIRMED
    assert not Payment.objects.filter(intent=first).exists()
    assert not ChainObservation.objects.filter(txid=odd).exists()


def test_a_tron_url_configures_the_tron_watcher(settings):
    settings.CHAIN_WATCH_URLS = {"tron": "http://127.0.0.1:8090"}
    (watcher,) = configured_watchers()
    assert isinstance(watcher, TronWatcher)


def test_the_api_key_travels_in_its_header_and_a_node_error_skips_the_network(settings, node, payment_setup, caplog):
    settings.CHAIN_WATCH_URLS = {"tron": node.url}
    settings.CHAIN_WATCH_TRON_API_KEY = "grid-key-123"
    node.failing = "class java.lang.NullPointerException : null"
    (report,) = watch_chains_once()
    assert report.skipped
    assert report.notes == ["/wallet/getnowblock: class java.lang.NullPointerException : null"]
    assert node.server.headers[-1]["tron-pro-api-key"] == "grid-key-123"
    assert "grid-key-123" not in caplog.text
