"""The Ethereum watcher over JSON-RPC: native ETH transfers and ERC-20 `Transfer` logs of USDT and USDC.

Each scan reads blocks `cursor + 1 … tip`:
- native ETH: every transaction of each block (`eth_getBlockByNumber(n, true)`) whose `to` is a watched
  address, with a value, and whose receipt says it succeeded (a reverted call moves no ether);
- tokens: `eth_getLogs` of the token contracts (`CHAIN_TOKEN_CONTRACTS`, default the pairs' mainnet contracts)
  with the `Transfer(address,address,uint256)` topic, kept when the recipient is watched.

A transfer's index is 0 for the transaction's own value and `logIndex + 1` for a token log, so both are unique
per (network, txid, index). Confirmations are `tip − block + 1`; at the depth the transfer is credited through
the payment service, once. The cursor is saved at the last block that has the depth (`tip − required + 1`), so
every block not yet final is read again on the next scan, by number: if a block was replaced (reorg), the
transfer is found in its new block (new hash) or not at all, and a transfer below depth that is no longer
found is marked dropped. A saved cursor whose block hash is no longer on the chain (a reorg deeper than the
depth) rewinds the scan by the depth and is reported.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from gpurent.payments.assets import PAIRS, pair_get, required_confirmations
from gpurent.payments.models import DerivedAddress

from .base import LeasedWatcher, ScanReport, cursor_save, rescan_start
from .observations import Transfer, transfers_record_since
from .rpc import JsonRpcClient

__all__ = ["TRANSFER_TOPIC", "EthereumWatcher"]

# keccak256("Transfer(address,address,uint256)")
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
NETWORK = "ethereum"


def _int(value: Any) -> int:
    return int(str(value), 16)


class EthereumWatcher(LeasedWatcher):
    network = NETWORK

    def __init__(self, client: JsonRpcClient) -> None:
        self.client = client
        self.pair = pair_get("ETH", NETWORK)

    def token_contracts(self) -> dict[str, str]:
        """Lower-case contract address → asset symbol, for the ERC-20 pairs."""
        configured: dict[str, str] = getattr(settings, "CHAIN_TOKEN_CONTRACTS", {})
        return {
            configured.get(pair.key, pair.token_contract).lower(): pair.asset
            for pair in PAIRS
            if pair.network == NETWORK and pair.token_contract
        }

    def _scan(self, report: ScanReport) -> None:
        required = required_confirmations(self.pair)
        tip = _int(self.client.call("eth_blockNumber"))
        start = rescan_start(NETWORK, tip=tip, required=required, block_id_at=self._block_hash, report=report)
        report.height = tip
        if start > tip:
            return
        watched = {row.address.lower(): row.address for row in DerivedAddress.objects.filter(network=NETWORK)}
        transfers = [*self._native(start, tip, watched), *self._tokens(start, tip, watched)]
        transfers_record_since(NETWORK, transfers, height=start, required=required, report=report)
        final = tip - required + 1
        report.blocks = tip - start + 1
        if final >= start - 1 and final >= 0:
            block = self.client.call("eth_getBlockByNumber", hex(final), False)
            cursor_save(NETWORK, height=final, block_hash=block["hash"])

    def _block_hash(self, number: int) -> str | None:
        block = self.client.call("eth_getBlockByNumber", hex(number), False)
        return None if block is None else str(block["hash"])

    def _native(self, start: int, tip: int, watched: dict[str, str]) -> list[Transfer]:
        transfers = []
        for number in range(start, tip + 1):
            block = self.client.call("eth_getBlockByNumber", hex(number), True)
            for tx in block["transactions"]:
                to = (tx.get("to") or "").lower()
                value = _int(tx["value"])
                if to not in watched or value <= 0:
                    continue
                receipt = self.client.call("eth_getTransactionReceipt", tx["hash"])
                if receipt is None or _int(receipt.get("status", "0x0")) != 1:
                    continue
                transfers.append(
                    Transfer(NETWORK, "ETH", tx["hash"], 0, watched[to], value, block["hash"], number, tip - number + 1)
                )
        return transfers

    def _tokens(self, start: int, tip: int, watched: dict[str, str]) -> list[Transfer]:
        contracts = self.token_contracts()
        logs = self.client.call(
            "eth_getLogs",
            {"fromBlock": hex(start), "toBlock": hex(tip), "address": list(contracts), "topics": [TRANSFER_TOPIC]},
        )
        transfers = []
        for log in logs:
            topics = log.get("topics", [])
            if log.get("removed") or len(topics) != 3:
                continue
            recipient = "0x" + topics[2][-40:].lower()
            if recipient not in watched:
                continue
            number = _int(log["blockNumber"])
            transfers.append(
                Transfer(
                    NETWORK,
                    contracts[log["address"].lower()],
                    log["transactionHash"],
                    _int(log["logIndex"]) + 1,
                    watched[recipient],
                    _int(log["data"]),
                    log["blockHash"],
                    number,
                    tip - number + 1,
                )
            )
        return transfers
