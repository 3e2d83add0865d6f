"""What a buyer notices: p50/p99 of an order (and of the pages around it) with 8 concurrent buyers, over HTTP.

    .venv/bin/python bench/order_latency.py [--database-url postgres://postgres@127.0.0.1:5432/gpurent_orderlatency]
        [--buyers 8] [--orders 15] [--warm-up 2] [--rounds 3] [--redis-db 9] [--tree PATH ...]

Creates (and drops after) the database named in `--database-url`, loads the demo catalog and signs up
`--buyers` customers, each with money on their balance. Then, for each round and each `--tree` in turn (a
checkout of this repository, e.g. a `git worktree` with one mechanism reverted; the default is this checkout),
starts gunicorn from that tree as a web node runs it (`deploy/gunicorn.conf.py`, production settings, 2 workers ×
4 threads, Redis as the cache and the sessions' cache) on a free port of 127.0.0.1, and lets the buyers shop at
once, each over its own keep-alive connection with its own cookies, as a browser does:

    sign in (once per server: POST /account/login/), then per order: the catalog page /, the GPU's page,
    POST /checkout/ (the choice), the summary page, POST /checkout/place/ (the order), the rental's page,
    POST /payments/orders/<ref>/pay/ (paid from the balance).

The first `--warm-up` orders of each buyer on each server are not counted (templates compiled, caches filled).
Reported per tree: p50 and p99 (and the number of samples) of each step, per round and over all rounds, the
rounds interleaved so that a machine's load falls on every tree alike. Every request goes to 127.0.0.1; each
round ends after `--orders` orders per buyer, and the server is stopped.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from typing import IO
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "bench passphrase 1"  # noqa: S105 (the bench customers' password, in a scratch database)
LOTS = 1
FAILURES = (OSError, RuntimeError, http.client.HTTPException, threading.BrokenBarrierError)
STEPS = ("catalog page", "GPU page", "choice POST", "summary page", "order POST", "rental page", "pay POST")


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/gpurent_orderlatency",
        help="a PostgreSQL database this run creates and drops (two runs at once need two names)",
    )
    parser.add_argument("--buyers", type=int, default=8, help="concurrent buyers, each a customer of its own")
    parser.add_argument("--orders", type=int, default=15, help="counted orders per buyer, per round and tree")
    parser.add_argument("--warm-up", type=int, default=2, help="orders per buyer before counting, per server")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis-db", type=int, default=9, help="the Redis database of 127.0.0.1:6379 used as cache")
    parser.add_argument(
        "--tree", action="append", type=Path, help="a checkout to serve from (repeat to compare; default: this one)"
    )
    args = parser.parse_args(argv)
    url = urlsplit(args.database_url)
    name = url.path.lstrip("/")
    if (
        url.scheme not in ("postgres", "postgresql")
        or not name.isidentifier()
        or name in ("postgres", "gpurent", "gpurent_ci")
    ):
        parser.error("--database-url must name a PostgreSQL database of its own (a plain identifier)")
    if url.hostname not in ("127.0.0.1", "localhost"):
        parser.error("--database-url must be on 127.0.0.1: the bench sends nothing elsewhere")
    if not 1 <= args.buyers <= 64:
        parser.error("--buyers must be 1 to 64")
    if args.orders < 1 or args.warm_up < 0 or args.rounds < 1:
        parser.error("--orders and --rounds must be at least 1, --warm-up at least 0")
    if not 0 <= args.redis_db <= 15:
        parser.error("--redis-db must be 0 to 15")
    args.tree = [path.resolve() for path in (args.tree or [ROOT])]
    for tree in args.tree:
        if not (tree / "manage.py").is_file():
            parser.error(f"--tree {tree}: no manage.py there")
    if len(set(args.tree)) != len(args.tree):
        parser.error("--tree: each checkout once")
    return args


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (p50: fraction 0.5) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * fraction // 1))
    return ordered[int(rank) - 1]


class _Forms(HTMLParser):
    """The fields of each form of a page, by its action: hidden inputs, checked boxes and text values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, dict[str, str]] = {}
        self._current: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._current = self.forms.setdefault(attr.get("action", ""), {})
        elif tag == "input" and self._current is not None and attr.get("name"):
            kind = attr.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attr:
                return
            if kind not in ("submit", "button"):
                self._current[attr["name"]] = attr.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None


