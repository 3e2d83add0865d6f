"""The Solana watcher over JSON-RPC: SOL received by the shop's pool and shared addresses.

Solana keys cannot be derived from a public key (decision 0140), so SOL intents are paid to the address pool
(one address per intent) or to a shared address (one exact amount per intent), and those are what is watched.

Each scan:
1. reads the finalized slot (`getSlot` at `finalized`) and the tip (`getSlot` at `confirmed`);
2. lists each watched address's transactions, `getSignaturesForAddress` at `confirmed`, newest first, paging
   back (`before`) to the first one at or below the saved cursor (a finalized slot: everything at or below it
   was finalized, so already listed, when the previous scan read the address). Failed ones (`err`) are skipped;
3. reads each new transaction (`getTransaction`, `json` encoding, `maxSupportedTransactionVersion` 0): what a
   watched address received is its balance change in lamports, `postBalances[i] − preBalances[i]`, at its
   position `i` among the transaction's account keys (the message's, then the lookup tables' writable and
   readonly ones, as `meta.loadedAddresses` lists them); `i` is the transfer's index;
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

from typing import Any

from django.db.models import Q

from gpurent.payments.assets import pair_get, required_confirmations
from gpurent.payments.models import AddressMode, ChainObservation, ObservationState, ReceivingAddress

from .base import LeasedWatcher, ScanReport, cursor_get, cursor_save
from .observations import Transfer, transfer_forget, transfer_record
from .rpc import JsonRpcClient

__all__ = ["SolanaWatcher"]

NETWORK = "solana"
_PAGE = 1000  # getSignaturesForAddress's largest page
_STATUS_BATCH = 256  # getSignatureStatuses's largest request


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

    def _scan(self, report: ScanReport) -> None:
        required = required_confirmations(self.pair)
        finalized = int(self.client.call("getSlot", {"commitment": "finalized"}))
        tip = int(self.client.call("getSlot", {"commitment": "confirmed"}))
        cursor = cursor_get(NETWORK)
        floor = cursor.height if cursor.block_hash else max(0, finalized - 2 * required)
        report.height = tip
        watched = self.watched()
        statuses: dict[str, str | None] = {}
        for address in sorted(watched):
            statuses.update(self._signatures_since(address, floor))
        for signature, status in statuses.items():
            for transfer in self._transfers(signature, status, tip, required, watched):
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
        self, signature: str, status: str | None, tip: int, required: int, watched: set[str]
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
        return transfers

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
