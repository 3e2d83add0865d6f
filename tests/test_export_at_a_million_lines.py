"""The balance statement at 10^6 ledger lines arrives whole, through gunicorn with the timeout that cut it (issue 30,
decision 0430).

PostgreSQL only: 10^6 lines are made in bulk by SQL (`INSERT … SELECT generate_series`), which SQLite's test
database would take minutes to hold; the prepared-download tests of `gpurent/exports/tests/` cover the same paths
on both databases at a few lines. The server is gunicorn with *sync* workers and its default 30 s timeout, the
configuration under which the streamed statement was cut after its 200 status (a sync worker is killed when one
request outlasts the timeout, whatever it is doing): the statement is now written by a real `manage.py worker`
process, which no request timeout applies to, and the customer's requests (ask, read the progress, download the
stored file) are short. The download is checked whole: its length against `Content-Length`, its SHA-256 against
`Repr-Digest` and the export's `sha256`, its lines against the ledger (header, then one line per entry, the last
one at the full balance), and gunicorn's log must not show a worker killed for its timeout.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction

from gpurent.backoffice.tests.processes import database_url, start, stop
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="10^6 rows are made in bulk by PostgreSQL's SQL"),
]

ROOT = Path(__file__).resolve().parents[1]
LINES = 1_000_000
LEDGER_TABLES = ["ledger_ledgerentry", "ledger_ledgertransfer"]


def bulk_ledger(user: Any, lines: int) -> None:
    """`lines` credits of $1.00 to the customer, each a transfer from outside and the customer's entry with its
    balance after (the outside account's entries are left out: the statement does not read them), made by SQL in
    one transaction. As a restore does (pg_restore), the two tables' secondary indexes
    and foreign keys are dropped for the load and made again after it, from their own definitions: building an
    index once is far faster than updating it a million times, and re-adding a foreign key checks every row."""
    external, account = system_account(EXTERNAL_CRYPTO).pk, customer_account(user).pk
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = ANY(%s::regclass[]) AND contype IN ('f', 'u') ORDER BY contype, conname",
            [LEDGER_TABLES],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid ="
            " ANY(%s::regclass[]) AND NOT indisprimary AND indexrelid NOT IN (SELECT conindid FROM pg_constraint)",
            [LEDGER_TABLES],
        )
        indexes = cursor.fetchall()
        for table, name, _ in constraints:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {name}")
        cursor.execute(
            "WITH t AS (INSERT INTO ledger_ledgertransfer (reference, amount_cents, debit_account_id,"
            " credit_account_id, memo, created_at) SELECT 'deposit:D-' || g, 100, %s, %s, '', now()"
            " FROM generate_series(1, %s) g RETURNING id, created_at)"
            " INSERT INTO ledger_ledgerentry (transfer_id, account_id, direction, amount_cents, balance_after_cents,"
            " created_at) SELECT id, %s, 'credit', 100, 100 * row_number() OVER (ORDER BY id), created_at FROM t",
            [external, account, lines, account],
        )
        for _, definition in indexes:
            cursor.execute(definition)
        for table, name, definition in reversed(constraints):  # unique constraints first: the keys refer to them
            cursor.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        cursor.execute("UPDATE ledger_ledgeraccount SET balance_cents = %s WHERE id = %s", [100 * lines, account])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ledger_ledgerentry, ledger_ledgertransfer")


@contextmanager
def gunicorn_sync(log: Path) -> Iterator[int]:
    """gunicorn with two sync workers (its default class) and its default 30 s timeout, on a free port of
    127.0.0.1, against the test database and its real task queue; yields the port."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "GPURENT_TEST_TASKS": "database",
    }
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2"]
    with log.open("ab") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):  # up to a minute for the workers to boot on a busy machine
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("gunicorn did not start: " + log.read_text()[-3000:])
        yield port
    finally:
        server.terminate()
        server.wait(timeout=60)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def request(port: int, method: str, path: str, headers: dict[str, str] | None = None, body: Any = None) -> Any:
    """(status, headers, JSON or bytes) of one request."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        client.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers or {})
        response = client.getresponse()
        content = response.read()
        kind = response.getheader("Content-Type", "")
        return (
            response.status,
            response.headers,
            json.loads(content) if kind.startswith("application/json") else content,
        )
    finally:
        client.close()


def download(port: int, path: str, headers: dict[str, str]) -> tuple[int, int, str, list[bytes], int, Any]:
    """Read the file a megabyte at a time: (status, bytes received, their SHA-256, its first two and last lines,
    how many lines, the response headers). Nothing of the size of the file is held."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        client.request("GET", path, headers=headers)
        response = client.getresponse()
        digest, size, lines, head, tail = hashlib.sha256(), 0, 0, b"", b""
        while chunk := response.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
            lines += chunk.count(b"\n")
            head = head or chunk[:200]
            tail = (tail + chunk)[-200:]
        return (
            response.status,
            size,
            digest.hexdigest(),
            [*head.splitlines()[:2], tail.splitlines()[-1]],
            lines,
            response.headers,
        )
    finally:
        client.close()


