"""`configured_watchers` builds each network's watcher from the registry (`Network.watcher`), not from a branch
per network name (decision 0470)."""

import logging

import pytest

from gpurent.chains.bitcoin import BitcoinFamilyWatcher
from gpurent.chains.rpc import HttpApiClient, JsonRpcClient
from gpurent.chains.watchers import configured_watchers
from gpurent.payments.networks import all_networks


def test_every_network_with_a_url_gets_the_watcher_its_module_names(settings):
    settings.CHAIN_WATCH_URLS = {network.id: f"http://127.0.0.1:1/{network.id}" for network in all_networks()}
    watchers = configured_watchers()
    assert [watcher.network for watcher in watchers] == [network.id for network in all_networks()]
    for watcher, network in zip(watchers, all_networks(), strict=True):
        assert f"{type(watcher).__module__}.{type(watcher).__qualname__}" == network.watcher
        # Tron is read over TronGrid's HTTP API, every other network over JSON-RPC.
        assert isinstance(getattr(watcher, "client", None), HttpApiClient if network.id == "tron" else JsonRpcClient)


def test_a_network_without_a_url_or_without_a_module_gets_no_watcher(settings, caplog):
    settings.CHAIN_WATCH_URLS = {"bitcoin": "", "dogecoin": "http://127.0.0.1:1/"}
    with caplog.at_level(logging.WARNING, logger="gpurent.chains.watchers"):
        assert configured_watchers() == []
    assert "no chain watcher runs for dogecoin: no watcher reads that network" in caplog.text


@pytest.mark.parametrize("network", ["ethereum", "dogecoin"])
def test_the_bitcoin_watcher_reads_only_the_networks_that_name_it(network):
    with pytest.raises(ValueError, match="is not a Bitcoin Core family network"):
        BitcoinFamilyWatcher(network, JsonRpcClient("http://127.0.0.1:1/"))
