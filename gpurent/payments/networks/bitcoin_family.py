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

`bitcoin.py` and `litecoin.py` each make a `BitcoinFamily` with their variants; what differs between the two is
data, except Litecoin's reason for refusing the spellings it shares with Bitcoin.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from bip_utils import P2WPKHAddrEncoder
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _

from .base import AccountKeyRule, Network
from .codecs import Decoded, base58_version, base58check_version, segwit_decode

if TYPE_CHECKING:
    from gpurent.payments.assets import Pair

__all__ = ["BitcoinFamily", "Variant", "variant_read"]


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of a Bitcoin-family network.

    Attributes:
        network_label: the network's name ("Litecoin").
        name: "mainnet", "testnet" or "regtest".
        hrp: its segwit human-readable part.
        versions: the Base58Check version bytes accepted (P2PKH and P2SH).
        shared_versions: versions spelled exactly like another network's addresses, refused with a reason.
        coin_type: the BIP44 coin type of its account keys (1 on every test network).
        key_prefixes: the account key prefixes accepted, the native-SegWit one first.
    """

    network_label: str
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
        return self.network_label if self.name == "mainnet" else f"{self.network_label} {self.name}"


def variant_read(
    network_label: str,
    name: str,
    conf: object,
    versions: tuple[str, ...],
    shared: tuple[str, ...],
    *,
    coin_type: int,
    key_prefixes: tuple[str, ...],
    hrp: str = "",
) -> Variant:
    """A variant of the network called `network_label` from bip-utils' coin table `conf`: its hrp (unless
    given), and the version bytes under the named keys."""
    params = conf.ParamByKey  # type: ignore[attr-defined]
    return Variant(
        network_label=network_label,
        name=name,
        hrp=hrp or params("p2wpkh_hrp"),
        versions=frozenset(params(key)[0] for key in versions),
        shared_versions=frozenset(params(key)[0] for key in shared),
        coin_type=coin_type,
        key_prefixes=key_prefixes,
    )


@dataclass(frozen=True)
class BitcoinFamily(Network):
    """Bitcoin or Litecoin: segwit and Base58Check addresses of the variant the shop runs, BIP-21 URIs, BIP84
    account keys.

    Attributes:
        variants: mainnet first (its hrp is the default), then the test networks.
        test_versions_shared: whether its test networks' Base58Check versions are spelled the same on another
            network's test networks: an address of them is then "a test network", else "<label> testnet".
    """

    variants: tuple[Variant, ...] = ()
    test_versions_shared: bool = False
    derivable: bool = True

    def variant(self) -> Variant:
        """The variant the shop runs, from `PAYMENTS_SEGWIT_HRP` (mainnet's prefix when unset).

        Raises:
            ImproperlyConfigured: the configured prefix is not one of the network's (bc, tb, bcrt; ltc, tltc, rltc).
        """
        configured: dict[str, str] = getattr(settings, "PAYMENTS_SEGWIT_HRP", {})
        hrp = configured.get(self.id) or self.variants[0].hrp
        found = next((v for v in self.variants if v.hrp == hrp), None)
        if found is None:
            known = ", ".join(f"{v.hrp} ({v.name})" for v in self.variants)
            raise ImproperlyConfigured(f"PAYMENTS_SEGWIT_HRP_{self.id.upper()} is “{hrp}”; use one of {known}.")
        return found

    def running_label(self) -> str:
        return self.variant().label

    def check(self) -> None:
        self.variant()

    def address_decode(self, text: str) -> Decoded | None:
        shop = self.variant()
        if text[: len(shop.hrp) + 1].lower() == shop.hrp + "1":
            decoded = segwit_decode(shop.hrp, text)
            return (text.lower(), decoded[1]) if decoded is not None else None
        return base58check_version(text, shop.versions, 21)

    def address_owner(self, text: str) -> str | None:
        hrp = text[: text.rfind("1")].lower()
        for known in self.variants:
            if known.hrp == hrp and segwit_decode(hrp, text) is not None:
                return known.label
        version = base58_version(text)
        if version in self.variants[0].versions:
            return self.label
        if any(version in known.versions for known in self.variants[1:]):
            return _("a test network") if self.test_versions_shared else f"{self.label} testnet"
        return None

    def payment_uri(self, pair: Pair, address: str, amount: str, base_units: int, memo: str) -> str:
        """BIP-21: `bitcoin:ADDR?amount=0.0015` / `litecoin:ADDR?amount=…`, in whole coins."""
        return f"{self.id}:{address}?{urlencode({'amount': amount})}"

    def account_key_rule(self) -> AccountKeyRule:
        found = self.variant()
        path = f"m/84'/{found.coin_type}'/0'"
        setting = f"PAYMENTS_SEGWIT_HRP_{self.id.upper()}"
        return AccountKeyRule(found.label, "BIP84", path, found.key_prefixes, setting, found.hrp)

    def address_from_key(self, public_key: object) -> str:
        """A native SegWit P2WPKH address (`bc1q…`, `rltc1q…`) of the variant the shop runs."""
        return str(P2WPKHAddrEncoder.EncodeKey(public_key, hrp=self.variant().hrp, wit_ver=0))
