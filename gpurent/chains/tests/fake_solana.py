"""A Solana cluster in memory that answers JSON-RPC (`getSlot`, `getSignaturesForAddress`, `getTransaction`,
`getSignatureStatuses`) with the documented answers in `recorded/solana/`, filled in.

Slots advance one per transfer (or by `advance`); the finalized slot trails the confirmed tip by
`finality_lag` slots. A transfer is a System Program transfer from one payer; `drop` removes a transaction
that is not finalized yet, as when the fork it landed on is abandoned.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from gpurent.payments.addresses import b58encode

from .fakes import FakeHttpServer, documented

_FEE = 5000


def solana_address(seed: str) -> str:
    """A well-formed Solana address (Base58 of 32 bytes) made from `seed`."""
    return b58encode(hashlib.sha256(seed.encode()).digest())


class FakeSolanaNode:
    def __init__(self, *, finality_lag: int = 2) -> None:
        self.slot = 300_000_000
        self.finality_lag = finality_lag
        self.payer = solana_address("payer")
        self.balances: dict[str, int] = {self.payer: 10**15}
        self.txs: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self.server = FakeHttpServer(self.handle)
        self.url = self.server.url

    @property
    def finalized(self) -> int:
        return self.slot - self.finality_lag

    def pay(self, to: str, lamports: int, *, fails: bool = False) -> str:
        """Transfer `lamports` from the payer to `to` in the next slot; returns the signature."""
        self.slot += 1
        signature = b58encode(hashlib.sha512(f"sig:{next(self._ids)}".encode()).digest())
        before = (self.balances[self.payer], self.balances.get(to, 0))
        moved = 0 if fails else lamports
        self.balances[self.payer] -= moved + _FEE
        self.balances[to] = before[1] + moved
        self.txs[signature] = {
            "slot": self.slot,
            "to": to,
            "pre": [before[0], before[1], 1],
            "post": [self.balances[self.payer], self.balances[to], 1],
            "fails": fails,
        }
        return signature

    def advance(self, slots: int) -> None:
        self.slot += slots

    def drop(self, signature: str) -> None:
        tx = self.txs.pop(signature)
        assert tx["slot"] > self.finalized, "a finalized transaction never leaves the chain"
        self.balances[tx["to"]] -= tx["post"][1] - tx["pre"][1]
        self.balances[self.payer] += tx["pre"][0] - tx["post"][0]

    def _status(self, tx: dict[str, Any]) -> str:
        return "finalized" if tx["slot"] <= self.finalized else "confirmed"

    @staticmethod
    def _error(tx: dict[str, Any]) -> dict[str, Any] | None:
        return {"InstructionError": [0, {"Custom": 1}]} if tx["fails"] else None

    # --- JSON-RPC ---------------------------------------------------------------------------------------------

    def handle(self, path: str, body: Any) -> Any:
        method, params = body["method"], body.get("params", [])
        result = getattr(self, f"_{method}")(*params)
        return {"jsonrpc": "2.0", "result": result, "id": body["id"]}

    def _getSlot(self, config: dict[str, Any] | None = None) -> int:
        answer = documented("solana/getSlot.json")
        answer["result"] = self.finalized if (config or {}).get("commitment") == "finalized" else self.slot
        return int(answer["result"])

    def _getSignaturesForAddress(self, address: str, config: dict[str, Any] | None = None) -> list[Any]:
        config = config or {}
        newest_first = [sig for sig, tx in reversed(self.txs.items()) if address in (tx["to"], self.payer)]
        if config.get("before"):
            newest_first = newest_first[newest_first.index(config["before"]) + 1 :]
        entries = []
        for signature in newest_first[: int(config.get("limit", 1000))]:
            tx = self.txs[signature]
            (entry,) = documented("solana/getSignaturesForAddress.json")["result"]
            entry.update(signature=signature, slot=tx["slot"], err=self._error(tx), confirmationStatus=self._status(tx))
            entries.append(entry)
        return entries

    def _getTransaction(self, signature: str, config: dict[str, Any] | None = None) -> Any:
        tx = self.txs.get(signature)
        if tx is None:
            return None
        result = documented("solana/getTransaction.json")["result"]
        result["slot"] = tx["slot"]
        message = result["transaction"]["message"]
        message["accountKeys"][:2] = [self.payer, tx["to"]]
        result["transaction"]["signatures"] = [signature]
        meta = result["meta"]
        meta.update(preBalances=tx["pre"], postBalances=tx["post"], err=self._error(tx))
        meta["status"] = {"Err": meta["err"]} if tx["fails"] else {"Ok": None}
        return result

    def _getSignatureStatuses(self, signatures: list[str], config: dict[str, Any] | None = None) -> Any:
        answer = documented("solana/getSignatureStatuses.json")["result"]
        template = answer["value"][0]
        answer["context"]["slot"] = self.slot
        answer["value"] = []
        for signature in signatures:
            tx = self.txs.get(signature)
            if tx is None:
                answer["value"].append(None)
                continue
            status = dict(template)
            finalized = self._status(tx) == "finalized"
            status.update(
                slot=tx["slot"],
                confirmations=None if finalized else self.slot - tx["slot"],
                err=self._error(tx),
                confirmationStatus=self._status(tx),
            )
            answer["value"].append(status)
        return answer

    def stop(self) -> None:
        self.server.stop()
