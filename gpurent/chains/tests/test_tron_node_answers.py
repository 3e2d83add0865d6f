"""The Tron watcher refuses node answers it cannot read (a block without a number, a missing block) instead of
guessing, and reads nothing when its cursor is already at the tip."""

from __future__ import annotations

import pytest

from gpurent.chains.rpc import HttpApiClient, RpcError
from gpurent.chains.tron import TronWatcher
from gpurent.payments.models import ChainCursor

from .fakes import FakeHttpServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def serve():
    servers: list[FakeHttpServer] = []

    def start(answers: dict[str, object]) -> FakeHttpServer:
        servers.append(FakeHttpServer(lambda path, body: answers[path]))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def now_block(number: int) -> dict[str, object]:
    return {"blockID": f"{number:064x}", "block_header": {"raw_data": {"number": number}}}


def test_a_tip_block_without_a_number_is_a_node_error(serve):
    node = serve({"/wallet/getnowblock": {"blockID": "00" * 32}})
    with pytest.raises(RpcError, match=r"^the Tron node answered a block without a number$"):
        TronWatcher(HttpApiClient(node.url)).scan()
    assert ChainCursor.objects.get(network="tron").tip_height is None


def test_a_block_the_node_does_not_have_is_a_node_error(serve, settings):
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 10}
    node = serve({"/wallet/getnowblock": now_block(500), "/wallet/getblockbynum": {}})
    # A first scan reads from 2 × 10 blocks below the tip.
    with pytest.raises(RpcError, match=r"^the Tron node has no block 480$"):
        TronWatcher(HttpApiClient(node.url)).scan()
    assert ChainCursor.objects.get(network="tron").block_hash == ""


def test_a_cursor_at_the_tip_reads_no_block(serve):
    ChainCursor.objects.create(network="tron", height=500, block_hash=f"{500:064x}")
    node = serve({"/wallet/getnowblock": now_block(500), "/wallet/getblockbynum": now_block(500)})
    report = TronWatcher(HttpApiClient(node.url)).scan()
    assert (report.height, report.blocks, report.transfers) == (500, 0, 0)
    # Only the saved block was asked for, to check it is still on the chain.
    assert [body for path, body in node.requests if path == "/wallet/getblockbynum"] == [{"num": 500}]
    assert ChainCursor.objects.get(network="tron").tip_height == 500
