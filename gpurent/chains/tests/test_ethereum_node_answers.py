"""The Ethereum watcher skips what moved no money to the shop (a failed or unknown receipt, a removed log, a log
that is not a token transfer) and reads nothing when its cursor is at the tip. The node is a local JSON-RPC
fake (`fake_jsonrpc`); ganache's own scenarios are in test_ethereum_node.py."""

from __future__ import annotations

import os
from typing import Any

import pytest
from bip_utils import Bip32Secp256k1

from gpurent.chains.ethereum import TRANSFER_TOPIC, EthereumWatcher
from gpurent.chains.rpc import JsonRpcClient
from gpurent.payments.assets import chain_units, pair_get
from gpurent.payments.intents.allocation import extended_key_register
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import ChainCursor, ChainObservation

from .fake_jsonrpc import FakeJsonRpcNode

pytestmark = pytest.mark.django_db

FAILED, UNKNOWN = "0x" + "0f" * 32, "0x" + "0e" * 32


@pytest.fixture
def intent(settings, order, customer, payment_setup):
    settings.PAYMENTS_CONFIRMATIONS = {"ethereum": 3}
    account = Bip32Secp256k1.FromSeed(os.urandom(32)).DerivePath("m/44'/60'/0'")
    extended_key_register(network="ethereum", key=account.PublicKey().ToExtended())
    return intent_issue_for_order(order=order, owner=customer, asset="ETH", network="ethereum")


@pytest.fixture
def node():
    nodes: list[FakeJsonRpcNode] = []

    def start(answers: dict[str, Any]) -> FakeJsonRpcNode:
        nodes.append(FakeJsonRpcNode(answers))
        return nodes[-1]

    yield start
    for started in nodes:
        started.stop()


def block_hash(number: int) -> str:
    return f"0x{number:064x}"


def test_failed_and_unknown_receipts_and_removed_or_foreign_logs_move_nothing(node, intent):
    wei = hex(chain_units(intent.amount_units, pair_get("ETH", "ethereum")))
    payments = [
        {"hash": FAILED, "to": intent.address, "value": wei},
        {"hash": UNKNOWN, "to": intent.address, "value": wei},
    ]
    recipient = "0x" + "00" * 12 + intent.address[2:].lower()
    logs = [
        # Its block left the chain after the node reported it.
        {"removed": True, "topics": [TRANSFER_TOPIC, "0x" + "00" * 32, recipient], "blockNumber": "0x62"},
        # Two topics: an ERC-721 approval or another event, not an ERC-20 transfer to us.
        {"removed": False, "topics": [TRANSFER_TOPIC, recipient], "blockNumber": "0x62"},
    ]

    def block(number: str, full: bool) -> dict[str, Any]:
        return {"hash": block_hash(int(number, 16)), "transactions": payments if int(number, 16) == 98 else []}

    fake = node(
        {
            "eth_blockNumber": "0x64",
            "eth_getBlockByNumber": block,
            "eth_getTransactionReceipt": lambda txid: {"status": "0x0"} if txid == FAILED else None,
            "eth_getLogs": lambda query: logs,
        }
    )
    report = EthereumWatcher(JsonRpcClient(fake.url)).scan()
    # A first scan reads 2 × 3 blocks below the tip (94 … 100); the cursor stops 3 confirmations below it.
    assert (report.height, report.blocks, report.transfers) == (100, 7, 0)
    assert [params[0] for method, params in fake.calls if method == "eth_getTransactionReceipt"] == [FAILED, UNKNOWN]
    assert not ChainObservation.objects.exists()
    cursor = ChainCursor.objects.get(network="ethereum")
    assert (cursor.height, cursor.block_hash) == (98, block_hash(98))


def test_a_cursor_at_the_tip_reads_no_block_and_no_log(node, intent):
    ChainCursor.objects.create(network="ethereum", height=100, block_hash=block_hash(100))
    fake = node(
        {
            "eth_blockNumber": "0x64",
            "eth_getBlockByNumber": lambda number, full: {"hash": block_hash(int(number, 16)), "transactions": []},
        }
    )
    report = EthereumWatcher(JsonRpcClient(fake.url)).scan()
    assert (report.height, report.blocks) == (100, 0)
    # Only the saved block, to check it is still on the chain.
    assert fake.calls[1:] == [("eth_getBlockByNumber", ["0x64", False])]
    assert ChainCursor.objects.get(network="ethereum").tip_height == 100
