"""The Ethereum watcher against a local node (ganache from npm): native ETH and an ERC-20 token compiled by solc
at test time, confirmations, a reorg (snapshot/revert) before depth, nothing credited twice."""

import os
from datetime import timedelta

import pytest
from bip_utils import Bip32Secp256k1
from django.urls import reverse
from django.utils import timezone

from gpurent.chains.ethereum import EthereumWatcher
from gpurent.orders.enums import PaymentStatus
from gpurent.payments.assets import chain_units, pair_get
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import (
    ChainObservation,
    Deposit,
    IntentStatus,
    ObservationState,
    Payment,
    PaymentIntent,
)
from gpurent.payments.received.verification import intents_expire_due

from . import scenarios

pytestmark = [pytest.mark.chain_node, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def eth(settings, ganache_node, payment_setup):
    settings.PAYMENTS_CONFIRMATIONS = {"ethereum": 3}
    account = Bip32Secp256k1.FromSeed(os.urandom(32)).DerivePath("m/44'/60'/0'")
    extended_key_register(network="ethereum", key=account.PublicKey().ToExtended())
    return ganache_node


@pytest.fixture
def usdt(eth, settings):
    token = eth.deploy_token(10**15)
    settings.CHAIN_TOKEN_CONTRACTS = {"USDT/ethereum": token}
    return token


def scan(node):
    return EthereumWatcher(node.node).scan(now=timezone.now())


def test_ether_payment_is_seen_then_confirmed_with_no_operator(eth, order, customer, client):
    scan(eth)
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    txid = eth.transact(to=intent.address, value=hex(chain_units(intent.amount_units, pair_get("ETH", "ethereum"))))
    scan(eth)
    client.force_login(customer)
    assert "Seen on chain, 1 of 3 confirmations" in client.get(f"/rentals/{order.ref}/").content.decode()
    eth.mine(2)
    assert scan(eth).credited == 1
    scenarios.assert_paid_by_the_watcher(intent, order)
    eth.mine(1)
    scan(eth)
    assert ChainObservation.objects.get(txid=txid).state == ObservationState.CREDITED
    assert Deposit.objects.filter(owner=customer).count() == 1


def test_token_transfer_log_pays_a_usdt_intent(eth, usdt, order, customer):
    scan(eth)
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="ethereum")
    txid = eth.token_transfer(usdt, intent.address, intent.amount_units)  # 6 decimals on chain and in quotes
    eth.mine(2)
    scan(eth)
    observation = ChainObservation.objects.get(txid=txid)
    assert (observation.asset, observation.output_index, observation.amount_units) == (
        "USDT",
        observation.output_index,
        intent.amount_units,
    )
    assert observation.output_index >= 1  # a log index + 1: index 0 is the transaction's own ether
    order.refresh_from_db()
    assert order.payment_status == PaymentStatus.PAID


def test_a_block_replaced_before_depth_credits_nothing(eth, order, customer):
    scan(eth)
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    snapshot = eth.call("evm_snapshot")
    txid = eth.transact(to=intent.address, value=hex(chain_units(intent.amount_units, pair_get("ETH", "ethereum"))))
    scan(eth)
    assert ChainObservation.objects.get(txid=txid).confirmations == 1
    eth.call("evm_revert", snapshot)  # the block with the payment leaves the chain
    eth.mine(4)  # other blocks take its height and beyond
    scan(eth)
    observation = ChainObservation.objects.get(txid=txid)
    assert observation.state == ObservationState.DROPPED
    intent.refresh_from_db()
    assert intent.status == IntentStatus.AWAITING_PAYMENT
    assert not Deposit.objects.filter(owner=customer).exists()


def test_a_payment_replaced_by_another_transaction_of_its_nonce_leaves_the_seen_state(
    eth, order, customer, client, settings
):
    """Issue 32, as on Litecoin: the payment's block leaves the chain and the payer's transaction of the same
    nonce, paying someone else, is mined to 17 confirmations. The payment left the chain for good: the intent
    page says so, after the intent expired too, and stops asking the watcher."""
    scan(eth)
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    snapshot = eth.call("evm_snapshot")
    value = hex(chain_units(intent.amount_units, pair_get("ETH", "ethereum")))
    nonce = eth.call("eth_getTransactionCount", eth.payer, "latest")
    txid = eth.transact(to=intent.address, value=value, nonce=nonce)
    scan(eth)
    assert ChainObservation.objects.get(txid=txid).state == ObservationState.SEEN
    eth.call("evm_revert", snapshot)
    eth.transact(to=eth.payer, value=value, nonce=nonce)  # the payment can never be mined now
    eth.mine(16)
    scan(eth)
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    intents_expire_due()
    scan(eth)
    observation = ChainObservation.objects.get(txid=txid)
    assert (observation.state, observation.block_height) == (ObservationState.DROPPED, None)
    assert not Deposit.objects.filter(owner=customer).exists()
    settings.CHAIN_WATCH_URLS = {"ethereum": "http://127.0.0.1:1/"}
    client.force_login(customer)
    page = client.get(f"/rentals/{order.ref}/").content.decode()
    assert "Seen on chain" not in page
    assert "left it before it was confirmed" in page
    assert reverse("payments:intent_chain", args=[intent.pk]) not in page


def test_a_payment_seen_before_expiry_and_at_depth_after_it_is_credited_at_the_locked_rate(eth, order, customer):
    """Issue 32: seen in a block before the intent expired, at its depth after the expiry sweep: it went to
    review, while docs/money.md says the first-seen time decides."""
    scan(eth)
    intent = intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")
    eth.transact(to=intent.address, value=hex(chain_units(intent.amount_units, pair_get("ETH", "ethereum"))))
    scan(eth)
    PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now())
    intents_expire_due()
    eth.mine(2)
    assert scan(eth).credited == 1
    scenarios.assert_paid_by_the_watcher(intent, order)
    payment = Payment.objects.get(intent=intent)
    assert (payment.state, payment.at_locked_rate, payment.credited_cents) == ("credited", True, intent.usd_cents)
