"""The reference deployment of deploy/ started on this machine, and a browser that speaks to it (test_multinode.py).

`Topology` starts a private redis-server, two gunicorn nodes (deploy/gunicorn.conf.py, the production settings,
the PostgreSQL test database, `CACHE_URL` on that Redis) and Debian's nginx running deploy/nginx/gpurent.conf
itself, with only its ports, node addresses, certificate and static root replaced, terminating TLS with a
certificate made for the run. `Visitor` is one browser: its cookies, its own source address (127.0.0.x, which
nginx passes on as `X-Real-IP`) and HTTPS to nginx; `form_fields` reads a form of a page as a browser would
submit it.
"""

from __future__ import annotations

import datetime
import http.client
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.conftest import ROOT, GunicornNode, _database_url, _free_port, gunicorn_nodes

NGINX = "/usr/sbin/nginx"
NODE_NAMES = ("gpurent-node-a", "gpurent-node-b")
# The production settings, as the environment file sets them (deploy/gpurent.env), for this machine.
SECRET_KEY = "multinode-test-secret-key-" + "k" * 50


def missing_tools() -> str:
    """Why the topology cannot start here, or '' when everything it needs is installed."""
    if not os.access(NGINX, os.X_OK):
        return f"Debian's nginx is not installed ({NGINX}): apt-get install nginx"
    if shutil.which("redis-server") is None:
        return "redis-server is not installed: apt-get install redis-server"
    try:
        import redis  # noqa: F401 (only whether the client is installed)
    except ImportError:
        return "the redis package is not installed: pip install -e '.[dev]'"
    return ""


def skip_or_fail(reason: str) -> None:
    """CI installs nginx and redis-server and sets MULTINODE_REQUIRED=1 (or CI=true): there a missing tool fails."""
    if os.environ.get("MULTINODE_REQUIRED") == "1" or os.environ.get("CI") == "true":
        pytest.fail(f"MULTINODE_REQUIRED: {reason}")
    pytest.skip(reason)


def _wait_for(
    condition: Any, what: str, process: subprocess.Popen[bytes] | None = None, log: Path | None = None
) -> None:
    """Poll `condition()` until it holds; fail at once if `process` exits (with the start of `log`)."""
    for _ in range(300):  # ~30 s: only keeps a broken start from hanging the suite
        if condition():
            return
        if process is not None and process.poll() is not None:
            text = log.read_text(errors="replace")[:3000] if log is not None and log.exists() else ""
            pytest.fail(f"{what}: the process exited with status {process.returncode}\n{text}")
        time.sleep(0.1)
    pytest.fail(f"never happened: {what}")


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, valid for a day: (certificate, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def site_config(nodes: list[str], *, https_port: int, http_port: int, directory: Path, static: Path) -> str:
    """deploy/nginx/gpurent.conf with this machine's ports, nodes, certificate and static root.

    Each replaced line must be found as often as expected: a change of the shipped file that this test does not
    follow fails here, instead of testing something else than what operators install.
    """
    text = (ROOT / "deploy" / "nginx" / "gpurent.conf").read_text()
    upstreams = re.findall(r"^    server 10\.0\.0\.\d+:8000 ", text, flags=re.M)
    assert len(upstreams) == len(nodes), f"deploy/nginx/gpurent.conf names {len(upstreams)} nodes, the test runs 2"
    for line, node in zip(upstreams, nodes, strict=True):
        text = text.replace(line, f"    server {node} ", 1)
    replacements = [
        ("    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{https_port} ssl http2;\n"),
        ("    listen [::]:443 ssl http2;\n", ""),
        ("    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n"),
        ("    listen [::]:80;\n", ""),
        ("/etc/letsencrypt/live/shop.example.com/fullchain.pem", str(directory / "cert.pem")),
        ("/etc/letsencrypt/live/shop.example.com/privkey.pem", str(directory / "key.pem")),
        ("/var/lib/gpurent/static/", f"{static}/"),
        ("/var/www/letsencrypt", str(directory / "acme")),
    ]
    for old, new in replacements:
        assert text.count(old) == 1, f"deploy/nginx/gpurent.conf no longer has {old!r} once"
        text = text.replace(old, new)
    return text


def _nginx_config(directory: Path) -> str:
    """The main configuration around the site file: pid, logs and temporary files in `directory`."""
    paths = "\n".join(
        f"    {name}_temp_path {directory}/{name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {directory}/access.log;
{paths}
    # Which node answered (all of them when nginx tried several), for the test only: never in production, it
    # names internal addresses. Inherited by the proxied location, which sets no header of its own.
    add_header X-Upstream $upstream_addr always;
    include {directory}/gpurent.conf;
}}
"""


@dataclass
class Topology:
    """The running deployment: nginx's HTTPS port, the nodes by name, the Redis port and the TLS context."""

    https_port: int
    http_port: int
    nodes: dict[str, GunicornNode]
    redis_port: int
    tls: ssl.SSLContext
    static: Path
    addresses: dict[str, str] = field(default_factory=dict)  # "127.0.0.1:port" -> node name

    def node_of(self, upstream: str) -> str:
        """The node name of one upstream address as nginx's X-Upstream names it."""
        return self.addresses[upstream.strip()]

    def redis(self) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.redis_port)

    def kill(self, name: str) -> None:
        """SIGKILL the node's master and workers at once, as a machine that loses power."""
        os.killpg(self.nodes[name].process.pid, signal.SIGKILL)
        self.nodes[name].process.wait(timeout=30)


