"""Tron: TRX and the TRC-20 token USDT; 19 confirmations by default (a block solidified by 2/3+1 of the 27 super
representatives).

Addresses are Base58Check of 21 bytes starting 0x41 (`T…`, 34 characters), kept as given; the checksum-less hex
form (`41…`) is refused with a pointer to the `T…` form. Tron has no payment URI that wallets agree on: the QR
code carries the bare address. A new TRC-20 token is one more `PairSpec` below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bip_utils import TrxAddrEncoder
from bip_utils.slip.slip44 import Slip44
from django.utils.translation import gettext as _

from .base import HEX64_TXID, AccountKeyRule, Network, PairSpec, demo_digest
from .codecs import Decoded, b58check_encode, base58check_version

__all__ = ["NETWORK"]

_HEX = re.compile(r"41[0-9a-fA-F]{40}", re.ASCII)


@dataclass(frozen=True)
class Tron(Network):
    derivable: bool = True

    def address_decode(self, text: str) -> Decoded | None:
        return base58check_version(text, frozenset({0x41}), 21)

    def address_refusal(self, text: str) -> str | None:
        if not _HEX.fullmatch(text):
            return None
        return _(
            "This is a Tron address in hex (41…), which carries no checksum: paste the address starting with T "
            "that your wallet shows."
        )

    def address_owner(self, text: str) -> str | None:
        return self.label if _HEX.fullmatch(text) or self.address_decode(text) is not None else None

    def account_key_rule(self) -> AccountKeyRule:
        return AccountKeyRule(self.label, "BIP44", f"m/44'/{Slip44.TRON}'/0'", ("xpub",))

    def address_from_key(self, public_key: object) -> str:
        """The Base58Check `T…` address."""
        return str(TrxAddrEncoder.EncodeKey(public_key))


NETWORK = Tron(
    id="tron",
    label="Tron",
    pairs=(
        # asset, chain decimals, quote decimals[, token contract, token standard]
        PairSpec("TRX", chain_decimals=6, quote_decimals=6),
        PairSpec("USDT", 6, 6, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TRC-20"),
    ),
    confirmations=19,
    watcher="gpurent.chains.tron.TronWatcher",
    demo_address=b58check_encode(b"\x41" + demo_digest("tron", 20)),
    txid_format=HEX64_TXID,  # the txID, as Tronscan shows it: no 0x
    # The black hole T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb is the all-zero hash: refused by rule.
    low_addresses_reserved=True,
)
