"""A Tron chain in memory that answers the full node's HTTP API (`/wallet/getnowblock`, `/wallet/getblockbynum`,
`/wallet/gettransactioninfobyblocknum`) with the documented answers in `recorded/tron/`, filled in.

It keeps what the watcher relies on: block numbers and ids, a pool of pending transactions mined into the next
block, TRX `TransferContract`s, TRC-20 `transfer` calls whose execution info carries the `Transfer` log (or no
log and a REVERT when the call fails), and reorgs that replace the newest blocks.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from gpurent.chains.tron import TRANSFER_TOPIC, tron_hex

from .fakes import FakeHttpServer, documented

_SENDER = "41dd791d6b49e190062d650e6a23c575510d35f2f9"  # the owner_address of the documented examples


def _word(hex_value: str) -> str:
    return hex_value.rjust(64, "0")


class FakeTronNode:
    def __init__(self, first_block: int = 66_987_565) -> None:
        self.blocks: list[dict[str, Any]] = []
        self.pending: list[dict[str, Any]] = []
        self._fork = 0
        self._txids = itertools.count(1)
        self._first = first_block
        self.failing = ""  # when set, every request is answered {"Error": failing}, as java-tron reports errors
        self.mine(40)  # enough history below the tip for a first scan (2 × the depth)
        self.server = FakeHttpServer(self.handle)
        self.url = self.server.url

    # --- the chain ------------------------------------------------------------------------------------------

    @property
    def tip(self) -> int:
        return int(self.blocks[-1]["number"])

    def _txid(self) -> str:
        return hashlib.sha256(f"tx:{next(self._txids)}".encode()).hexdigest()

    def pay_trx(self, to: str, sun: int, *, success: bool = True) -> str:
        """Send `sun` to the `T…` address `to`; mined into the next block. Returns the txid."""
        txid = self._txid()
        self.pending.append({"kind": "trx", "txid": txid, "to": tron_hex(to), "amount": sun, "success": success})
        return txid

    def pay_token(self, contract: str, to: str, amount: int, *, success: bool = True) -> str:
        """Call `transfer(to, amount)` on the TRC-20 `contract` (`T…`); a failed call reverts, with no log."""
        txid = self._txid()
        self.pending.append(
            {
                "kind": "token",
                "txid": txid,
                "contract": tron_hex(contract),
                "to": tron_hex(to),
                "amount": amount,
                "success": success,
            }
        )
        return txid

    def mine(self, count: int = 1, *, empty: bool = False) -> list[int]:
        """Add `count` blocks; the first takes the pending transactions unless `empty`."""
        numbers = []
        for _ in range(count):
            number = self.tip + 1 if self.blocks else self._first
            digest = hashlib.sha256(f"{self._fork}:{number}".encode()).hexdigest()
            txs, self.pending = ([], self.pending) if empty else (self.pending, [])
            self.blocks.append({"number": number, "id": f"{number:016x}{digest[:48]}", "txs": txs})
            numbers.append(number)
        return numbers

    def reorg(self, depth: int, *, keep_transactions: bool = False) -> None:
        """The newest `depth` blocks leave the chain; their transactions go back to the pool, or are dropped."""
        removed, self.blocks = self.blocks[-depth:], self.blocks[:-depth]
        self._fork += 1
        if keep_transactions:
            self.pending = [tx for block in removed for tx in block["txs"]] + self.pending

    def _find(self, number: int) -> dict[str, Any] | None:
        index = number - self._first
        return self.blocks[index] if 0 <= index < len(self.blocks) else None

    # --- the HTTP API -----------------------------------------------------------------------------------------

    def handle(self, path: str, body: Any) -> Any:
        body = body if isinstance(body, dict) else {}
        if self.failing:
            return {"Error": self.failing}
        if path == "/wallet/getnowblock":
            return self._block(self.blocks[-1])
        block = self._find(int(body.get("num", 0)))
        if path == "/wallet/getblockbynum":
            return self._block(block) if block else {}
        if path == "/wallet/gettransactioninfobyblocknum":
            return [self._info(tx, block) for tx in block["txs"]] if block else {}
        return {"Error": f"class java.lang.IllegalArgumentException : no such endpoint {path}"}

    def _block(self, block: dict[str, Any]) -> dict[str, Any]:
        answer = documented("tron/getblockbynum.json")
        previous = self._find(block["number"] - 1)
        raw = answer["block_header"]["raw_data"]
        answer["blockID"] = block["id"]
        raw["number"] = block["number"]
        raw["parentHash"] = previous["id"] if previous else "00" * 32
        raw["timestamp"] = 1_777_445_121_000 + 3_000 * (block["number"] - self._first)
        if block["txs"]:
            answer["transactions"] = [self._transaction(tx) for tx in block["txs"]]
        else:
            del answer["transactions"]  # protobuf JSON leaves an empty repeated field out
        return answer

    def _transaction(self, tx: dict[str, Any]) -> dict[str, Any]:
        if tx["kind"] == "trx":
            answer = documented("tron/transaction_transfercontract.json")
            value = answer["raw_data"]["contract"][0]["parameter"]["value"]
            value.update(to_address=tx["to"], amount=tx["amount"])
        else:
            answer = documented("tron/transaction_triggersmartcontract.json")
            value = answer["raw_data"]["contract"][0]["parameter"]["value"]
            value["contract_address"] = tx["contract"]
            value["data"] = "a9059cbb" + _word(tx["to"][2:]) + _word(f"{tx['amount']:x}")
        answer["txID"] = tx["txid"]
        answer["ret"] = [{"contractRet": "SUCCESS" if tx["success"] else "REVERT"}]
        return answer

    def _info(self, tx: dict[str, Any], block: dict[str, Any]) -> dict[str, Any]:
        if tx["kind"] == "trx":
            answer = documented("tron/transactioninfo_transfercontract.json")
        else:
            answer = documented("tron/transactioninfo_triggersmartcontract.json")
            answer["contract_address"] = tx["contract"]
            if tx["success"]:
                answer["log"] = [
                    {
                        "address": tx["contract"][2:],
                        "topics": [TRANSFER_TOPIC, _word(_SENDER[2:]), _word(tx["to"][2:])],
                        "data": _word(f"{tx['amount']:x}"),
                    }
                ]
            else:
                del answer["log"]
                answer["receipt"]["result"] = "REVERT"
                answer["result"] = "FAILED"
        answer["id"] = tx["txid"]
        answer["blockNumber"] = block["number"]
        return answer

    def stop(self) -> None:
        self.server.stop()
