"""The registry of networks (decision 0470): one module per network, found by `network_get`, and no code outside
those modules branches on a network's name."""

import re
from importlib import import_module
from pathlib import Path

import pytest

from gpurent.payments.assets import NETWORKS, PAIRS
from gpurent.payments.networks import NETWORK_MODULES, all_networks, network_get

PACKAGE = Path(__file__).resolve().parents[2]
# `network == "tron"`, `network in ("bitcoin", …)`, `"solana" != net`: a branch on one network's name.
BRANCH = re.compile(
    r"""network\s*(?:==|!=)\s*["']|network\s+(?:not\s+)?in\s+[(\[{]\s*["']"""
    r"""|["'](?:bitcoin|litecoin|ethereum|tron|solana)["']\s*(?:==|!=|in\b)"""
)


def test_each_module_makes_the_network_named_after_it_and_the_registry_finds_it():
    for path in NETWORK_MODULES:
        network = import_module(path).NETWORK
        assert path.rsplit(".", 1)[1] == network.id
        assert network_get(network.id) is network
    assert [network.id for network in all_networks()] == [path.rsplit(".", 1)[1] for path in NETWORK_MODULES]


def test_an_unknown_network_is_a_key_error():
    with pytest.raises(KeyError):
        network_get("dogecoin")


def test_the_pairs_are_the_networks_pairs_in_the_registrys_order():
    assert [(pair.asset, pair.network) for pair in PAIRS] == [
        (spec.asset, network.id) for network in all_networks() for spec in network.pairs
    ]
    for pair in PAIRS:
        network = network_get(pair.network)
        assert (pair.network_label, pair.confirmations) == (network.label, network.confirmations)
    assert {network.id: network.label for network in all_networks()} == NETWORKS


def test_no_code_outside_the_network_modules_branches_on_a_networks_name():
    networks_package = PACKAGE / "payments" / "networks"
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not {"tests", "migrations"} & set(path.relative_to(PACKAGE).parts) and networks_package not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if BRANCH.search(line)
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    ['if network == "tron":', "elif pair.network in ('bitcoin', 'litecoin'):", 'if "solana" == network:'],
)
def test_the_branch_pattern_sees_a_branch(line):
    assert BRANCH.search(line)
