"""The one registry of networks: every network the shop accepts is a module listed in `NETWORK_MODULES`, and
everything about it is found through `network_get(id)` (docs/decisions/0470).

Adding a network is a module here that makes a `NETWORK` (`base.Network`, or a subclass that fills in its
address format, payment URI and keys) and a line below; adding a pair on a network is one `PairSpec` in that
network's module. The order below is the order of `assets.PAIRS`, so of every list of pairs the shop shows.
"""

from __future__ import annotations

from importlib import import_module

from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from .base import AccountKeyRule, Network, PairSpec, TxidFormat

__all__ = [
    "NETWORK_MODULES",
    "AccountKeyRule",
    "Network",
    "PairSpec",
    "TxidFormat",
    "all_networks",
    "check_segwit_hrps",
    "network_get",
    "txid_refusal",
]

NETWORK_MODULES: tuple[str, ...] = (
    "gpurent.payments.networks.bitcoin",
    "gpurent.payments.networks.ethereum",
    "gpurent.payments.networks.solana",
    "gpurent.payments.networks.tron",
    "gpurent.payments.networks.litecoin",
)

_BY_ID: dict[str, Network] = {}
for _path in NETWORK_MODULES:
    _network: Network = import_module(_path).NETWORK
    _BY_ID[_network.id] = _network


def all_networks() -> tuple[Network, ...]:
    """Every network, in the order of `NETWORK_MODULES`."""
    return tuple(_BY_ID.values())


def network_get(network_id: str) -> Network:
    """The network with this id ("tron").

    Raises:
        KeyError: no network has this id.
    """
    return _BY_ID[network_id]


def txid_refusal(network_id: str, text: str) -> str | None:
    """Why `text` is not a transaction id on the network `network_id`, naming the form one has ("This is not a
    transaction id on Ethereum: one is 0x followed by 64 hexadecimal characters (0-9, a-f)."), or None where it
    is one (the outer spaces cut). What an operator types as a txid is checked here before it is recorded: the
    payments desk, `manage.py confirm_payment` and the payouts desk's "Sent". For operators: English.

    Raises:
        KeyError: no network has this id.
    """
    network = network_get(network_id)
    if network.txid_format.accepts(text.strip()):
        return None
    return f"This is not a transaction id on {network.label}: one is {network.txid_format.form}."


def check_segwit_hrps(app_configs: object = None, **kwargs: object) -> list[checks.CheckMessage]:
    """A system check (`manage.py check`, `migrate`, `runserver`): a setting no network can work with (an unknown
    `PAYMENTS_SEGWIT_HRP` prefix) stops the shop before a request meets it."""
    errors: list[checks.CheckMessage] = []
    for network in all_networks():
        try:
            network.check()
        except ImproperlyConfigured as error:
            errors.append(checks.Error(str(error), id="payments.E001"))
    return errors
