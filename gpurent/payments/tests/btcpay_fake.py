"""A local HTTP server that answers like BTCPay Server's Greenfield API, from the recorded answers in
`vectors/btcpay/` (written from BTCPay's OpenAPI document). It records every request, and can run a probe
while a request is being answered (to look at the database from outside the caller's connection)."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).parent / "vectors" / "btcpay"
STORE_ID = "9CiNzKoANXxmk5ayZngSXrHTiVvvgCrwrpFQd4m2K776"
API_KEY = "greenfield-api-key-for-tests"


def recorded(name: str) -> Any:
    return json.loads((VECTORS / name).read_text())


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeGreenfield:
    """`invoice_status`/`methods_status` change the answers (e.g. 503, 400); `probe` runs inside each request."""

    requests: list[Seen] = field(default_factory=list)
    invoice_status: int = 200
    invoice_answer: Any = None
    methods_answer: Any = None
    probe: Callable[[Seen], None] | None = None
    probe_errors: list[BaseException] = field(default_factory=list)
    url: str = ""

    def start(self) -> FakeGreenfield:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _answer(self, status: int, body: Any) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _seen(self) -> Seen:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                seen = Seen(self.command, self.path, dict(self.headers), json.loads(raw) if raw else None)
                fake.requests.append(seen)
                if fake.probe is not None:
                    try:
                        fake.probe(seen)
                    except Exception as error:  # noqa: BLE001 (reported to the test in probe_errors, not swallowed)
                        fake.probe_errors.append(error)
                return seen

            def do_POST(self) -> None:
                seen = self._seen()
                if self.path != f"/api/v1/stores/{STORE_ID}/invoices":
                    return self._answer(404, {"code": "not-found", "message": "not found"})
                if fake.invoice_status != 200:
                    return self._answer(fake.invoice_status, fake.invoice_answer or {})
                answer = copy.deepcopy(fake.invoice_answer or recorded("invoice_created.json"))
                # As BTCPay does: the invoice carries the request's amount, currency and metadata.
                for key in ("amount", "currency", "metadata"):
                    answer[key] = seen.body[key]
                return self._answer(200, answer)

            def do_GET(self) -> None:
                self._seen()
                invoice = recorded("invoice_created.json")["id"]
                if self.path != f"/api/v1/stores/{STORE_ID}/invoices/{invoice}/payment-methods":
                    return self._answer(404, {"code": "invoice-not-found", "message": "not found"})
                answer = fake.methods_answer if fake.methods_answer is not None else recorded("payment_methods.json")
                return self._answer(200, answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
