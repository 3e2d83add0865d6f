"""A small local HTTP server for the Tron and Solana watcher tests, and the documented answers it serves.

No Tron or Solana node runs on this machine, so these watchers are tested against fakes that answer over real
HTTP (the watcher's own client, its URL handling and JSON decoding all run). Every answer is a copy of a JSON
file in `recorded/`, each written from the network's published API documentation (the file's `_source` says
which page) and not recorded from a node; the fake only fills in the fields a scenario changes (block
numbers, ids, addresses, amounts). See docs/decisions/0143.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RECORDED = Path(__file__).parent / "recorded"

Handler = Callable[[str, Any], Any]


@cache
def _read(name: str) -> dict[str, Any]:
    data = json.loads((RECORDED / name).read_text())
    data.pop("_source")  # the label is for people; a node never sends it
    return data


def documented(name: str) -> Any:
    """A fresh copy of the documented answer `recorded/<name>` (without its `_source` label)."""
    return copy.deepcopy(_read(name))


class FakeHttpServer:
    """Serves `handler(path, decoded JSON body)` as JSON on 127.0.0.1, on a free port, in a thread."""

    def __init__(self, handler: Handler) -> None:
        self.requests: list[tuple[str, Any]] = []
        self.headers: list[dict[str, str]] = []  # per request, names in lower case
        server_self = self

        class RequestHandler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                server_self.requests.append((self.path, body))
                server_self.headers.append({name.lower(): value for name, value in self.headers.items()})
                answer = json.dumps(handler(self.path, body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