def test_the_statement_at_a_million_lines_arrives_whole(customer_with_token, tmp_path):
    customer, token = customer_with_token("million@example.com", first_name="Mil", last_name="Lion")
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    started = time.monotonic()
    bulk_ledger(customer, LINES)
    loaded = time.monotonic()
    server_log, worker_log = tmp_path / "gunicorn.log", tmp_path / "worker.log"
    worker = start(["worker", "--interval", "0.2"], worker_log, name="million-worker")
    try:
        with gunicorn_sync(server_log) as port:
            status, _, body = request(port, "GET", "/api/v1/balance/summary.csv", auth)
            assert (status, body["error"]["code"]) == (409, "download_too_large")  # nothing long inside a request
            status, _, export = request(port, "POST", "/api/v1/exports", {**auth, "Idempotency-Key": "m-1"},
                                        {"kind": "balance.csv"})  # fmt: skip
            assert status == 202, export
            seen = {export["state"]}
            # The bound only turns a hang into a failure (the worker's log is shown); it is not a measure of speed.
            deadline = time.monotonic() + 900
            while export["state"] in ("queued", "writing") and time.monotonic() < deadline:
                time.sleep(0.5)
                export = request(port, "GET", f"/api/v1/exports/{export['id']}", auth)[2]
                seen.add(export["state"])
                assert export["rows_done"] <= export["rows_total"] or export["rows_total"] == 0
            written = time.monotonic()
            assert export["state"] == "ready", worker_log.read_text()[-3000:]
            assert "writing" in seen  # the progress was visible while it was written
            status, size, sha256, lines, count, headers = download(port, export["file_url"], auth)
            done = time.monotonic()
    finally:
        stop(worker)
    assert status == 200
    assert size == int(headers["Content-Length"]) == export["size_bytes"]
    assert sha256 == export["sha256"]
    assert headers["Repr-Digest"] == f"sha-256=:{base64.b64encode(bytes.fromhex(sha256)).decode()}:"
    assert (export["rows_total"], export["rows_done"], count) == (LINES, LINES, LINES + 1)
    header, first, last = (line.decode() for line in lines)
    assert header == "at,reference,direction,amount_usd,balance_after_usd,memo,payout_detail"
    assert first.split(",")[1:5] == ["deposit:D-1", "credit", "1.00", "1.00"]
    assert last.split(",")[1:5] == [f"deposit:D-{LINES}", "credit", "1.00", f"{LINES}.00"]
    assert "WORKER TIMEOUT" not in server_log.read_text()
    print(  # the figures the report quotes (pytest -s)
        f"\n10^6 lines: load {loaded - started:.1f} s, written by the worker {written - loaded:.1f} s"
        f" ({size / 1e6:.1f} MB), downloaded {done - written:.1f} s"
    )
