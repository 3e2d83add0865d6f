"""Observations at the edges of the money path: dust below the shop's precision, a credited transfer whose
confirmations change or whose block leaves the chain, and a chain output an operator already recorded for
another intent (never credited twice)."""

from __future__ import annotations

import logging

import pytest

from gpurent.chains.crediting import observation_credit
from gpurent.chains.observations import Transfer, transfer_observe
from gpurent.ledger.selectors import ledger_check
from gpurent.orders.services import Contact, order_place
from gpurent.payments.assets import pair_get
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ChainObservation, ObservationState, Payment
from gpurent.payments.received.receive import payment_receive

pytestmark = pytest.mark.django_db

TXID = "e1" * 32


def transfer(intent, *, confirmations: int, amount_chain: int | None = None, txid: str = TXID) -> Transfer:
    pair = pair_get(intent.asset, intent.network)
    if amount_chain is None:
        amount_chain = intent.amount_units * 10 ** (pair.chain_decimals - pair.quote_decimals)
    return Transfer(
        network=intent.network,
        asset=intent.asset,
        txid=txid,
        index=0,
        address=intent.address,
        amount_chain=amount_chain,
        block_hash="f" * 64 if confirmations > 0 else "",
        block_height=100 if confirmations > 0 else None,
        confirmations=confirmations,
    )


@pytest.fixture
def eth_intent(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")


def observed(seen: Transfer, *, required: int) -> ChainObservation:
    """`transfer_observe` for a transfer it must record."""
    observation = transfer_observe(seen, required=required)
    assert observation is not None
    return observation


def test_dust_below_one_quote_unit_is_recorded_nowhere(eth_intent):
    # One quote unit of ETH is 10^-8 ETH, 10^10 wei: one wei less is below the shop's precision.
    assert transfer_observe(transfer(eth_intent, confirmations=3, amount_chain=10**10 - 1), required=1) is None
    assert not ChainObservation.objects.exists()


def test_credited_transfer_keeps_its_credit_as_confirmations_change_or_its_block_leaves(eth_intent):
    credited = observed(transfer(eth_intent, confirmations=1), required=1)
    assert (credited.state, credited.confirmations) == (ObservationState.CREDITED, 1)
    deeper = observed(transfer(eth_intent, confirmations=6), required=1)
    assert (deeper.state, deeper.confirmations) == (ObservationState.CREDITED, 6)
    # A reorg after the credit (deeper than the depth protects against): the credit stands, no block counted.
    left = observed(transfer(eth_intent, confirmations=-1), required=1)
    assert (left.state, left.confirmations) == (ObservationState.CREDITED, 0)
    assert Payment.objects.filter(txid=TXID).count() == 1
    assert ledger_check() == []


def test_crediting_a_credited_observation_again_changes_nothing(eth_intent):
    credited = observed(transfer(eth_intent, confirmations=1), required=1)
    again = observation_credit(observation_id=credited.pk)
    assert (again.state, again.credited_at) == (ObservationState.CREDITED, credited.credited_at)
    assert Payment.objects.count() == 1


def test_an_output_an_operator_recorded_for_another_intent_is_not_credited_twice(eth_intent, customer, gpu, caplog):
    contact = Contact("Pay", "Er", "pay@example.com")
    other_order = order_place(
        owner=customer, gpu_slug=gpu.slug, term_days=3, lots=1, environment="ubuntu", contact=contact
    )
    other = intent_issue_for_order(order=other_order, owner=customer, asset="ETH", network="ethereum")
    # An operator typed this transaction's id on the other intent first.
    payment_receive(intent_id=other.pk, txid=TXID, amount_units=other.amount_units, source="operator")
    seen = observed(transfer(eth_intent, confirmations=0), required=1)
    with caplog.at_level(logging.WARNING, logger="gpurent.chains.crediting"):
        kept = observed(transfer(eth_intent, confirmations=1), required=1)
    assert kept.pk == seen.pk
    assert (kept.state, kept.credited_at) == (ObservationState.SEEN, None)
    assert f"chain payment {TXID}:0 was already recorded elsewhere" in caplog.text
    assert list(Payment.objects.values_list("intent_id", flat=True)) == [other.pk]
    assert ledger_check() == []