def node_env(redis_port: int, name: str, static: Path) -> dict[str, str]:
    """A web node's environment: the production settings on the test database and the private Redis."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1",
        # The node's name reaches PostgreSQL (pg_stat_activity), so the test sees which node runs a query.
        "DATABASE_URL": f"{_database_url()}?application_name={name}",
        "CACHE_URL": f"redis://127.0.0.1:{redis_port}/0",
        "TRUSTED_PROXIES": "127.0.0.1",
        "STATIC_ROOT": str(static),
        # One worker per node keeps the start short on a 2-core machine; the two nodes are the processes that must
        # share the cache, the sessions and the throttle's counts. Threads enough for the kill test's load.
        "WEB_CONCURRENCY": "1",
        "WEB_THREADS": "8",
        "LOG_LEVEL": "WARNING",
        "SITE_URL": "https://127.0.0.1",
    }


@contextmanager
def topology() -> Iterator[Topology]:
    """Start Redis, collect the static files, start two nodes and nginx; stop everything afterwards."""
    with ExitStack() as stack:
        # Not under pytest's 0700 temporary root: nginx's workers run as `nobody` when the test runs as root.
        directory = Path(tempfile.mkdtemp(prefix="gpurent-multinode-"))
        stack.callback(shutil.rmtree, directory, ignore_errors=True)
        directory.chmod(0o755)
        static = directory / "static"
        redis_port, https_port, http_port = _free_port(), _free_port(), _free_port()

        redis_log = directory / "redis.log"
        redis_server = subprocess.Popen(
            [
                *("redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                *("--dir", str(directory), "--logfile", str(redis_log), "--daemonize", "no"),
            ],
        )
        stack.callback(_stop, redis_server)
        # The files the pages link, with their manifest, before any node starts: a node reads the manifest once,
        # when it boots (the API docs' files are not needed here, and are most of the work).
        collect = subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0", "-i", "ninja"],
            cwd=ROOT,
            env=node_env(redis_port, NODE_NAMES[0], static),
            capture_output=True,
            timeout=300,
        )
        assert collect.returncode == 0, collect.stderr.decode()
        _wait_for(lambda: _redis_answers(redis_port), "redis-server answers", redis_server, redis_log)
        args = ("-c", "deploy/gunicorn.conf.py")
        envs = [node_env(redis_port, name, static) for name in NODE_NAMES]
        nodes = dict(zip(NODE_NAMES, stack.enter_context(gunicorn_nodes(envs, args)), strict=True))

        _certificate(directory)
        (directory / "acme").mkdir()
        addresses = {node.base.removeprefix("http://"): name for name, node in nodes.items()}
        site = site_config(
            list(addresses), https_port=https_port, http_port=http_port, directory=directory, static=static
        )
        (directory / "gpurent.conf").write_text(site)
        (directory / "nginx.conf").write_text(_nginx_config(directory))
        error_log = directory / "error.log"
        nginx = subprocess.Popen(
            [
                NGINX,
                "-e",
                str(error_log),
                "-p",
                str(directory),
                "-c",
                str(directory / "nginx.conf"),
                "-g",
                "daemon off;",
            ]
        )
        stack.callback(_stop, nginx)
        _wait_for(lambda: _accepts(https_port), "nginx listens", nginx, error_log)
        tls = ssl.create_default_context(cafile=str(directory / "cert.pem"))
        yield Topology(https_port, http_port, nodes, redis_port, tls, static, addresses)


def _redis_answers(port: int) -> bool:
    import redis

    try:
        return bool(redis.Redis(host="127.0.0.1", port=port, socket_timeout=1).ping())
    except redis.exceptions.ConnectionError:
        return False


def _stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str

    @property
    def upstreams(self) -> list[str]:
        """The node addresses nginx tried for this request, in order (none for a static file)."""
        return [part.strip() for part in (self.headers.get("X-Upstream") or "").split(",") if part.strip()]

    def json(self) -> Any:
        return json.loads(self.text)


class Visitor:
    """One browser speaking HTTPS to nginx from its own source address: it keeps its cookies, sends the Origin
    header on a POST as browsers do, and follows no redirect by itself."""

    def __init__(self, shop: Topology, source: str = "127.0.0.1") -> None:
        self.shop, self.source = shop, source
        self.cookies: dict[str, str] = {}
        self.origin = f"https://127.0.0.1:{shop.https_port}"

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Reply:
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.shop.https_port, context=self.shop.tls, timeout=120, source_address=(self.source, 0)
        )
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if method != "GET":
            sent.setdefault("Origin", self.origin)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            reply = Reply(response.status, response.headers, response.read().decode(errors="replace"))
        finally:
            connection.close()
        for header in reply.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return reply

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, fields: list[tuple[str, str]] | dict[str, str]) -> Reply:
        body = urllib.parse.urlencode(list(fields.items()) if isinstance(fields, dict) else fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, payload: dict[str, Any], headers: dict[str, str] | None = None) -> Reply:
        body = json.dumps(payload).encode()
        return self.request("POST", path, body, {"Content-Type": "application/json", **(headers or {})})

    def submit(
        self, page: Reply, action: str, having: dict[str, str] | None = None, to: str = "", **values: str
    ) -> Reply:
        """Submit the form of `page` whose action is `action` (and which has the fields `having`), with `values`
        typed into it: what a browser sends, the CSRF token of the page included. A form without an action posts
        to its page: give that page's path as `to`."""
        return self.post(to or action, form_fields(page.text, action, having=having, **values))


