"""The Solana watcher over JSON-RPC: SOL and SPL tokens received by the shop's pool and shared addresses.

Solana keys cannot be derived from a public key (decision 0140), so Solana intents are paid to the address pool
(one address per intent) or to a shared address (one exact amount per intent), and those are what is watched.

**Tokens** (every pair on Solana with a token contract, its mint; `CHAIN_TOKEN_CONTRACTS["USDC/solana"]`
overrides the mainnet mint, as on Ethereum and Tron). A token payment is credited to the owner's *associated
token account* (ATA), the program-derived address of (owner, SPL Token program, mint) under the Associated
Token Account program (`associated_token_address`), and the owner usually takes no part in the transaction. So
the watcher also lists the ATA of every watched address for every mint, and reads what it received from the
transaction's `meta.preTokenBalances`/`postTokenBalances`: the entry at the ATA's account index, of that mint
(and that owner, where the node says), `post − pre` in the token's base units (a missing `pre` entry is an
account created by the transaction: 0). It is recorded on the owner's address with the ATA's index.

Each scan:
1. reads the finalized slot (`getSlot` at `finalized`) and the tip (`getSlot` at `confirmed`);
2. lists the transactions of each watched address and of each of its token accounts
   (`getSignaturesForAddress` at `confirmed`), newest first, paging back (`before`) to the first one at or
   below the saved cursor (a finalized slot: everything at or below it was finalized, so already listed, when
   the previous scan read the address). Failed ones (`err`) are skipped;
3. reads each new transaction (`getTransaction`, `json` encoding, `maxSupportedTransactionVersion` 0): what a
   watched address received is its balance change in lamports, `postBalances[i] − preBalances[i]`, at its
   position `i` among the transaction's account keys (the message's, then the lookup tables' writable and
   readonly ones, as `meta.loadedAddresses` lists them); `i` is the transfer's index; what its token accounts
   received is read as above;
4. re-reads every transfer seen before and not yet credited (`getSignatureStatuses`, searching the history):
   one the node no longer knows left the chain (its fork was abandoned) and is marked dropped; the others get
   their new slot and confirmations;
5. saves the finalized slot of step 1 as the cursor.

**Confirmations.** Solana's finality is a commitment level, not a count of blocks on top. A transfer is
`tip − slot + 1` slots deep, but only a `finalized` transaction may reach the network's depth
(`PAYMENTS_CONFIRMATIONS["solana"]`, default 32, the lockout after which a block is rooted): a `confirmed` one
is shown as at most depth − 1 ("Seen on chain, N of 32"), a `processed` one as 0. So a payment is credited
when it is finalized *and* at the depth, and a transaction whose fork is abandoned is never credited.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bip_utils import Ed25519PublicKey
from django.conf import settings
from django.db.models import Q

from gpurent.payments.assets import PAIRS, pair_get, required_confirmations
from gpurent.payments.models import AddressMode, ChainObservation, ObservationState, ReceivingAddress
from gpurent.payments.networks.codecs import b58decode, b58encode

from .base import LeasedWatcher, ScanReport, cursor_get, cursor_save
from .observations import Transfer, transfer_forget, transfer_record
from .rpc import JsonRpcClient

__all__ = ["ASSOCIATED_TOKEN_PROGRAM", "TOKEN_PROGRAM", "SolanaWatcher", "associated_token_address"]

NETWORK = "solana"
_PAGE = 1000  # getSignaturesForAddress's largest page
_STATUS_BATCH = 256  # getSignatureStatuses's largest request
# The SPL Token program (USDC's; a Token-2022 mint's accounts would be derived with that program instead) and
# the Associated Token Account program: public program ids, not secrets.
TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"  # noqa: S105 (a public program id)
ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"  # noqa: S105 (a public program id)
_PDA_MARKER = b"ProgramDerivedAddress"


def _program_address(seeds: tuple[bytes, ...], program: str) -> str:
    """Solana's `find_program_address`: sha256(seeds ‖ bump ‖ program id ‖ "ProgramDerivedAddress") for bump
    255, 254, …, the first that is *not* a point of the ed25519 curve (no private key can sign for it).

    On the curve means "decompresses to a point", as Solana's runtime checks it (curve25519-dalek): bip-utils'
    `Ed25519PublicKey.IsValidBytes` checks exactly that. libsodium's `crypto_core_ed25519_is_valid_point`
    (PyNaCl) would not do: it also refuses points outside the prime-order subgroup, and so stops at a bump
    Solana skips (decision 0475).
    """
    program_id = b58decode(program)
    for bump in range(255, -1, -1):
        digest = hashlib.sha256(b"".join(seeds) + bytes([bump]) + program_id + _PDA_MARKER).digest()
        if not Ed25519PublicKey.IsValidBytes(digest):
            return b58encode(digest)
    raise ValueError("no bump gives an address off the curve")  # about 2^-256: never met in practice


@lru_cache(maxsize=4096)
def associated_token_address(owner: str, mint: str) -> str:
    """The associated token account of `owner` for `mint` (both Base58): where wallets send that token to
    `owner`."""
    return _program_address((b58decode(owner), b58decode(TOKEN_PROGRAM), b58decode(mint)), ASSOCIATED_TOKEN_PROGRAM)


@dataclass(frozen=True, slots=True)
class TokenAccount:
    """A watched address's associated token account for one token pair."""

    owner: str
    mint: str
    asset: str


