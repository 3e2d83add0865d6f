"""Which variant of Bitcoin and Litecoin the shop runs (mainnet, testnet, regtest), and what that variant's
addresses and watch-only account keys look like (docs/decisions/0370, 0372).

The variant follows the bech32 prefix the operator set in `PAYMENTS_SEGWIT_HRP` (`bc`/`ltc` by default), so the
addresses the shop derives, the addresses it accepts and the keys it accepts always agree:

| network  | hrp  | variant | Base58Check versions accepted | account key (BIP84)  | key prefixes      |
|----------|------|---------|-------------------------------|----------------------|-------------------|
| bitcoin  | bc   | mainnet | 0x00 `1…`, 0x05 `3…`          | m/84'/0'/a'          | zpub, xpub        |
| bitcoin  | tb   | testnet | 0x6f `m…`/`n…`, 0xc4 `2…`     | m/84'/1'/a'          | vpub, tpub        |
| bitcoin  | bcrt | regtest | 0x6f, 0xc4                    | m/84'/1'/a'          | vpub, tpub        |
| litecoin | ltc  | mainnet | 0x30 `L…`, 0x32 `M…`          | m/84'/2'/a'          | zpub, Ltub, xpub  |
| litecoin | tltc | testnet | 0x3a `Q…`                     | m/84'/1'/a'          | ttub, tpub, vpub  |
| litecoin | rltc | regtest | 0x3a `Q…`                     | m/84'/1'/a'          | ttub, tpub, vpub  |

Versions, hrps and coin types are read from bip-utils' coin tables (the library that derives the addresses);
Litecoin regtest is Litecoin Core's: testnet's versions with the hrp `rltc`. Litecoin also spells some
addresses exactly like Bitcoin: the deprecated P2SH `3…` (0x05) on mainnet, and P2PKH `m…`/`n…` (0x6f) and
P2SH `2…` (0xc4) on test networks. Those are `shared_versions`: refused on Litecoin with a reason, since a
Bitcoin address would pass for one. Ethereum, Tron and Solana addresses look the same on every test network.
"""

from __future__ import annotations

from dataclasses import dataclass

from bip_utils import CoinsConf
from bip_utils.slip.slip44 import Slip44
from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from .assets import NETWORKS

__all__ = [
    "ACCOUNT_KEYS",
    "SEGWIT_HRPS",
    "AccountKeyRule",
    "Variant",
    "account_key_rule",
    "check_segwit_hrps",
    "network_label",
    "variant",
]


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of a Bitcoin-family network.

    Attributes:
        network: "bitcoin" or "litecoin".
        name: "mainnet", "testnet" or "regtest".
        hrp: its segwit human-readable part.
        versions: the Base58Check version bytes accepted (P2PKH and P2SH).
        shared_versions: versions spelled exactly like another network's addresses, refused with a reason.
        coin_type: the BIP44 coin type of its account keys (1 on every test network).
        key_prefixes: the account key prefixes accepted, the native-SegWit one first.
    """

    network: str
    name: str
    hrp: str
    versions: frozenset[int]
    shared_versions: frozenset[int]
    coin_type: int
    key_prefixes: tuple[str, ...]

    @property
    def label(self) -> str:
        """The name people read: the network's on mainnet ("Bitcoin"), with the variant elsewhere ("Litecoin
        regtest")."""
        return NETWORKS[self.network] if self.name == "mainnet" else f"{NETWORKS[self.network]} {self.name}"


def _variant(network: str, name: str, conf: object, versions: tuple[str, ...], shared: tuple[str, ...]) -> Variant:
    """A variant from bip-utils' coin table `conf`: its hrp, and the version bytes under the named keys."""
    params = conf.ParamByKey  # type: ignore[attr-defined]
    test = name != "mainnet"
    coin_type = Slip44.TESTNET if test else (Slip44.BITCOIN if network == "bitcoin" else Slip44.LITECOIN)
    prefixes: tuple[str, ...]
    if network == "bitcoin":
        prefixes = ("vpub", "tpub") if test else ("zpub", "xpub")
    else:
        prefixes = ("ttub", "tpub", "vpub") if test else ("zpub", "Ltub", "xpub")
    return Variant(
        network=network,
        name=name,
        # Litecoin Core's regtest is testnet's table with its own hrp (bip-utils has no Litecoin regtest table).
        hrp="rltc" if (network, name) == ("litecoin", "regtest") else params("p2wpkh_hrp"),
        versions=frozenset(params(key)[0] for key in versions),
        shared_versions=frozenset(params(key)[0] for key in shared),
        coin_type=coin_type,
        key_prefixes=prefixes,
    )


