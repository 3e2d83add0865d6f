"""A Solana cluster in memory that answers JSON-RPC (`getSlot`, `getSignaturesForAddress`, `getTransaction`,
`getSignatureStatuses`) with the documented answers in `recorded/solana/`, filled in.

Slots advance one per transfer (or by `advance`); the finalized slot trails the confirmed tip by
`finality_lag` slots. `pay` is a System Program transfer of SOL from one payer; `pay_token` an SPL Token
`TransferChecked` from the payer's token account to the owner's associated token account (or another token
account), which also creates that account when it does not exist yet (the owner then appears in the
transaction, with its lamports unchanged, and the account has no balance before it). `drop` removes a
transaction that is not finalized yet, as when the fork it landed on is abandoned.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

from gpurent.chains.solana import ASSOCIATED_TOKEN_PROGRAM, TOKEN_PROGRAM, associated_token_address
from gpurent.payments.networks.codecs import b58encode

from .fakes import FakeHttpServer, documented

_FEE = 5000
_TOKEN_ACCOUNT_RENT = 2_039_280  # lamports that keep a token account rent-exempt
SYSTEM_PROGRAM = "11111111111111111111111111111111"
USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
DECIMALS = {USDC_MINT: 6}  # any other mint: 9


def solana_address(seed: str) -> str:
    """A well-formed Solana address (Base58 of 32 bytes) made from `seed`."""
    return b58encode(hashlib.sha256(seed.encode()).digest())


class FakeSolanaNode:
    def __init__(self, *, finality_lag: int = 2) -> None:
        self.slot = 300_000_000
        self.finality_lag = finality_lag
        self.payer = solana_address("payer")
        self.balances: dict[str, int] = {self.payer: 10**15}
        self.token_balances: dict[str, int] = {}  # token account → base units
        self.txs: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(1)
        self.server = FakeHttpServer(self.handle)
        self.url = self.server.url

    @property
    def finalized(self) -> int:
        return self.slot - self.finality_lag

    def _next(self) -> str:
        self.slot += 1
        return b58encode(hashlib.sha512(f"sig:{next(self._ids)}".encode()).digest())

    def pay(self, to: str, lamports: int, *, fails: bool = False) -> str:
        """Transfer `lamports` from the payer to `to` in the next slot; returns the signature."""
        signature = self._next()
        pre = [self.balances[self.payer], self.balances.get(to, 0), 1]
        moved = 0 if fails else lamports
        self.balances[self.payer] -= moved + _FEE
        self.balances[to] = pre[1] + moved
        post = [self.balances[self.payer], self.balances[to], 1]
        self.txs[signature] = self._tx("sol", [self.payer, to, SYSTEM_PROGRAM], pre, post, [], [], fails)
        return signature

    def pay_token(
        self,
        owner: str,
        amount: int,
        *,
        mint: str = USDC_MINT,
        account: str | None = None,
        sender: str | None = None,
        fails: bool = False,
    ) -> str:
        """Transfer `amount` base units of `mint` from `sender`'s associated token account (default: the payer's)
        to `account` (default: `owner`'s) in the next slot, the payer paying the fee; returns the signature. A
        failed one only costs the fee."""
        signature = self._next()
        account = account or associated_token_address(owner, mint)
        sender = sender or self.payer
        source = associated_token_address(sender, mint)
        if sender == self.payer:
            self.token_balances.setdefault(source, 10**15)
        creates = account not in self.token_balances
        accounts = [self.payer, source, account, mint, TOKEN_PROGRAM]
        if creates:  # CreateIdempotent first: the owner and the programs it needs are in the transaction
            accounts += [owner, SYSTEM_PROGRAM, ASSOCIATED_TOKEN_PROGRAM]
        pre = [self.balances[self.payer], _TOKEN_ACCOUNT_RENT, 0 if creates else _TOKEN_ACCOUNT_RENT]
        pre += [self.balances.get(key, 1) for key in accounts[3:]]
        token_pre = [(1, source, self.token_balances[source])]
        if not creates:
            token_pre.append((2, account, self.token_balances[account]))
        post, token_post = list(pre), list(token_pre)
        post[0] -= _FEE
        if not fails:
            post[0] -= _TOKEN_ACCOUNT_RENT if creates else 0
            post[2] = _TOKEN_ACCOUNT_RENT
            self.token_balances[source] -= amount
            self.token_balances[account] = self.token_balances.get(account, 0) + amount
            token_post = [(1, source, self.token_balances[source]), (2, account, self.token_balances[account])]
        self.balances[self.payer] = post[0]
        tx = self._tx("token", accounts, pre, post, token_pre, token_post, fails)
        tx.update(mint=mint, owners={source: sender, account: owner})
        self.txs[signature] = tx
        return signature

    def _tx(
        self,
        kind: str,
        accounts: list[str],
        pre: list[int],
        post: list[int],
        token_pre: list[tuple[int, str, int]],
        token_post: list[tuple[int, str, int]],
        fails: bool,
    ) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "kind": kind,
            "accounts": accounts,
            "pre": pre,
            "post": post,
            "token_pre": token_pre,
            "token_post": token_post,
            "fails": fails,
        }

    def advance(self, slots: int) -> None:
        self.slot += slots

    def drop(self, signature: str) -> None:
        tx = self.txs.pop(signature)
        assert tx["slot"] > self.finalized, "a finalized transaction never leaves the chain"
        for key, before, after in zip(tx["accounts"], tx["pre"], tx["post"], strict=True):
            self.balances[key] = self.balances.get(key, 0) - (after - before)
        before_tokens = {account: amount for _index, account, amount in tx["token_pre"]}
        for _index, account, after in tx["token_post"]:
            self.token_balances[account] -= after - before_tokens.get(account, 0)
            if account not in before_tokens:  # the account it created is gone with it
                del self.token_balances[account]

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
        newest_first = [sig for sig, tx in reversed(self.txs.items()) if address in tx["accounts"]]
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
        token = tx["kind"] == "token"
        result = documented("solana/getTransaction-token.json" if token else "solana/getTransaction.json")["result"]
        result["slot"] = tx["slot"]
        message = result["transaction"]["message"]
        message["accountKeys"] = list(tx["accounts"])
        if token:
            message["instructions"][0]["accounts"] = [1, 3, 2, 0]
            message["instructions"][0]["programIdIndex"] = 4
        result["transaction"]["signatures"] = [signature]
        meta = result["meta"]
        meta.update(preBalances=tx["pre"], postBalances=tx["post"], err=self._error(tx))
        if token:
            meta["preTokenBalances"] = [self._token_balance(tx, *entry) for entry in tx["token_pre"]]
            meta["postTokenBalances"] = [self._token_balance(tx, *entry) for entry in tx["token_post"]]
        meta["status"] = {"Err": meta["err"]} if tx["fails"] else {"Ok": None}
        return result

    @staticmethod
    def _token_balance(tx: dict[str, Any], index: int, account: str, amount: int) -> dict[str, Any]:
        decimals = DECIMALS.get(tx["mint"], 9)
        whole, part = divmod(amount, 10**decimals)
        text = f"{whole}.{part:0{decimals}d}".rstrip("0").rstrip(".")
        return {
            "accountIndex": index,
            "mint": tx["mint"],
            "owner": tx["owners"][account],
            "programId": TOKEN_PROGRAM,
            # uiAmount is deprecated and may be null; a fake that wrote a float would only invite reading it.
            "uiTokenAmount": {"amount": str(amount), "decimals": decimals, "uiAmount": None, "uiAmountString": text},
        }

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
