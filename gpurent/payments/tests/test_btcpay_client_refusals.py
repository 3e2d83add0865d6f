"""The Greenfield client's refusals: each answer it cannot use is `ProcessorUnavailable` with a detail for the log
(codes and paths of BTCPay's error answers, never their free text), and the request it sends carries only what
the invoice needs. A real HTTP server on 127.0.0.1 answers one fixed status and body."""

from __future__ import annotations

import json
import threading
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from gpurent.payments.btcpay.client import MAX_ANSWER_BYTES, GreenfieldClient, ProcessorUnavailable


class Answering:
    """Answers every request with `status` and `body`; keeps each request's method, path and JSON body."""

    def __init__(self, status: int, body: bytes) -> None:
        self.requests: list[tuple[str, str, Any]] = []
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                sent = json.loads(self.rfile.read(length)) if length else None
                server_self.requests.append((self.command, self.path, sent))
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def btcpay():
    servers: list[Answering] = []

    def start(status: int, body: bytes) -> tuple[GreenfieldClient, Answering]:
        servers.append(Answering(status, body))
        return GreenfieldClient(servers[-1].url, "store-1", "key-1"), servers[-1]

    yield start
    for server in servers:
        server.stop()


def refusal(call) -> str:
    with pytest.raises(ProcessorUnavailable) as raised:
        call()
    return str(raised.value.detail)


@pytest.mark.parametrize("url", ["ftp://btcpay.example", "https://", "btcpay.example"])
def test_client_refuses_a_url_that_is_not_http(url):
    assert refusal(lambda: GreenfieldClient(url, "store-1", "key-1")) == "BTCPAY_URL must be an http:// or https:// URL"


def test_invoice_without_redirect_language_or_description_sends_none_and_needs_an_id(btcpay):
    client, server = btcpay(200, b'{"checkoutLink": "https://pay.example/i/1"}')
    create = lambda: client.invoice_create(reference="intent-1", amount="0.001", currency="BTC", expiration_minutes=30)  # noqa: E731
    assert refusal(create) == "127.0.0.1: the new invoice has no id"
    ((method, path, sent),) = server.requests
    assert (method, path) == ("POST", "/api/v1/stores/store-1/invoices")
    assert sent["metadata"] == {"orderId": "intent-1"}
    assert sent["checkout"] == {
        "paymentMethods": ["BTC-CHAIN"],
        "defaultPaymentMethod": "BTC-CHAIN",
        "lazyPaymentMethods": False,
        "expirationMinutes": 30,
    }


def test_payment_methods_that_are_not_a_list_are_refused(btcpay):
    client, _server = btcpay(200, b'{"destination": "bc1q..."}')
    assert refusal(lambda: client.invoice_destination("inv-1", "BTC")) == "127.0.0.1: payment methods are not a list"


def test_a_btcpay_1x_payment_method_is_read_and_an_unreadable_amount_is_none(btcpay):
    methods = [
        "not an object",
        {"paymentMethod": "LTC", "destination": "ltc1qother", "amount": "1"},
        {"paymentMethod": "BTC", "destination": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "amount": "n/a"},
    ]
    client, server = btcpay(200, json.dumps(methods).encode())
    assert client.invoice_destination("inv/1", "BTC") == ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", None)
    ((method, path, sent),) = server.requests
    assert (method, path, sent) == ("GET", "/api/v1/stores/store-1/invoices/inv%2F1/payment-methods", None)


def test_an_invoice_without_an_address_for_the_currency_is_refused(btcpay):
    client, _server = btcpay(200, b'[{"paymentMethodId": "BTC-LN", "destination": "lnbc1..."}]')
    assert refusal(lambda: client.invoice_destination("inv-1", "BTC")) == (
        "127.0.0.1: invoice inv-1 has no activated BTC address"
    )


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (
            b'[{"code": "invoice-not-found", "message": "free text"}, {"path": "amount"}]',
            " (invoice-not-found, amount)",
        ),
        (b'{"code": "unauthenticated", "message": "free text"}', " (unauthenticated)"),
        (b'{"message": "free text only"}', ""),
        (b"<html>Not Found</html>", ""),
    ],
)
def test_an_http_error_names_its_codes_and_paths_never_its_text(btcpay, body, named):
    client, _server = btcpay(404, body)
    assert refusal(lambda: client.invoice_destination("inv-1", "BTC")) == f"127.0.0.1 answered HTTP 404{named}"


def test_an_answer_past_the_size_limit_is_refused_unread(btcpay):
    client, _server = btcpay(200, b"[" + b" " * MAX_ANSWER_BYTES + b"]")
    assert refusal(lambda: client.invoice_destination("inv-1", "BTC")) == "127.0.0.1: the answer is too large"


def test_an_answer_that_is_not_json_is_refused(btcpay):
    client, _server = btcpay(200, b"\xff\xfe")
    assert refusal(lambda: client.invoice_destination("inv-1", "BTC")) == "127.0.0.1: the answer is not JSON"


def test_an_amount_btcpay_asks_is_read_as_a_decimal(btcpay):
    client, _server = btcpay(
        200, b'[{"paymentMethodId": "LTC-CHAIN", "destination": "ltc1qxyz", "amount": "0.12345678"}]'
    )
    assert client.invoice_destination("inv-1", "LTC") == ("ltc1qxyz", Decimal("0.12345678"))
