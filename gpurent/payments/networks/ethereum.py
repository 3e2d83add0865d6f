"""Ethereum: ETH and the ERC-20 tokens USDT and USDC; 64 confirmations by default (two epochs: finalized).

ETH's chain unit is the wei (18 decimals) but it is quoted at 8: 1e-8 ETH is far below a cent, and a 9+ digit
tail only makes the amount harder to type. Addresses are `0x` + 40 hex; a mixed-case one must pass EIP-55 (a
wrong checksum is a typo), an all-lower or all-upper one carries no checksum and is accepted and returned
checksummed, so what the shop stores and shows is protected from then on. Payment URIs follow EIP-681. A new
ERC-20 token is one more `PairSpec` below (the watcher reads every token pair of this network).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from bip_utils import EthAddrEncoder
from bip_utils.slip.slip44 import Slip44

from .base import AccountKeyRule, Network, PairSpec, TxidFormat, demo_digest
from .codecs import HEX40, Decoded, eip55_checksum

if TYPE_CHECKING:
    from gpurent.payments.assets import Pair

__all__ = ["CHAIN_ID", "NETWORK"]

# EIP-155 chain id of Ethereum mainnet.
CHAIN_ID = 1

# A transaction hash as every EVM node and explorer writes it (the watcher stores this form): 0x + 32 bytes in hex.
# Another EVM network declares the same.
EVM_TXID = TxidFormat(re.compile(r"0x[0-9a-fA-F]{64}", re.ASCII), "0x followed by 64 hexadecimal characters (0-9, a-f)")


@dataclass(frozen=True)
class Ethereum(Network):
    derivable: bool = True

    def address_decode(self, text: str) -> Decoded | None:
        match = HEX40.fullmatch(text)
        if match is None:
            return None
        checksummed = eip55_checksum(text)
        hex_part = match[1]
        is_single_case = hex_part == hex_part.lower() or hex_part == hex_part.upper()
        if not is_single_case and text != checksummed:
            return None
        return checksummed, bytes.fromhex(hex_part)

    def address_owner(self, text: str) -> str | None:
        # Any 0x + 40 hex is an Ethereum address to people, a wrong checksum included.
        return self.label if HEX40.fullmatch(text) else None

    def is_unspendable(self, canonical: str, payload: bytes) -> bool:
        # The list is lower-case hex: compared after canonicalisation.
        return super().is_unspendable(canonical.lower(), payload)

    def payment_uri(self, pair: Pair, address: str, amount: str, base_units: int, memo: str) -> str:
        """EIP-681: `ethereum:ADDR@1?value=WEI` for ETH, `ethereum:TOKEN@1/transfer?address=ADDR&uint256=UNITS`
        for a token."""
        if pair.token_contract is None:
            return f"ethereum:{address}@{CHAIN_ID}?value={base_units}"
        query = urlencode({"address": address, "uint256": base_units})
        return f"ethereum:{pair.token_contract}@{CHAIN_ID}/transfer?{query}"

    def account_key_rule(self) -> AccountKeyRule:
        return AccountKeyRule(self.label, "BIP44", f"m/44'/{Slip44.ETHEREUM}'/0'", ("xpub",))

    def address_from_key(self, public_key: object) -> str:
        """The EIP-55 checksummed address."""
        return str(EthAddrEncoder.EncodeKey(public_key))


NETWORK = Ethereum(
    id="ethereum",
    label="Ethereum",
    pairs=(
        # asset, chain decimals, quote decimals[, token contract, token standard]
        PairSpec("ETH", chain_decimals=18, quote_decimals=8),
        PairSpec("USDT", 6, 6, "0xdAC17F958D2ee523a2206206994597C13D831ec7", "ERC-20"),
        PairSpec("USDC", 6, 6, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "ERC-20"),
    ),
    confirmations=64,
    watcher="gpurent.chains.ethereum.EthereumWatcher",
    demo_address=eip55_checksum("0x" + demo_digest("ethereum", 20).hex()),
    txid_format=EVM_TXID,
    low_addresses_reserved=True,
    unspendable=frozenset(
        {
            "0xdead000000000000000042069420694206942069",  # the "dEaD…2069" burn address
            "0x" + "e" * 40,  # 0xEeee…EEeE, the "native ether" placeholder of swap routers
            "0x" + "f" * 39 + "e",  # SYSTEM_ADDRESS, the caller of system contracts (EIP-4788)
            "0x" + "f" * 40,
            "0x000f3df6d732807ef1319fb7b8bb8522d0beac02",  # EIP-4788 beacon roots
            "0x0000f90827f1c53a10cb7a02335b175320002935",  # EIP-2935 block hashes
            "0x00000961ef480eb55e80d19ad83579a64c007002",  # EIP-7002 withdrawal requests
            "0x0000bbddc7ce488642fb579f8b00f3a590007251",  # EIP-7251 consolidation requests
        }
    ),
)
