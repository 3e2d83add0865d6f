"""The Bitcoin Core family watcher's handling of answers the regtest node does not give on cue: a legacy
(non-descriptor) wallet, a refused import, spends and removed outputs in the listing, a conflicted or
forgotten transaction, and node errors other than "not found" (which stop the scan rather than drop a payment).

The node is a local HTTP server answering Bitcoin Core's JSON-RPC (method → result, or an error object with
Bitcoin Core's codes); amounts are JSON numbers, as Bitcoin Core prints them. The real node's scenarios are
in test_litecoin_node.py.
"""

from __future__ import annotations

import os
from decimal import Decimal
from typing import Any

import pytest
from bip_utils import Bip32KeyNetVersions, Bip32Secp256k1

from gpurent.chains.bitcoin import BitcoinFamilyWatcher
from gpurent.chains.rpc import JsonRpcClient, RpcError
from gpurent.payments.assets import format_units, pair_get
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ChainObservation, DerivedAddress, ObservationState

from .fake_jsonrpc import FakeJsonRpcNode, NodeError

pytestmark = pytest.mark.django_db

LTC = pair_get("LTC", "litecoin")
TPUB = Bip32KeyNetVersions(bytes.fromhex("043587cf"), bytes.fromhex("04358394"))


@pytest.fixture
def intent(settings, order, customer, payment_setup):
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    settings.PAYMENTS_CONFIRMATIONS = {"litecoin": 3}
    account = Bip32Secp256k1.FromSeed(os.urandom(32), TPUB).DerivePath("m/84'/1'/0'")
    extended_key_register(network="litecoin", key=account.PublicKey().ToExtended())
    return intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")


@pytest.fixture
def node():
    nodes: list[FakeJsonRpcNode] = []

    def start(answers: dict[str, Any]) -> FakeJsonRpcNode:
        nodes.append(FakeJsonRpcNode(answers))
        return nodes[-1]

    yield start
    for started in nodes:
        started.stop()


def receive(intent, txid: str, confirmations: int, **fields: Any) -> dict[str, Any]:
    entry = {
        "category": "receive",
        "txid": txid,
        "vout": 0,
        "address": intent.address,
        "amount": Decimal(format_units(intent.amount_units, LTC)),
        "confirmations": confirmations,
    }
    if confirmations > 0:
        entry.update(blockhash="b" * 64, blockheight=110 - confirmations + 1)
    return {**entry, **fields}


def listing(*transactions: dict[str, Any], removed: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"transactions": list(transactions), "removed": list(removed), "lastblock": "c" * 64}


def answers(**overrides: Any) -> dict[str, Any]:
    return {
        "getblockcount": 110,
        "getwalletinfo": {"descriptors": True},
        "listsinceblock": listing(),
        "getblockheader": {"height": 108},
        **overrides,
    }


def scan(fake: FakeJsonRpcNode):
    return BitcoinFamilyWatcher("litecoin", JsonRpcClient(fake.url)).scan()


def test_watcher_refuses_a_network_outside_the_bitcoin_core_family():
    with pytest.raises(ValueError, match="ethereum is not a Bitcoin Core family network"):
        BitcoinFamilyWatcher("ethereum", JsonRpcClient("http://127.0.0.1:1"))


def test_legacy_wallet_watches_new_addresses_with_importmulti_and_a_rescan(node, intent):
    fake = node(
        answers(getwalletinfo={"descriptors": False}, importmulti=lambda requests, options: [{"success": True}])
    )
    report = scan(fake)
    assert report.imported == 1
    assert report.height == 110
    (params,) = [params for method, params in fake.calls if method == "importmulti"]
    requests, options = params
    assert [(r["scriptPubKey"], r["watchonly"], r["label"]) for r in requests] == [
        ({"address": intent.address}, True, "gpurent")
    ]
    assert options == {"rescan": True}
    assert DerivedAddress.objects.get(address=intent.address).imported_at is not None
    # Watched from now on: the next scan imports nothing.
    assert scan(fake).imported == 0


def test_a_refused_import_stops_the_scan_and_leaves_the_address_to_import_again(node, intent):
    refusal = {"success": False, "error": {"code": -5, "message": "Invalid address"}}
    fake = node(answers(getwalletinfo={"descriptors": False}, importmulti=lambda requests, options: [refusal]))
    with pytest.raises(RuntimeError, match="litecoin node refused to watch 1 addresses"):
        scan(fake)
    assert DerivedAddress.objects.get(address=intent.address).imported_at is None
    assert "listsinceblock" not in fake.methods()