class SolanaWatcher(LeasedWatcher):
    network = NETWORK

    def __init__(self, client: JsonRpcClient) -> None:
        self.client = client
        self.pair = pair_get("SOL", NETWORK)

    @staticmethod
    def watched() -> set[str]:
        """Shared addresses, and pool addresses once given to an intent (a free one is nobody's yet)."""
        return set(
            ReceivingAddress.objects.filter(network=NETWORK)
            .filter(Q(mode=AddressMode.SHARED) | Q(allocated_at__isnull=False))
            .values_list("address", flat=True)
        )

    @staticmethod
    def token_mints() -> dict[str, str]:
        """Mint → asset symbol of every token pair on Solana (`CHAIN_TOKEN_CONTRACTS[pair key]` if set, else
        the pair's mainnet mint)."""
        configured: dict[str, str] = getattr(settings, "CHAIN_TOKEN_CONTRACTS", {})
        return {
            configured.get(pair.key, pair.token_contract): pair.asset
            for pair in PAIRS
            if pair.network == NETWORK and pair.token_contract
        }

    def token_accounts(self, owners: set[str]) -> dict[str, TokenAccount]:
        """ATA → (owner, mint, asset) for every watched owner and every token mint."""
        return {
            associated_token_address(owner, mint): TokenAccount(owner, mint, asset)
            for mint, asset in self.token_mints().items()
            for owner in owners
        }

    def _scan(self, report: ScanReport) -> None:
        required = required_confirmations(self.pair)
        finalized = int(self.client.call("getSlot", {"commitment": "finalized"}))
        tip = int(self.client.call("getSlot", {"commitment": "confirmed"}))
        cursor = cursor_get(NETWORK)
        floor = cursor.height if cursor.block_hash else max(0, finalized - 2 * required)
        report.height = tip
        watched = self.watched()
        tokens = self.token_accounts(watched)
        statuses: dict[str, str | None] = {}
        for address in sorted(watched | tokens.keys()):
            statuses.update(self._signatures_since(address, floor))
        for signature, status in statuses.items():
            for transfer in self._transfers(signature, status, tip, required, watched, tokens):
                transfer_record(transfer, required=required, report=report)
        self._recheck(exclude=set(statuses), tip=tip, required=required, report=report)
        report.blocks = max(tip - floor, 0)
        cursor_save(NETWORK, height=finalized, block_hash=f"finalized:{finalized}")

    def _signatures_since(self, address: str, floor: int) -> dict[str, str | None]:
        """Successful transactions of `address` in slots above `floor`: signature → confirmation status."""
        found: dict[str, str | None] = {}
        before: str | None = None
        while True:
            options: dict[str, Any] = {"commitment": "confirmed", "limit": _PAGE}
            if before:
                options["before"] = before
            page = self.client.call("getSignaturesForAddress", address, options) or []
            for entry in page:
                if int(entry["slot"]) <= floor:
                    return found
                if entry.get("err") is None:
                    found[str(entry["signature"])] = entry.get("confirmationStatus")
            if len(page) < _PAGE:
                return found
            before = str(page[-1]["signature"])

    @staticmethod
    def _confirmations(slot: int, status: str | None, tip: int, required: int) -> int:
        depth = max(tip - slot + 1, 1)
        if status == "finalized":
            return depth
        return min(depth, required - 1) if status == "confirmed" else 0

    def _transfers(
        self,
        signature: str,
        status: str | None,
        tip: int,
        required: int,
        watched: set[str],
        tokens: dict[str, TokenAccount],
    ) -> list[Transfer]:
        tx = self.client.call(
            "getTransaction",
            signature,
            {"encoding": "json", "commitment": "confirmed", "maxSupportedTransactionVersion": 0},
        )
        meta = (tx or {}).get("meta") or {}
        if not tx or meta.get("err") is not None:
            return []
        loaded = meta.get("loadedAddresses") or {}
        keys = [*tx["transaction"]["message"]["accountKeys"], *loaded.get("writable", []), *loaded.get("readonly", [])]
        slot = int(tx["slot"])
        confirmations = self._confirmations(slot, status, tip, required)
        transfers = []
        for index, key in enumerate(keys):
            if key not in watched:
                continue
            received = int(meta["postBalances"][index]) - int(meta["preBalances"][index])
            if received > 0:  # a shop address paying a fee (a sweep) received nothing
                transfers.append(Transfer(NETWORK, "SOL", signature, index, key, received, "", slot, confirmations))
        for index, account, received in self._token_received(meta, keys, tokens):
            transfers.append(
                Transfer(NETWORK, account.asset, signature, index, account.owner, received, "", slot, confirmations)
            )
        return transfers

    @staticmethod
    def _token_received(
        meta: dict[str, Any], keys: list[str], tokens: dict[str, TokenAccount]
    ) -> list[tuple[int, TokenAccount, int]]:
        """(account index, watched token account, base units received) for each watched ATA the transaction
        credited. A balance of another mint at that index, or of another owner, is not ours."""

        def amounts(entries: list[dict[str, Any]] | None) -> dict[tuple[int, str], int]:
            return {
                (int(entry["accountIndex"]), str(entry["mint"])): int(entry["uiTokenAmount"]["amount"])
                for entry in entries or []
            }

        pre = amounts(meta.get("preTokenBalances"))
        received = []
        for entry in meta.get("postTokenBalances") or []:
            index, mint = int(entry["accountIndex"]), str(entry["mint"])
            account = tokens.get(keys[index]) if index < len(keys) else None
            if account is None or mint != account.mint or entry.get("owner", account.owner) != account.owner:
                continue
            amount = int(entry["uiTokenAmount"]["amount"]) - pre.get((index, mint), 0)
            if amount > 0:
                received.append((index, account, amount))
        return received

    def _recheck(self, *, exclude: set[str], tip: int, required: int, report: ScanReport) -> None:
        pending = [
            row
            for row in ChainObservation.objects.filter(network=NETWORK)
            .exclude(state=ObservationState.CREDITED)
            .order_by("id")
            if row.txid not in exclude
        ]
        for start in range(0, len(pending), _STATUS_BATCH):
            batch = pending[start : start + _STATUS_BATCH]
            answer = self.client.call(
                "getSignatureStatuses", [row.txid for row in batch], {"searchTransactionHistory": True}
            )
            for row, status in zip(batch, answer["value"], strict=True):
                if status is None or status.get("err") is not None:
                    transfer_forget(network=NETWORK, txid=row.txid, index=row.output_index)
                    continue
                slot = int(status["slot"])
                depth = self._confirmations(slot, status.get("confirmationStatus"), tip, required)
                amount = int(row.amount_chain)
                transfer = Transfer(
                    NETWORK, row.asset, row.txid, row.output_index, row.address, amount, "", slot, depth
                )
                transfer_record(transfer, required=required, report=report)
