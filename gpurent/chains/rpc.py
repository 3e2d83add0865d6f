"""Small JSON clients over HTTP, standard library only: JSON-RPC 2.0 (Bitcoin Core family, Ethereum, Solana) and
a JSON-over-POST API (`HttpApiClient`: the Tron full node's HTTP API, `/wallet/...`).

Numbers in answers are parsed as `Decimal` (Bitcoin Core prints amounts as JSON numbers such as 0.00150000;
a float would round them). Credentials come from the URL (`http://user:pass@127.0.0.1:19443/wallet/watch`)
and are sent as HTTP basic auth, never logged: errors name the host and the method only.
"""

from __future__ import annotations

import base64
import itertools
import json
import urllib.error
import urllib.request
from decimal import Decimal
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

__all__ = ["HttpApiClient", "JsonRpcClient", "RpcError"]


class RpcError(Exception):
    """The node could not be reached, answered garbage, or answered an error object."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class _JsonOverHttp:
    """The URL (credentials taken out of it, sent as basic auth) and one POST of a JSON body."""

    def __init__(self, url: str, *, timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise ValueError("a node URL is http:// or https://")
        self._auth = None
        if parts.username is not None:
            raw = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
            self._auth = "Basic " + base64.b64encode(raw).decode("ascii")
        netloc = parts.hostname or ""
        if parts.port:
            netloc += f":{parts.port}"
        self.url = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
        self.host = netloc
        self.timeout = timeout
        self._headers = dict(headers or {})

    def _post(self, url: str, payload: object, what: str) -> Any:
        body = json.dumps(payload, default=_encode).encode()
        request = urllib.request.Request(  # noqa: S310 (the scheme is checked in __init__: http or https only)
            url, data=body, headers={"Content-Type": "application/json", **self._headers}
        )
        if self._auth:
            request.add_header("Authorization", self._auth)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (scheme checked)
                raw = response.read()
        except urllib.error.HTTPError as error:
            # Bitcoin Core answers RPC errors with HTTP 500 and a JSON body that carries the error object.
            raw = error.read()
            if not raw:
                raise RpcError(f"{self.host} answered HTTP {error.code} to {what}") from None
        except (urllib.error.URLError, OSError) as error:
            raise RpcError(f"{self.host} unreachable for {what}: {error.__class__.__name__}") from None
        try:
            return json.loads(raw, parse_float=Decimal)
        except ValueError:
            raise RpcError(f"{self.host} answered {what} with something that is not JSON") from None


class JsonRpcClient(_JsonOverHttp):
    def __init__(self, url: str, *, timeout: float = 30.0, version: str = "2.0") -> None:
        super().__init__(url, timeout=timeout)
        self.version = version
        self._ids = itertools.count(1)

    def call(self, method: str, *params: Any) -> Any:
        """Call `method` with positional `params`; the `result`, or RpcError."""
        answer = self._post(
            self.url,
            {"jsonrpc": self.version, "id": next(self._ids), "method": method, "params": list(params)},
            method,
        )
        if not isinstance(answer, dict):
            raise RpcError(f"{self.host} answered {method} with a JSON {type(answer).__name__}")
        if answer.get("error"):
            error_object = answer["error"]
            code = error_object.get("code") if isinstance(error_object, dict) else None
            message = error_object.get("message") if isinstance(error_object, dict) else str(error_object)
            raise RpcError(f"{method}: {message}", code=code)
        return answer.get("result")


class HttpApiClient(_JsonOverHttp):
    """A REST-style node API that takes a JSON body by POST at `base URL + path` (the Tron full node's
    `/wallet/...`). An API key, if any, travels in a header (TronGrid: `TRON-PRO-API-KEY`), never in logs."""

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """POST `body` to `path`; the decoded answer, or RpcError (also for `{"Error": ...}` answers)."""
        answer = self._post(self.url.rstrip("/") + path, body or {}, path)
        if isinstance(answer, dict) and "Error" in answer:
            raise RpcError(f"{path}: {answer['Error']}")
        return answer


def _encode(value: object) -> object:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot send {type(value).__name__} over JSON-RPC")
