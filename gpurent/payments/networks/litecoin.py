"""Litecoin: LTC, quoted to the litoshi; 6 confirmations by default (payments_security §4.3).

Mainnet, testnet or regtest follows `PAYMENTS_SEGWIT_HRP_LITECOIN` (`bitcoin_family.py`); Litecoin Core's
regtest is testnet's table with the hrp `rltc`. Litecoin spells some addresses exactly like Bitcoin (the
deprecated P2SH `3…` on mainnet, `m…`/`n…`/`2…` on test networks): those are refused with the reason below.
"""

from __future__ import annotations

from dataclasses import dataclass

from bip_utils import CoinsConf
from bip_utils.slip.slip44 import Slip44
from django.utils.translation import gettext as _

from .base import HEX64_TXID, PairSpec, demo_digest
from .bitcoin_family import BitcoinFamily, variant_read
from .codecs import b58check_encode, base58_version

__all__ = ["NETWORK"]


@dataclass(frozen=True)
class Litecoin(BitcoinFamily):
    def address_refusal(self, text: str) -> str | None:
        """The spellings Litecoin shares with Bitcoin are refused: a Bitcoin address would pass for one."""
        shop = self.variant()
        if base58_version(text) not in shop.shared_versions:
            return None
        if shop.name == "mainnet":
            return _(
                "Litecoin addresses starting with 3 are refused: they are spelled exactly like Bitcoin addresses, "
                "so a Bitcoin address would pass for one and the coins would be lost. Use your wallet's address "
                "starting with M, L or ltc1."
            )
        return _(
            "On Litecoin test networks, addresses spelled like Bitcoin testnet ones (m…, n…, 2…) are refused: use "
            "an address starting with Q or %(hrp)s1."
        ) % {"hrp": shop.hrp}


_MAINNET, _MAINNET_SHARED = ("p2pkh_std_net_ver", "p2sh_std_net_ver"), ("p2sh_depr_net_ver",)
_TEST, _TEST_SHARED = ("p2sh_std_net_ver",), ("p2pkh_std_net_ver", "p2sh_depr_net_ver")
_TEST_KEYS = ("ttub", "tpub", "vpub")

NETWORK = Litecoin(
    id="litecoin",
    label="Litecoin",
    pairs=(PairSpec("LTC", chain_decimals=8, quote_decimals=8),),
    confirmations=6,
    watcher="gpurent.chains.bitcoin.BitcoinFamilyWatcher",
    demo_address=b58check_encode(b"\x30" + demo_digest("litecoin", 20)),
    txid_format=HEX64_TXID,  # as Bitcoin's
    variants=(
        variant_read(
            "Litecoin",
            "mainnet",
            CoinsConf.LitecoinMainNet,
            _MAINNET,
            _MAINNET_SHARED,
            coin_type=Slip44.LITECOIN,
            key_prefixes=("zpub", "Ltub", "xpub"),
        ),
        variant_read(
            "Litecoin",
            "testnet",
            CoinsConf.LitecoinTestNet,
            _TEST,
            _TEST_SHARED,
            coin_type=Slip44.TESTNET,
            key_prefixes=_TEST_KEYS,
        ),
        # bip-utils has no Litecoin regtest table: Litecoin Core's is testnet's with its own hrp.
        variant_read(
            "Litecoin",
            "regtest",
            CoinsConf.LitecoinTestNet,
            _TEST,
            _TEST_SHARED,
            coin_type=Slip44.TESTNET,
            key_prefixes=_TEST_KEYS,
            hrp="rltc",
        ),
    ),
)