def form_fields(page: bytes, action: str) -> dict[str, str]:
    parser = _Forms()
    parser.feed(page.decode())
    if action not in parser.forms:
        raise RuntimeError(f"no form posting to {action}")
    return parser.forms[action]


class Browser:
    """One buyer: a keep-alive connection to 127.0.0.1 and a cookie jar."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, fields: dict[str, str] | None = None) -> tuple[int, str, bytes, float]:
        headers = {"Host": "127.0.0.1", "Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://127.0.0.1{path}"
        try:
            start = time.perf_counter()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # gunicorn closed the idle keep-alive connection (`keepalive` seconds): a browser opens a new one.
            self.connection.close()
            start = time.perf_counter()
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
        content = response.read()
        elapsed = time.perf_counter() - start
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
        return response.status, response.getheader("Location", ""), content, elapsed

    def get(self, path: str, step: str, times: dict[str, list[float]] | None) -> bytes:
        status, _, content, elapsed = self.send("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        if times is not None:
            times[step].append(elapsed)
        return content

    def post(self, path: str, fields: dict[str, str], step: str, times: dict[str, list[float]] | None) -> str:
        status, location, _, elapsed = self.send("POST", path, fields)
        if status not in (302, 303):
            raise RuntimeError(f"POST {path}: {status}")
        if times is not None:
            times[step].append(elapsed)
        return urlsplit(location).path

    def login(self, email: str) -> None:
        self.get("/account/login/", "login page", None)
        fields = {"csrfmiddlewaretoken": self.cookies["csrftoken"], "username": email, "password": PASSWORD}
        self.post("/account/login/", fields, "login", None)

    def buy(self, gpu_slug: str, times: dict[str, list[float]] | None) -> None:
        self.get("/", "catalog page", times)
        self.get(f"/gpus/{gpu_slug}/", "GPU page", times)
        choice = {"csrfmiddlewaretoken": self.cookies["csrftoken"], "gpu": gpu_slug, "term": "7", "lots": str(LOTS)}
        choice.update(environment="pytorch", environment_note="")
        summary_path = self.post("/checkout/", choice, "choice POST", times)
        summary = self.get(summary_path, "summary page", times)
        rental_path = self.post("/checkout/place/", form_fields(summary, "/checkout/place/"), "order POST", times)
        if not rental_path.startswith("/rentals/"):
            raise RuntimeError(f"the order was not placed: sent to {rental_path}")
        rental = self.get(rental_path, "rental page", times)
        ref = rental_path.rstrip("/").rsplit("/", 1)[-1]
        pay_action = f"/payments/orders/{ref}/pay/"
        self.post(pay_action, form_fields(rental, pay_action), "pay POST", times)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    return port if port > 20000 else _free_port()


def _manage(tree: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL
    )  # fmt: skip


def _setup(args: argparse.Namespace, env: dict[str, str]) -> str:
    """The database, the demo catalog with stock for every order, and the buyers with money; the GPU's slug."""
    script = (
        "import sys\n"
        "from gpurent.catalog.models import GpuModel\n"
        "from django.contrib.auth import get_user_model\n"
        "from gpurent.core.money import Usd\n"
        "from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post\n"
        "gpu = GpuModel.objects.filter(on_sale=True).order_by('position', 'name').first()\n"
        "GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=10**8)\n"
        f"for i in range({args.buyers}):\n"
        f"    user = get_user_model().objects.create_user(f'buyer{{i}}@example.com', {PASSWORD!r},\n"
        "        first_name='Bench', last_name='Buyer')\n"
        "    transfer_post(reference=f'deposit:BENCH-{i}', debit=system_account(EXTERNAL_CRYPTO),\n"
        "        credit=customer_account(user), amount=Usd(10**12))\n"
        "sys.stdout.write(gpu.slug)\n"
    )
    tree = args.tree[0]
    _manage(tree, env, "migrate", "--noinput")
    _manage(tree, env, "load_demo")
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script], cwd=tree, env=env, check=True, capture_output=True
    )
    return done.stdout.decode().strip().splitlines()[-1]


def _check_tree(tree: Path, env: dict[str, str]) -> None:
    """The server started from `tree` imports the shop from `tree` (not from the checkout installed editable)."""
    found = subprocess.run(
        [sys.executable, "-c", "import gpurent; print(gpurent.__file__)"],
        cwd=tree, env={**env, "PYTHONPATH": str(tree)}, check=True, capture_output=True,
    )  # fmt: skip
    if not Path(found.stdout.decode().strip()).is_relative_to(tree):
        raise SystemExit(f"--tree {tree}: the shop is imported from {found.stdout.decode().strip()}")


