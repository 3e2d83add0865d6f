"""Benchmark: the operator's dashboard on a year of history, as a ratio against a trivial view in the same run.

    .venv/bin/python bench/dashboard.py --database-url postgres://postgres@127.0.0.1:5432/gpurent_dashboard \\
        [--replace] [--keep | --reuse] [--orders 100000] [--ledger-lines 1000000] [--requests 5]

Creates the database NAME of the URL (refused if it exists, unless `--replace` drops it first), migrates it, loads
the demo catalog and writes a year of history (`bench/dashboard_history.py`: 10^5 orders, 10^6 ledger lines by
default), then times in process, with Django's test client and the test settings, `GET /healthz` (one
`SELECT 1`, the baseline) and the dashboard for each period (30, 90, 365 days), signed in as a superuser:
median time per request, its ratio to the baseline, the queries per page and the slowest query of each page.
The database is dropped at the end unless `--keep`; `--reuse` times a database kept before, without writing
history again. A `sqlite:///PATH` URL works too (a file written from scratch, or reused).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

URL = "/backoffice/backoffice/dashboard/"
OPERATOR = "dashboard-bench@example.com"


def _server_and_name(url: str) -> tuple[str, str]:
    server, _, name = url.rpartition("/")
    if not name.isidentifier():
        raise SystemExit("the database name must be a plain identifier")
    return server, name


def _prepare_database(args: argparse.Namespace) -> bool:
    """Create the database (True: history is to be written) or find the one to reuse (False)."""
    if args.database_url.startswith("sqlite:///"):
        path = Path(args.database_url.removeprefix("sqlite:///"))
        if args.reuse:
            return False
        if path.exists() and not args.replace:
            raise SystemExit(f"{path} exists: pass --replace to write it again, or --reuse")
        path.unlink(missing_ok=True)
        return True
    server, name = _server_and_name(args.database_url)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and args.reuse:
            return False
        if exists and not args.replace:
            raise SystemExit(f"database {name} exists: pass --replace to drop it, or --reuse to time it again")
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    return True


def _drop_database(args: argparse.Namespace) -> None:
    from django.db import connections

    connections.close_all()
    if args.database_url.startswith("sqlite:///"):
        Path(args.database_url.removeprefix("sqlite:///")).unlink(missing_ok=True)
        return
    server, name = _server_and_name(args.database_url)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _write_history(args: argparse.Namespace) -> None:
    from dashboard_history import history_generate
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    started = time.perf_counter()
    counts = history_generate(orders=args.orders, ledger_lines=args.ledger_lines, now=timezone.now())
    written = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")  # as autovacuum would soon after a load: fresh statistics
    print(f"history written in {written:.0f} s: " + ", ".join(f"{count:,} {name}" for name, count in counts.items()))


def _time(client: object, path: str, query: dict[str, str], requests: int) -> tuple[float, int, tuple[float, str]]:
    from django.db import connection, reset_queries
    from django.test.utils import override_settings

    get = client.get  # type: ignore[attr-defined]
    for _ in range(2):  # warm-up: templates, URL caches, the database's own caches
        assert get(path, query).status_code == 200, path
    timings = []
    for _ in range(requests):
        started = time.perf_counter()
        get(path, query)
        timings.append((time.perf_counter() - started) * 1000)
    with override_settings(DEBUG=True):  # counted in a request of its own: recording queries costs time
        reset_queries()
        get(path, query)
        queries = list(connection.queries)
    slowest = max(queries, key=lambda q: float(q["time"]), default={"time": "0", "sql": ""})
    return statistics.median(timings), len(queries), (float(slowest["time"]) * 1000, slowest["sql"][:150])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="postgres://…/NAME (created) or sqlite:///PATH")
    parser.add_argument("--replace", action="store_true", help="drop the database first if it exists")
    parser.add_argument("--keep", action="store_true", help="keep the database (and its history) after the run")
    parser.add_argument("--reuse", action="store_true", help="time a database kept by an earlier --keep run")
    parser.add_argument("--orders", type=int, default=100_000, help="rentals placed over the year (default 10^5)")
    parser.add_argument("--ledger-lines", type=int, default=1_000_000, help="ledger entries (default 10^6)")
    parser.add_argument("--requests", type=int, default=5, help="timed requests per page (default 5)")
    args = parser.parse_args()

    fresh = _prepare_database(args)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from gpurent.accounts.models import User
    from gpurent.ledger.models import LedgerEntry
    from gpurent.orders.models import Order

    try:
        if fresh:
            _write_history(args)
        operator = User.objects.filter(email=OPERATOR).first() or User.objects.create_superuser(
            OPERATOR, "bench passphrase", first_name="Bench", last_name="Operator"
        )
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(operator)
        print(
            f"database: {connection.vendor}, {Order.objects.count():,} orders, {LedgerEntry.objects.count():,} "
            f"ledger lines; {args.requests} requests per page, median time per request"
        )
        print(f"{'page':<36}{'median ms':>10}{'× baseline':>12}{'queries':>9}   slowest query")
        baseline = None
        for label, path, query in [
            ("baseline: /healthz", "/healthz", {}),
            ("dashboard, 30 days (the default)", URL, {}),
            ("dashboard, 90 days", URL, {"days": "90"}),
            ("dashboard, 365 days (in weeks)", URL, {"days": "365"}),
        ]:
            median, queries, (slow_ms, slow_sql) = _time(client, path, query, args.requests)
            baseline = baseline or median
            print(f"{label:<36}{median:>10.1f}{median / baseline:>12.1f}{queries:>9}   {slow_ms:.1f} ms {slow_sql}")
    finally:
        if not args.keep:
            _drop_database(args)


if __name__ == "__main__":
    main()
