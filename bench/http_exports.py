"""Issue 30's download target for bench/http_bench.py: the balance statement at 10^6 lines arrives complete.

Run by `http_bench.py` as part 10, after part 4 has given the "big" customer `--big` ledger lines (it passes
itself as `bench`, so the target lands in its one table). A real `manage.py worker` is started with the server's
settings and database (the bench's gunicorn runs no worker), then, as an API client would:

1. `GET /api/v1/balance/summary.csv` must answer 409 `download_too_large`: no long history is written inside a
   request any more (decision 0430).
2. `POST /api/v1/exports {"kind": "balance.csv"}`, then `GET /api/v1/exports/{id}` every half second until it
   is `ready` (the progress is printed), then the file, read a megabyte at a time.
3. The file is complete when its length is `Content-Length` and the export's `size_bytes`, its SHA-256 is the
   export's `sha256` (and `Repr-Digest`'s), and it holds the header and one line per ledger line. The target's
   ratio is the lines received over the lines in the ledger; it passes only when all of that holds.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _call(port: int, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def _download(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], int, str, int]:
    """(status, headers, bytes, SHA-256, lines) of the file, read a megabyte at a time."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        digest, size, lines = hashlib.sha256(), 0, 0
        while chunk := response.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
            lines += chunk.count(b"\n")
        return response.status, dict(response.headers), size, digest.hexdigest(), lines
    finally:
        connection.close()


def statement_at_big(bench: ModuleType, port: int, big_api: dict[str, str], lines: int) -> None:
    """Part 10 (see the module docstring)."""
    print(f"\n10. the balance statement at {lines:,} lines, prepared by the worker and downloaded over HTTP")
    headers = {**big_api, "Content-Type": "application/json"}
    with tempfile.TemporaryFile() as log:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--interval", "0.2"],
            cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            direct, body = _call(port, "GET", "/api/v1/balance/summary.csv", headers)
            print(f"  GET /api/v1/balance/summary.csv: {direct} {(body or {}).get('error', {}).get('code', '')}")
            started = time.perf_counter()
            status, export = _call(port, "POST", "/api/v1/exports", {**headers, "Idempotency-Key": uuid.uuid4().hex},
                                   {"kind": "balance.csv"})  # fmt: skip
            if status != 202:
                raise SystemExit(f"POST /api/v1/exports: {status} {export}")
            shown = 0.0
            while export["state"] in ("queued", "writing"):
                time.sleep(0.5)
                export = _call(port, "GET", f"/api/v1/exports/{export['id']}", headers)[1]
                if time.perf_counter() - shown >= 5:
                    print(f"  {time.perf_counter() - started:5.0f} s  {export['state']:8} {export['rows_done']:>9,}"
                          f" of {export['rows_total']:,} lines")  # fmt: skip
                    shown = time.perf_counter()
            prepared = time.perf_counter()
            if export["state"] != "ready":
                log.seek(0)
                raise SystemExit(f"the export {export['state']}: {log.read().decode(errors='replace')[-3000:]}")
            status, got, size, sha256, received = _download(port, export["file_url"], headers)
            done = time.perf_counter()
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    digest = f"sha-256=:{base64.b64encode(bytes.fromhex(export['sha256'])).decode()}:"
    checks = {
        "status 200": status == 200,
        "length = Content-Length = size_bytes": size == int(got.get("Content-Length", -1)) == export["size_bytes"],
        "SHA-256 = sha256 = Repr-Digest": sha256 == export["sha256"] and got.get("Repr-Digest") == digest,
        "lines = ledger lines + header": received == lines + 1 and export["rows_done"] == lines,
        "the direct download refused (409)": direct == 409,
    }
    print(f"  prepared in {prepared - started:.1f} s ({export['size_bytes'] / 1e6:.1f} MB),"
          f" downloaded in {done - prepared:.1f} s; {received - 1:,} lines received")  # fmt: skip
    for name, held in checks.items():
        print(f"  {'ok ' if held else 'NOT'} {name}")
    bench.report(f"balance CSV at {lines:,} lines: lines received / in the ledger", (received - 1) / lines, "= 1 whole",
                 all(checks.values()))  # fmt: skip
