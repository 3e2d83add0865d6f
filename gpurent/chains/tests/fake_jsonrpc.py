"""A JSON-RPC node on 127.0.0.1 that answers what a test tells it, method by method (Bitcoin Core, Ethereum).

For the answers a real node in regtest or ganache does not give on cue: errors with a node's codes, legacy
wallets, failed receipts, removed logs. Amounts are sent as JSON numbers, as the nodes print them.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class NodeError(Exception):
    """An error object the node answers (with HTTP 500, as Bitcoin Core does)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class FakeJsonRpcNode:
    """JSON-RPC on 127.0.0.1, on a free port, in a thread: `answers[method]` is a result, a NodeError, or a
    function of the call's params that returns one; `calls` lists (method, params) in order."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, list[Any]]] = []
        node = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                node.calls.append((request["method"], request["params"]))
                answer = node.answers[request["method"]]
                if callable(answer):
                    answer = answer(*request["params"])
                if isinstance(answer, NodeError):
                    status, payload = 500, {"result": None, "error": {"code": answer.code, "message": str(answer)}}
                else:
                    status, payload = 200, {"result": answer, "error": None}
                # Decimals go out as JSON numbers (as Bitcoin Core prints 0.00150000), never through a float.
                body = re.sub(r'"@(-?[0-9.]+)@"', r"\1", json.dumps(payload, default=lambda d: f"@{d}@")).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def methods(self) -> list[str]:
        return [method for method, _params in self.calls]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
