"""The Bitcoin Core family watcher (Bitcoin Core, Litecoin Core) over JSON-RPC, with a watch-only wallet.

Each scan:
1. notes the tip height, then imports into the node's wallet the derived addresses it does not watch yet
   (`importdescriptors` on a descriptor wallet, `importmulti` on a legacy one), rescanning from each
   address's creation time, so a payment made before the import is still found;
2. asks `listsinceblock(cursor, required, include_watchonly, include_removed)` for every wallet transaction
   in blocks after the saved cursor, and in the mempool, with its confirmations;
3. records each incoming output (`transfer_observe`): below the depth it is shown as "seen, N of M"; at the
   depth it is credited through the payment service, once; outputs in `removed` (their block left the chain)
   are marked dropped;
4. marks dropped what is no longer on the chain (decision 0379): a listed output at 0 confirmations that is
   not in the node's mempool (`getmempoolentry`: replaced by a fee bump or a conflicting transaction, or
   evicted), and an output still shown as seen that the listing left out because the wallet holds its
   transaction conflicted (`gettransaction` answers negative confirmations: a conflicting transaction, a
   double spend or a replacement, is in a block; `listsinceblock` never lists such a receive) or no longer
   knows it;
5. saves the cursor: the node's `lastblock` (the block `required - 1` below the tip, so transactions not yet
   at depth are listed again next time), but never past the tip noted in 1: an address imported next scan
   may have been paid in any block after that tip.

Reorgs: the node follows the best chain; `listsinceblock` from a cursor that left the chain lists from the fork
point, and a transaction that left the chain is back in the mempool (0 confirmations) or gone (dropped, as
in 4; seen again if it is mined later). Nothing is credited below the depth, and the payment row is unique per
(network, txid, vout), so a transaction seen again is never credited twice. A reorg deeper than the depth is
outside what confirmations protect against.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import Decimal

from django.db.models import F
from django.utils import timezone

from gpurent.payments.assets import pair_get, required_confirmations
from gpurent.payments.models import ChainObservation, DerivedAddress, ObservationState
from gpurent.payments.networks import all_networks

from .base import LeasedWatcher, ScanReport, cursor_get, cursor_save
from .observations import Transfer, transfer_forget, transfer_record
from .rpc import JsonRpcClient, RpcError

__all__ = ["BitcoinFamilyWatcher"]

_WATCHER = f"{__name__}.BitcoinFamilyWatcher"  # what a network module names to be read by this watcher
_IMPORT_BATCH = 500
# RPC_INVALID_ADDRESS_OR_KEY: "Transaction not in mempool", "Invalid or non-wallet transaction id".
_NOT_FOUND = -5


class BitcoinFamilyWatcher(LeasedWatcher):
    def __init__(self, network: str, client: JsonRpcClient) -> None:
        found = next((n for n in all_networks() if n.id == network and n.watcher == _WATCHER), None)
        if found is None:
            raise ValueError(f"{network} is not a Bitcoin Core family network")
        self.network = network
        # Its one pair, the native coin (BTC, LTC).
        self.pair = pair_get(found.pairs[0].asset, network)
        self.client = client

    @classmethod
    def from_url(cls, network: str, url: str) -> BitcoinFamilyWatcher:
        return cls(network, JsonRpcClient(url))

    def _scan(self, report: ScanReport) -> None:
        required = required_confirmations(self.pair)
        tip = int(self.client.call("getblockcount"))
        report.imported = self.import_new_addresses()
        cursor = cursor_get(self.network)
        listing = self.client.call("listsinceblock", cursor.block_hash, required, True, True)
        listed: set[tuple[str, int]] = set()
        for entry in listing.get("transactions", []):
            if entry.get("category") != "receive":
                continue
            transfer = self._on_chain(self._transfer(entry))
            listed.add((transfer.txid, transfer.index))
            transfer_record(transfer, required=required, report=report)
        for entry in listing.get("removed", []):
            if entry.get("category") == "receive":
                transfer_forget(network=self.network, txid=entry["txid"], index=int(entry["vout"]))
        self._forget_conflicted(listed)
        last = self.client.call("getblockheader", listing["lastblock"])
        height = min(int(last["height"]), tip)
        block_hash = listing["lastblock"] if height == int(last["height"]) else self.client.call("getblockhash", height)
        report.blocks = max(height - cursor.height, 0) if cursor.block_hash else height
        cursor_save(self.network, height=height, block_hash=block_hash)
        report.height = tip

    def _transfer(self, entry: dict[str, object]) -> Transfer:
        amount = entry["amount"]
        if not isinstance(amount, Decimal):
            raise TypeError("amounts are parsed as Decimal, never float")
        block_height = entry.get("blockheight")
        return Transfer(
            network=self.network,
            asset=self.pair.asset,
            txid=str(entry["txid"]),
            index=int(str(entry["vout"])),
            address=str(entry["address"]),
            amount_chain=int(amount.scaleb(self.pair.chain_decimals)),
            block_hash=str(entry.get("blockhash") or ""),
            block_height=int(str(block_height)) if block_height is not None else None,
            confirmations=int(str(entry.get("confirmations", 0))),
        )

    def _on_chain(self, transfer: Transfer) -> Transfer:
        """`transfer`, or, when it is in no block and no longer in the node's mempool either (replaced by a
        fee bump or a conflicting transaction, or evicted), the same with confirmations -1: recorded as dropped."""
        if transfer.confirmations != 0:
            return transfer
        try:
            self.client.call("getmempoolentry", transfer.txid)
        except RpcError as error:
            if error.code != _NOT_FOUND:
                raise
            return dataclasses.replace(transfer, confirmations=-1)
        return transfer

    def _forget_conflicted(self, listed: set[tuple[str, int]]) -> None:
        """Mark dropped every transfer shown as seen below its depth that `listsinceblock` left out because
        the wallet holds it conflicted (a conflicting transaction is in a block: a double spend, or a mined
        replacement; `gettransaction` answers negative confirmations) or no longer knows it."""
        unlisted = [
            (txid, index)
            for txid, index in ChainObservation.objects.filter(
                network=self.network, state=ObservationState.SEEN, confirmations__lt=F("required_confirmations")
            ).values_list("txid", "output_index")
            if (txid, index) not in listed
        ]
        gone: dict[str, bool] = {}
        for txid, index in unlisted:
            if txid not in gone:
                try:
                    gone[txid] = int(self.client.call("gettransaction", txid, True)["confirmations"]) < 0
                except RpcError as error:
                    if error.code != _NOT_FOUND:
                        raise
                    gone[txid] = True
            if gone[txid]:
                transfer_forget(network=self.network, txid=txid, index=index)

    def import_new_addresses(self) -> int:
        """Make the node's wallet watch every derived address it does not watch yet; how many were added."""
        pending = list(DerivedAddress.objects.filter(network=self.network, imported_at__isnull=True).order_by("id"))
        descriptors = bool(self.client.call("getwalletinfo").get("descriptors"))
        for start in range(0, len(pending), _IMPORT_BATCH):
            batch = pending[start : start + _IMPORT_BATCH]
            self._import(batch, descriptors=descriptors)
            DerivedAddress.objects.filter(pk__in=[row.pk for row in batch]).update(imported_at=timezone.now())
        return len(pending)

    def _import(self, rows: Iterable[DerivedAddress], *, descriptors: bool) -> None:
        if descriptors:
            requests = []
            for row in rows:
                info = self.client.call("getdescriptorinfo", f"addr({row.address})")
                requests.append(
                    {"desc": info["descriptor"], "timestamp": int(row.created_at.timestamp()), "label": "gpurent"}
                )
            results = self.client.call("importdescriptors", requests)
        else:
            requests = [
                {
                    "scriptPubKey": {"address": row.address},
                    "timestamp": int(row.created_at.timestamp()),
                    "watchonly": True,
                    "label": "gpurent",
                }
                for row in rows
            ]
            results = self.client.call("importmulti", requests, {"rescan": True})
        failed = [result for result in results if not result.get("success")]
        if failed:
            raise RuntimeError(f"{self.network} node refused to watch {len(failed)} addresses: {failed[0]}")
