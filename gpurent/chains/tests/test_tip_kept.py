"""A complete scan keeps the node's tip it saw beside the cursor, for /metrics' watcher lag (decision 0413); a scan
that fails half-way keeps the previous one, so the age of the last complete scan grows."""

from datetime import timedelta

import pytest
from django.utils import timezone

from gpurent.chains.rpc import HttpApiClient, RpcError
from gpurent.chains.tron import TronWatcher
from gpurent.payments.models import ChainCursor

from .fake_tron import FakeTronNode

pytestmark = pytest.mark.django_db


@pytest.fixture
def node():
    fake = FakeTronNode()
    yield fake
    fake.stop()


def test_a_complete_scan_keeps_the_tip_and_when_it_saw_it(node, settings):
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 3}
    node.mine(4)
    first = timezone.now() - timedelta(minutes=5)
    report = TronWatcher(HttpApiClient(node.url)).scan(now=first)
    cursor = ChainCursor.objects.get(network="tron")
    assert report.height == node.tip
    assert (cursor.tip_height, cursor.tip_seen_at) == (node.tip, first)
    assert cursor.height == node.tip - 2  # the cursor stops at the last block with 3 confirmations

    node.mine(6)
    TronWatcher(HttpApiClient(node.url)).scan()
    cursor.refresh_from_db()
    assert cursor.tip_height == node.tip
    assert cursor.tip_seen_at is not None
    assert cursor.tip_seen_at > first


def test_a_failed_scan_keeps_the_tip_of_the_last_complete_one(node, settings):
    settings.PAYMENTS_CONFIRMATIONS = {"tron": 3}
    node.mine(4)
    TronWatcher(HttpApiClient(node.url)).scan()
    kept = ChainCursor.objects.values_list("tip_height", "tip_seen_at").get(network="tron")
    node.mine(2)
    node.failing = "class org.tron.core.exception.ItemNotFoundException"
    with pytest.raises(RpcError):
        TronWatcher(HttpApiClient(node.url)).scan()
    assert ChainCursor.objects.values_list("tip_height", "tip_seen_at").get(network="tron") == kept