def _count(tree: Path, env: dict[str, str]) -> str:
    script = (
        "from gpurent.orders.models import Order\n"
        "print(Order.objects.count(), Order.objects.filter(payment_status='paid').count())\n"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script], cwd=tree, env=env, check=True, capture_output=True
    )
    placed, paid = done.stdout.decode().split()[-2:]
    return f"orders placed: {placed}, paid from the balance: {paid}"


def _serve(tree: Path, env: dict[str, str], log: IO[bytes]) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    server_env = {**env, "WEB_BIND": f"127.0.0.1:{port}", "PYTHONPATH": str(tree)}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi"],
        cwd=tree, env=server_env, stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server, port
        except OSError:
            time.sleep(0.2)
    server.terminate()
    log.seek(0)
    raise SystemExit("gunicorn did not start:\n" + log.read().decode(errors="replace")[-3000:])


def _round(args: argparse.Namespace, port: int, gpu_slug: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    failures: list[Exception] = []
    ready = threading.Barrier(args.buyers)

    def buyer(index: int) -> None:
        mine: dict[str, list[float]] = defaultdict(list)
        try:
            browser = Browser(port)
            browser.login(f"buyer{index}@example.com")
            for _ in range(args.warm_up):
                browser.buy(gpu_slug, None)
            ready.wait()
            for _ in range(args.orders):
                browser.buy(gpu_slug, mine)
        # A failure is reported after the round; the other buyers finish theirs.
        except FAILURES as error:
            ready.abort()
            with lock:
                failures.append(error)
            return
        with lock:
            for step, values in mine.items():
                times[step].extend(values)

    threads = [threading.Thread(target=buyer, args=(index,)) for index in range(args.buyers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"a buyer failed: {failures[0]!r}")
    return times


def _line(label: str, times: dict[str, list[float]]) -> str:
    cells = []
    for step in STEPS:
        values = times.get(step, [])
        if values:
            cells.append(f"{step} {percentile(values, 0.5) * 1000:.1f}/{percentile(values, 0.99) * 1000:.1f}")
    pages = [value for step in STEPS if step.endswith("page") for value in times.get(step, [])]
    cells.append(f"pages {percentile(pages, 0.5) * 1000:.1f}/{percentile(pages, 0.99) * 1000:.1f}")
    count = len(times.get("order POST", []))
    return f"{label}: p50/p99 ms  " + "  ".join(cells) + f"  (orders: {count})"


def main(argv: list[str] | None = None) -> None:
    args = parse_arguments(argv)
    url = urlsplit(args.database_url)
    name = url.path.lstrip("/")
    admin_dsn = args.database_url.rsplit("/", 1)[0] + "/postgres"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.database_url,
        "CACHE_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "SECURE_SSL_REDIRECT": "0",
        "WEB_CONCURRENCY": "2",
        "WEB_THREADS": "4",
        "LOG_LEVEL": "WARNING",
    }
    import psycopg

    with psycopg.connect(admin_dsn, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        gpu_slug = _setup(args, env)
        for tree in args.tree:
            _check_tree(tree, env)
            _manage(tree, env, "collectstatic", "--noinput")
        load = os.getloadavg()[0]
        print(f"{args.buyers} buyers, {args.orders} counted orders each per round, GPU {gpu_slug}, load {load:.1f}")
        totals: dict[Path, dict[str, list[float]]] = {tree: defaultdict(list) for tree in args.tree}
        for number in range(1, args.rounds + 1):
            order = args.tree if number % 2 else list(reversed(args.tree))  # who goes first alternates
            for tree in order:
                with tempfile.TemporaryFile() as log:
                    server, port = _serve(tree, env, log)
                    try:
                        times = _round(args, port, gpu_slug)
                    finally:
                        server.terminate()
                        server.wait(timeout=30)
                for step, values in times.items():
                    totals[tree][step].extend(values)
                label = f"round {number} {tree} (load {os.getloadavg()[0]:.1f})"
                print(_line(label, times), flush=True)
        for tree in args.tree:
            print(_line(f"all rounds {tree}", totals[tree]))
        print(_count(args.tree[0], env))
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