def test_listing_skips_spends_and_drops_outputs_whose_block_left_the_chain(node, intent):
    DerivedAddress.objects.update(imported_at="2026-01-01T00:00:00Z")
    fake = node(answers(listsinceblock=listing(receive(intent, "a1" * 32, 1))))
    assert scan(fake).transfers == 1
    seen = ChainObservation.objects.get(txid="a1" * 32)
    assert (seen.state, seen.confirmations) == (ObservationState.SEEN, 1)

    spend = {"category": "send", "txid": "f0" * 32, "vout": 1, "address": intent.address, "amount": Decimal("-1")}
    fake.answers["listsinceblock"] = listing(spend, removed=(receive(intent, "a1" * 32, 1),))
    report = scan(fake)
    assert report.transfers == 0
    assert ChainObservation.objects.get(txid="a1" * 32).state == ObservationState.DROPPED
    assert not ChainObservation.objects.filter(txid="f0" * 32).exists()


def test_an_integer_amount_is_refused_rather_than_guessed(node, intent):
    DerivedAddress.objects.update(imported_at="2026-01-01T00:00:00Z")
    fake = node(answers(listsinceblock=listing(receive(intent, "a2" * 32, 1, amount=1))))
    with pytest.raises(TypeError, match="amounts are parsed as Decimal, never float"):
        scan(fake)
    assert not ChainObservation.objects.exists()


def test_a_mempool_error_other_than_not_found_stops_the_scan(node, intent):
    DerivedAddress.objects.update(imported_at="2026-01-01T00:00:00Z")
    fake = node(
        answers(
            listsinceblock=listing(receive(intent, "a3" * 32, 0)),
            getmempoolentry=NodeError(-28, "Loading block index..."),
        )
    )
    with pytest.raises(RpcError) as raised:
        scan(fake)
    assert raised.value.code == -28
    assert not ChainObservation.objects.exists()


def test_seen_transfers_the_listing_leaves_out_are_dropped_when_conflicted_or_unknown(node, intent):
    DerivedAddress.objects.update(imported_at="2026-01-01T00:00:00Z")
    fake = node(
        answers(
            listsinceblock=listing(
                receive(intent, "c1" * 32, 1), receive(intent, "c2" * 32, 1), receive(intent, "c3" * 32, 1)
            )
        )
    )
    scan(fake)
    assert ChainObservation.objects.filter(state=ObservationState.SEEN).count() == 3

    # Next scan lists none of them: the wallet holds c1 conflicted, no longer knows c2, and c3 is still fine.
    def gettransaction(txid: str, include_watchonly: bool) -> Any:
        return {
            "c1" * 32: {"confirmations": -2},
            "c2" * 32: NodeError(-5, "Invalid or non-wallet transaction id"),
            "c3" * 32: {"confirmations": 2},
        }[txid]

    fake.answers.update(listsinceblock=listing(), gettransaction=gettransaction)
    scan(fake)
    states = dict(ChainObservation.objects.values_list("txid", "state"))
    assert states == {
        "c1" * 32: ObservationState.DROPPED,
        "c2" * 32: ObservationState.DROPPED,
        "c3" * 32: ObservationState.SEEN,
    }


def test_a_transaction_lookup_error_other_than_not_found_keeps_the_transfer(node, intent):
    DerivedAddress.objects.update(imported_at="2026-01-01T00:00:00Z")
    fake = node(answers(listsinceblock=listing(receive(intent, "d1" * 32, 1))))
    scan(fake)
    fake.answers.update(listsinceblock=listing(), gettransaction=NodeError(-1, "internal error"))
    with pytest.raises(RpcError, match="gettransaction: internal error"):
        scan(fake)
    assert ChainObservation.objects.get(txid="d1" * 32).state == ObservationState.SEEN


def test_descriptor_wallet_watches_new_addresses_with_importdescriptors_from_their_creation(node, intent):
    fake = node(
        answers(
            getdescriptorinfo=lambda descriptor: {"descriptor": f"{descriptor}#checksum"},
            importdescriptors=lambda requests: [{"success": True} for _request in requests],
        )
    )
    assert scan(fake).imported == 1
    (params,) = [params for method, params in fake.calls if method == "importdescriptors"]
    row = DerivedAddress.objects.get(address=intent.address)
    assert params == [
        [{"desc": f"addr({intent.address})#checksum", "timestamp": int(row.created_at.timestamp()), "label": "gpurent"}]
    ]
    assert row.imported_at is not None
