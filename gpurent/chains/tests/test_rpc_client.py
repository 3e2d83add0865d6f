"""The JSON clients' refusals: a node that is down, answers an HTTP error, garbage, or an error object.

Each test runs a real HTTP server on 127.0.0.1 that answers one fixed status and body, so the client's own
request, basic auth and decoding all run.
"""

from __future__ import annotations

import base64
import socket
import threading
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from gpurent.chains.rpc import HttpApiClient, JsonRpcClient, RpcError


class RawServer:
    """Answers every POST with `status` and `body` (bytes, sent as is); keeps each request's headers."""

    def __init__(self, status: int, body: bytes) -> None:
        self.headers: list[dict[str, str]] = []
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                server_self.headers.append({name.lower(): value for name, value in self.headers.items()})
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def serve():
    servers: list[RawServer] = []

    def start(status: int, body: bytes) -> RawServer:
        servers.append(RawServer(status, body))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_client_refuses_a_url_that_is_not_http():
    with pytest.raises(ValueError, match="http:// or https://"):
        JsonRpcClient("ftp://127.0.0.1/")


def test_client_sends_the_url_credentials_as_basic_auth_and_keeps_them_out_of_the_url(serve):
    server = serve(200, b'{"result": 1.50000000, "error": null, "id": 1}')
    client = JsonRpcClient(f"http://rpc%40user:s%3Acret@127.0.0.1:{server.port}/wallet/watch")
    assert client.url == f"http://127.0.0.1:{server.port}/wallet/watch"
    result = client.call("getbalance")
    # Amounts are decoded as Decimal, never float.
    assert result == Decimal("1.50000000")
    assert isinstance(result, Decimal)
    assert server.headers[0]["authorization"] == "Basic " + base64.b64encode(b"rpc@user:s:cret").decode()


def test_client_without_credentials_sends_no_authorization(serve):
    server = serve(200, b'{"result": "ok"}')
    assert JsonRpcClient(f"http://127.0.0.1:{server.port}").call("ping") == "ok"
    assert "authorization" not in server.headers[0]


def test_call_on_a_node_that_is_down_names_the_host_and_method_only():
    port = closed_port()
    with pytest.raises(RpcError) as raised:
        JsonRpcClient(f"http://user:secret@127.0.0.1:{port}").call("getblockcount")
    assert str(raised.value) == f"127.0.0.1:{port} unreachable for getblockcount: URLError"
    assert "secret" not in str(raised.value)


def test_call_answered_http_error_without_body_is_an_rpc_error(serve):
    server = serve(503, b"")
    with pytest.raises(RpcError, match=f"^127.0.0.1:{server.port} answered HTTP 503 to getblockcount$"):
        JsonRpcClient(f"http://127.0.0.1:{server.port}").call("getblockcount")


def test_call_answered_http_500_with_an_error_object_carries_its_code(serve):
    # Bitcoin Core's way: HTTP 500 and a JSON body with the error object.
    server = serve(500, b'{"result": null, "error": {"code": -5, "message": "Transaction not in mempool"}}')
    with pytest.raises(RpcError) as raised:
        JsonRpcClient(f"http://127.0.0.1:{server.port}").call("getmempoolentry", "ab" * 32)
    assert str(raised.value) == "getmempoolentry: Transaction not in mempool"
    assert raised.value.code == -5


def test_call_with_an_error_that_is_not_an_object_has_no_code(serve):
    server = serve(200, b'{"result": null, "error": "wallet locked"}')
    with pytest.raises(RpcError) as raised:
        JsonRpcClient(f"http://127.0.0.1:{server.port}").call("getwalletinfo")
    assert str(raised.value) == "getwalletinfo: wallet locked"
    assert raised.value.code is None


def test_call_answered_with_something_that_is_not_json(serve):
    server = serve(200, b"<html>bad gateway</html>")
    with pytest.raises(RpcError, match="answered getblockcount with something that is not JSON"):
        JsonRpcClient(f"http://127.0.0.1:{server.port}").call("getblockcount")


def test_call_answered_with_json_that_is_not_an_object(serve):
    server = serve(200, b"[1, 2]")
    with pytest.raises(RpcError, match="answered getblockcount with a JSON list"):
        JsonRpcClient(f"http://127.0.0.1:{server.port}").call("getblockcount")


def test_call_sends_decimals_as_strings_and_refuses_other_objects(serve):
    server = serve(200, b'{"result": true}')
    client = JsonRpcClient(f"http://127.0.0.1:{server.port}")
    assert client.call("settxfee", Decimal("0.0001")) is True
    with pytest.raises(TypeError, match="cannot send object over JSON-RPC"):
        client.call("settxfee", object())


def test_http_api_post_answered_with_an_error_field_is_an_rpc_error(serve):
    server = serve(200, b'{"Error": "class org.tron.core.exception.BadItemException"}')
    with pytest.raises(RpcError, match=r"^/wallet/getnowblock: class org\.tron\.core\.exception\.BadItemException$"):
        HttpApiClient(f"http://127.0.0.1:{server.port}/").post("/wallet/getnowblock")


def test_http_api_post_sends_its_headers_and_returns_the_answer(serve):
    server = serve(200, b'{"block_header": {"raw_data": {"number": 7}}}')
    client = HttpApiClient(f"http://127.0.0.1:{server.port}", headers={"TRON-PRO-API-KEY": "k-1"})
    assert client.post("/wallet/getnowblock", {"visible": True}) == {"block_header": {"raw_data": {"number": 7}}}
    assert server.headers[0]["tron-pro-api-key"] == "k-1"