_BTC = ("p2pkh_net_ver", "p2sh_net_ver")
_LTC, _LTC_SHARED = ("p2pkh_std_net_ver", "p2sh_std_net_ver"), ("p2sh_depr_net_ver",)
_LTC_TEST, _LTC_TEST_SHARED = ("p2sh_std_net_ver",), ("p2pkh_std_net_ver", "p2sh_depr_net_ver")
_VARIANTS: tuple[Variant, ...] = (
    _variant("bitcoin", "mainnet", CoinsConf.BitcoinMainNet, _BTC, ()),
    _variant("bitcoin", "testnet", CoinsConf.BitcoinTestNet, _BTC, ()),
    _variant("bitcoin", "regtest", CoinsConf.BitcoinRegTest, _BTC, ()),
    _variant("litecoin", "mainnet", CoinsConf.LitecoinMainNet, _LTC, _LTC_SHARED),
    _variant("litecoin", "testnet", CoinsConf.LitecoinTestNet, _LTC_TEST, _LTC_TEST_SHARED),
    _variant("litecoin", "regtest", CoinsConf.LitecoinTestNet, _LTC_TEST, _LTC_TEST_SHARED),
)
# Every known segwit prefix and the variant it belongs to: what an address of another variant is called.
SEGWIT_HRPS: dict[str, Variant] = {v.hrp: v for v in _VARIANTS}


def variant(network: str) -> Variant:
    """The variant of `network` ("bitcoin" or "litecoin") the shop runs, from `PAYMENTS_SEGWIT_HRP`.

    Raises:
        ImproperlyConfigured: the configured prefix is not one of the network's (bc, tb, bcrt; ltc, tltc, rltc).
    """
    configured: dict[str, str] = getattr(settings, "PAYMENTS_SEGWIT_HRP", {})
    hrp = configured.get(network) or ("bc" if network == "bitcoin" else "ltc")
    found = SEGWIT_HRPS.get(hrp)
    if found is None or found.network != network:
        known = ", ".join(f"{v.hrp} ({v.name})" for v in _VARIANTS if v.network == network)
        raise ImproperlyConfigured(f"PAYMENTS_SEGWIT_HRP_{network.upper()} is “{hrp}”; use one of {known}.")
    return found


def check_segwit_hrps(app_configs: object = None, **kwargs: object) -> list[checks.CheckMessage]:
    """A system check (`manage.py check`, `migrate`, `runserver`): an unknown prefix stops the shop before a
    request meets it."""
    errors: list[checks.CheckMessage] = []
    for network in ("bitcoin", "litecoin"):
        try:
            variant(network)
        except ImproperlyConfigured as error:
            errors.append(checks.Error(str(error), id="payments.E001"))
    return errors


def network_label(network: str) -> str:
    """The network as the shop runs it, for messages: "Litecoin", or "Litecoin regtest" on a test network."""
    return variant(network).label if network in ("bitcoin", "litecoin") else NETWORKS[network]


@dataclass(frozen=True, slots=True)
class AccountKeyRule:
    """Which watch-only account key a network takes, as the shop runs it.

    Attributes:
        label: the network as the shop runs it ("Litecoin regtest").
        standard: "BIP84" (native SegWit) or "BIP44".
        path: the account's path for account 0 ("m/84'/1'/0'").
        prefixes: the accepted prefixes, the usual one first.
        setting: the setting that picks the variant, where there is one ("PAYMENTS_SEGWIT_HRP_LITECOIN").
        hrp: that setting's value.
    """

    label: str
    standard: str
    path: str
    prefixes: tuple[str, ...]
    setting: str = ""
    hrp: str = ""

    @property
    def hint(self) -> str:
        """One line for operators: "Litecoin regtest: BIP84 m/84'/1'/0' (ttub, tpub, vpub)"."""
        return f"{self.label}: {self.standard} {self.path} ({', '.join(self.prefixes)})"


# Networks with public derivation; Solana has none (SLIP-10 ed25519 is hardened-only: docs/decisions/0140).
ACCOUNT_KEYS: tuple[str, ...] = ("bitcoin", "litecoin", "ethereum", "tron")
_BIP44_COIN_TYPES = {"ethereum": Slip44.ETHEREUM, "tron": Slip44.TRON}


def account_key_rule(network: str) -> AccountKeyRule | None:
    """The key `network` takes as the shop runs it, or None where no public key can derive addresses."""
    if network in ("bitcoin", "litecoin"):
        found = variant(network)
        path = f"m/84'/{found.coin_type}'/0'"
        setting = f"PAYMENTS_SEGWIT_HRP_{network.upper()}"
        return AccountKeyRule(found.label, "BIP84", path, found.key_prefixes, setting, found.hrp)
    if network in _BIP44_COIN_TYPES:
        return AccountKeyRule(NETWORKS[network], "BIP44", f"m/44'/{_BIP44_COIN_TYPES[network]}'/0'", ("xpub",))
    return None