class _Forms(HTMLParser):
    """Every form of a page: its action and the (name, value) pairs a browser would submit, buttons excepted."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, list[list[str]]]] = []
        self._open = False
        self._select: dict[str, Any] | None = None
        self._textarea: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.forms.append((found.get("action", ""), []))
            self._open = True
            return
        if not self._open or ("name" not in found and tag != "option"):
            return
        fields = self.forms[-1][1]
        kind = found.get("type", "text").lower()
        if tag == "input" and kind not in {"submit", "button", "image", "reset", "file"}:
            if kind not in {"checkbox", "radio"} or "checked" in found:
                fields.append([found["name"], found.get("value", "on" if kind in {"checkbox", "radio"} else "")])
        elif tag == "textarea":
            self._textarea = [found["name"], ""]
            fields.append(self._textarea)
        elif tag == "select":
            self._select = {"name": found["name"], "first": None, "chosen": [], "multiple": "multiple" in found}
        elif tag == "option" and self._select is not None:
            value = found.get("value", "")
            self._select["first"] = value if self._select["first"] is None else self._select["first"]
            if "selected" in found:
                self._select["chosen"].append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = False
        elif tag == "textarea" and self._textarea is not None:
            self._textarea[1] = self._textarea[1].removeprefix("\n")  # as browsers read it
            self._textarea = None
        elif tag == "select" and self._select is not None:
            chosen = self._select["chosen"]
            if not chosen and not self._select["multiple"] and self._select["first"] is not None:
                chosen = [self._select["first"]]
            self.forms[-1][1].extend([self._select["name"], value] for value in chosen)
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1] += data


def form_fields(
    page: str, action: str, *, having: dict[str, str] | None = None, **values: str
) -> list[tuple[str, str]]:
    """The (name, value) pairs of the form of `page` posting to `action` (and having the fields `having`), each
    name in `values` set to its value instead."""
    parser = _Forms()
    parser.feed(page)
    for form_action, pairs in parser.forms:
        fields = [(name, value) for name, value in pairs]
        if form_action == action and all((name, value) in fields for name, value in (having or {}).items()):
            kept = [(name, value) for name, value in fields if name not in values]
            return kept + list(values.items())
    raise AssertionError(f"no form posting to {action} {having or ''} on the page:\n{page[:3000]}")
