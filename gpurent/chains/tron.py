"""The Tron watcher over the full node's HTTP API (java-tron `/wallet/...`, also served by TronGrid): TRX
transfers (`TransferContract`) and TRC-20 USDT `Transfer` events.

Why blocks and not TronGrid's per-account lists (`/v1/accounts/{address}/transactions[/trc20]`): those are a
TronGrid index, not part of the node, cost one request per watched address per scan, and say nothing about
the block a listed transaction is in now, so a block replaced before solidification cannot be noticed. Reading
blocks by number works on any full node, costs the same for 10 or 10 000 addresses, and gives the block id
(`blockID`) that reorg handling compares, exactly as the Ethereum watcher does (docs/decisions/0143).

Each scan reads blocks `cursor + 1 … tip` (`/wallet/getnowblock`, `/wallet/getblockbynum`):
- TRX: every `TransferContract` whose `to_address` is watched and whose `ret[0].contractRet` is `SUCCESS`;
  amounts are in sun (10⁻⁶ TRX);
- tokens: for a block holding any `TriggerSmartContract` (a token can also move inside another contract's
  call), `/wallet/gettransactioninfobyblocknum` gives each transaction's execution result and event logs; a
  log of a configured token contract (`CHAIN_TOKEN_CONTRACTS["USDT/tron"]`, default the pair's mainnet
  contract) with the ERC-20 `Transfer` topic to a watched address counts, when `receipt.result` is `SUCCESS`.

Addresses in these answers (`visible` left false) are hex: 21 bytes with the 0x41 prefix in transactions, 20
bytes without it in logs. The index is 0 for a transaction's TRX and `log position + 1` for a token log.
Confirmations are `tip − block + 1`, against `PAYMENTS_CONFIRMATIONS["tron"]` (default 19: a block is
solidified once 2/3 of the 27 super representatives built on it). The cursor is the last block at depth; the
blocks above it are read again every scan, so a transfer whose block was replaced is found in its new block or
marked dropped, and a saved block whose id changed (a reorg deeper than the depth) rewinds the scan.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings

from gpurent.payments.assets import PAIRS, pair_get, required_confirmations
from gpurent.payments.models import DerivedAddress, ReceivingAddress
from gpurent.payments.networks.codecs import b58check_decode

from .base import LeasedWatcher, ScanReport, cursor_save, rescan_start
from .observations import Transfer, transfers_record_since
from .rpc import HttpApiClient, RpcError

__all__ = ["TRANSFER_TOPIC", "TronWatcher", "tron_hex"]

# keccak256("Transfer(address,address,uint256)"), without 0x as Tron prints topics.
TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
NETWORK = "tron"


def tron_hex(address: str) -> str:
    """A `T…` Base58Check address as the node prints it when `visible` is false: "41" + 20 bytes, lower hex."""
    return b58check_decode(address).hex()


def _number(block: dict[str, Any]) -> int:
    try:
        return int(block["block_header"]["raw_data"]["number"])
    except (KeyError, TypeError, ValueError):
        raise RpcError("the Tron node answered a block without a number") from None


class TronWatcher(LeasedWatcher):
    network = NETWORK

    def __init__(self, client: HttpApiClient) -> None:
        self.client = client
        self.pair = pair_get("TRX", NETWORK)

    @classmethod
    def from_url(cls, network: str, url: str) -> TronWatcher:
        """TronGrid's HTTP API, with CHAIN_WATCH_TRON_API_KEY as its TRON-PRO-API-KEY header where set."""
        key = getattr(settings, "CHAIN_WATCH_TRON_API_KEY", "")
        return cls(HttpApiClient(url, headers={"TRON-PRO-API-KEY": key} if key else None))

    def token_contracts(self) -> dict[str, str]:
        """Token contract as it appears in a log (20 bytes, lower hex, no 41 prefix) → asset symbol."""
        configured: dict[str, str] = getattr(settings, "CHAIN_TOKEN_CONTRACTS", {})
        return {
            tron_hex(configured.get(pair.key, pair.token_contract))[2:]: pair.asset
            for pair in PAIRS
            if pair.network == NETWORK and pair.token_contract
        }

    @staticmethod
    def watched() -> dict[str, str]:
        """Every shop address on Tron (derived, pool and shared), hex "41…" → its `T…` spelling."""
        addresses = {*DerivedAddress.objects.filter(network=NETWORK).values_list("address", flat=True)}
        addresses |= {*ReceivingAddress.objects.filter(network=NETWORK).values_list("address", flat=True)}
        return {tron_hex(address): address for address in addresses}

    def _block(self, number: int) -> dict[str, Any]:
        block = self.client.post("/wallet/getblockbynum", {"num": number})
        if not isinstance(block, dict) or "blockID" not in block:
            raise RpcError(f"the Tron node has no block {number}")
        return block

    def _block_id(self, number: int) -> str | None:
        block = self.client.post("/wallet/getblockbynum", {"num": number})
        return str(block.get("blockID")) if isinstance(block, dict) and block.get("blockID") else None

    def _scan(self, report: ScanReport) -> None:
        required = required_confirmations(self.pair)
        tip = _number(self.client.post("/wallet/getnowblock"))
        start = rescan_start(NETWORK, tip=tip, required=required, block_id_at=self._block_id, report=report)
        report.height = tip
        if start > tip:
            return
        watched = self.watched()
        contracts = self.token_contracts()
        final = tip - required + 1
        block_ids: dict[int, str] = {}

        def transfers() -> Iterator[Transfer]:
            # Block by block, each recorded before the next is read.
            for number in range(start, tip + 1):
                block = self._block(number)
                block_ids[number] = block["blockID"]
                yield from self._transfers(block, number, tip, watched, contracts)

        transfers_record_since(NETWORK, transfers(), height=start, required=required, report=report)
        report.blocks = tip - start + 1
        if final >= start - 1 and final >= 0:
            cursor_save(NETWORK, height=final, block_hash=block_ids.get(final) or self._block(final)["blockID"])

    def _transfers(
        self, block: dict[str, Any], number: int, tip: int, watched: dict[str, str], contracts: dict[str, str]
    ) -> list[Transfer]:
        block_id = str(block["blockID"])
        confirmations = tip - number + 1
        transfers = []
        calls_contracts = False
        for tx in block.get("transactions", []):
            contract = (tx.get("raw_data", {}).get("contract") or [{}])[0]
            result = (tx.get("ret") or [{}])[0].get("contractRet")
            if contract.get("type") == "TriggerSmartContract":
                calls_contracts = True
            if contract.get("type") != "TransferContract" or result != "SUCCESS":
                continue
            value = contract.get("parameter", {}).get("value", {})
            to = str(value.get("to_address", "")).lower()
            amount = int(value.get("amount", 0))
            if to in watched and amount > 0:
                transfers.append(
                    Transfer(NETWORK, "TRX", str(tx["txID"]), 0, watched[to], amount, block_id, number, confirmations)
                )
        if calls_contracts and contracts:
            transfers += self._token_transfers(number, block_id, confirmations, watched, contracts)
        return transfers

    def _token_transfers(
        self, number: int, block_id: str, confirmations: int, watched: dict[str, str], contracts: dict[str, str]
    ) -> list[Transfer]:
        infos = self.client.post("/wallet/gettransactioninfobyblocknum", {"num": number})
        transfers = []
        for info in infos if isinstance(infos, list) else []:
            # A failed or reverted call moves no token (the docs: read logs only of successful transactions).
            if info.get("result") == "FAILED" or info.get("receipt", {}).get("result") != "SUCCESS":
                continue
            for position, log in enumerate(info.get("log", [])):
                topics = [str(topic).lower() for topic in log.get("topics", [])]
                contract = str(log.get("address", "")).lower()
                if contract not in contracts or len(topics) != 3 or topics[0] != TRANSFER_TOPIC:
                    continue
                recipient = "41" + topics[2][-40:]
                data = str(log.get("data", ""))
                if recipient not in watched or not data:
                    continue
                transfers.append(
                    Transfer(
                        NETWORK,
                        contracts[contract],
                        str(info["id"]),
                        position + 1,
                        watched[recipient],
                        int(data[:64], 16),
                        block_id,
                        number,
                        confirmations,
                    )
                )
        return transfers
