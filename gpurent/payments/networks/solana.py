"""Solana: SOL, quoted to the lamport, and the SPL token USDC (Circle's mint, 6 decimals); 32 confirmations by
default (finalized: 31+ confirmed blocks on top).

Addresses are Base58 of exactly 32 bytes, kept as given; there is no checksum, so a refusal elsewhere asks
Solana last whose address it is. Payment URIs follow Solana Pay, the only scheme here with a memo; an SPL token
pair (a `PairSpec` with its mint as `token_contract`) is paid with the URI's `spl-token`. Solana has no
public derivation (SLIP-10 ed25519 is hardened-only: docs/decisions/0140): its addresses come from the pool. A
new SPL token is one more `PairSpec` below: the watcher reads every token pair of this network at each watched
address's associated token account (docs/decisions/0475).

Unspendable: the Solana runtime's reserved account keys (builtin programs and sysvars, as
`agave-reserved-account-keys` lists them), its incinerator, and the SPL programs and native mint; the system
program `11111111111111111111111111111111` is the all-zero key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

from .base import Network, PairSpec, TxidFormat, demo_digest
from .codecs import Decoded, b58decode, b58encode

if TYPE_CHECKING:
    from gpurent.payments.assets import Pair

__all__ = ["NETWORK"]

# A transaction is named by its first signature: 64 bytes in Base58, 64 to 88 characters (87 or 88 but for
# leading zero bytes).
_SIGNATURE = TxidFormat(
    re.compile(r"[1-9A-HJ-NP-Za-km-z]{64,88}", re.ASCII),
    "a Base58 transaction signature of 64 to 88 characters (no 0, O, I or l)",
    base58_bytes=64,
)


@dataclass(frozen=True)
class Solana(Network):
    def address_decode(self, text: str) -> Decoded | None:
        try:
            raw = b58decode(text)
        except ValueError:
            return None
        # Re-encoding catches a spelling with extra leading "1"s that decodes to the same 32 bytes.
        return (text, raw) if len(raw) == 32 and b58encode(raw) == text else None

    def payment_uri(self, pair: Pair, address: str, amount: str, base_units: int, memo: str) -> str:
        """Solana Pay: `solana:ADDR?amount=0.5` (whole coins, never exponent notation), then `spl-token=MINT` for
        an SPL token (without it a wallet would send SOL), then `memo=…` when given."""
        params = {"amount": amount}
        if pair.token_contract is not None:
            params["spl-token"] = pair.token_contract
        if memo:
            params["memo"] = memo
        return f"solana:{address}?{urlencode(params, quote_via=quote)}"


NETWORK = Solana(
    id="solana",
    label="Solana",
    pairs=(
        PairSpec("SOL", chain_decimals=9, quote_decimals=9),
        PairSpec("USDC", 6, 6, "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "SPL"),
    ),
    confirmations=32,
    watcher="gpurent.chains.solana.SolanaWatcher",
    demo_address=b58encode(demo_digest("solana", 32)),
    txid_format=_SIGNATURE,
    address_checksum=False,
    uri_memo=True,
    unspendable=frozenset(
        {
            "11111111111111111111111111111111",
            "1nc1nerator11111111111111111111111111111111",
            "AddressLookupTab1e1111111111111111111111111",
            "BPFLoader1111111111111111111111111111111111",
            "BPFLoader2111111111111111111111111111111111",
            "BPFLoaderUpgradeab1e11111111111111111111111",
            "ComputeBudget111111111111111111111111111111",
            "Config1111111111111111111111111111111111111",
            "Ed25519SigVerify111111111111111111111111111",
            "Feature111111111111111111111111111111111111",
            "KeccakSecp256k11111111111111111111111111111",
            "LoaderV411111111111111111111111111111111111",
            "NativeLoader1111111111111111111111111111111",
            "Secp256r1SigVerify1111111111111111111111111",
            "Stake11111111111111111111111111111111111111",
            "StakeConfig11111111111111111111111111111111",
            "Sysvar1111111111111111111111111111111111111",
            "Sysvar1nstructions1111111111111111111111111",
            "SysvarC1ock11111111111111111111111111111111",
            "SysvarEpochRewards1111111111111111111111111",
            "SysvarEpochSchedu1e111111111111111111111111",
            "SysvarFees111111111111111111111111111111111",
            "SysvarLastRestartS1ot1111111111111111111111",
            "SysvarRecentB1ockHashes11111111111111111111",
            "SysvarRent111111111111111111111111111111111",
            "SysvarRewards111111111111111111111111111111",
            "SysvarS1otHashes111111111111111111111111111",
            "SysvarS1otHistory11111111111111111111111111",
            "SysvarStakeHistory1111111111111111111111111",
            "Vote111111111111111111111111111111111111111",
            "ZkE1Gama1Proof11111111111111111111111111111",
            "ZkTokenProof1111111111111111111111111111111",
            # SPL: token programs, associated token accounts, memo, and the wrapped-SOL mint.
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
            "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
            "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
            "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
            "So11111111111111111111111111111111111111112",
        }
    ),
)
