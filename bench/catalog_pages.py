"""Benchmark: the catalog pages and API, as ratios against a trivial view measured in the same run.

    .venv/bin/python bench/catalog_pages.py [--requests N] [--database-url URL]

Runs in process with Django's test client on a scratch database (SQLite by default) loaded with the demo
catalog. The baseline is `/healthz` (one `SELECT 1`); each page is reported as its median time per request
divided by the baseline's, so the ratio holds across machines. It also counts database queries per page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAGES = [
    ("baseline: /healthz", "/healthz", {}),
    ("catalog page /", "/", {}),
    ("GPU page /gpus/b200-2x180gb/", "/gpus/b200-2x180gb/", {}),
    ("htmx total /gpus/b200-2x180gb/quote/", "/gpus/b200-2x180gb/quote/?term=30&lots=2", {"HTTP_HX_REQUEST": "true"}),
    ("glossary /glossary/", "/glossary/", {}),
    ("API GET /api/v1/catalog", "/api/v1/catalog", {}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="timed requests per page (default 300)")
    parser.add_argument("--database-url", help="defaults to a scratch SQLite file")
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    client = Client(HTTP_HOST="127.0.0.1")
    rows = []
    with override_settings(DEBUG=True):  # DEBUG records queries so they can be counted
        for label, path, headers in PAGES:
            for _ in range(20):  # warm-up: template and URL caches
                client.get(path, **headers)
            reset_queries()
            assert client.get(path, **headers).status_code == 200, path
            queries = len(connection.queries)
            times = []
            for _ in range(args.requests):
                start = time.perf_counter()
                client.get(path, **headers)
                times.append(time.perf_counter() - start)
                reset_queries()
            rows.append((label, statistics.median(times), queries))
    baseline = rows[0][1]
    print(f"database: {connection.vendor}, {args.requests} requests per page, median time per request")
    print(f"{'page':45} {'median ms':>10} {'× baseline':>11} {'queries':>8}")
    for label, median, queries in rows:
        print(f"{label:45} {median * 1000:10.2f} {median / baseline:11.1f} {queries:8d}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
