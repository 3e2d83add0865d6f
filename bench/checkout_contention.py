"""Benchmark: placing orders for one GPU model under contention, against a raw SQL baseline in the same run.

    .venv/bin/python bench/checkout_contention.py [--threads 8] [--orders 400] [--database-url URL]

Every thread places orders for the same GPU model (the hottest row of the shop). The baseline is the bare
minimum a correct reservation needs: the raw conditional UPDATE `stock_lots = stock_lots - 1 WHERE
stock_lots >= 1`, autocommit, over one raw psycopg connection per thread on PostgreSQL (Django's connection
on SQLite), the same number of threads. The service does that plus the order row, its two status-change
rows, its email and the reference. Reported: orders per second and p95 latency of each, the ratios, and the
lock window: from the moment the reserving UPDATE returns (the stock row is locked) to the moment COMMIT
returns (timed around the connection's commit, before on-commit callbacks). Each thread is its own customer.
Use PostgreSQL for meaningful contention (`--database-url postgres://...` to an empty scratch database).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed_run(threads: int, per_thread: int, operation: Callable[[int], None]) -> tuple[float, float]:
    """Run `operation` `per_thread` times in each of `threads` threads; return (ops per second, p95 ms)."""
    from django.db import connections

    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(threads + 1)

    def worker(index: int) -> None:
        mine = []
        barrier.wait()
        for _ in range(per_thread):
            start = time.perf_counter()
            operation(index)
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)
        connections.close_all()

    pool = [threading.Thread(target=worker, args=(index,)) for index in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - start
    p95 = statistics.quantiles(latencies, n=20)[18]
    return len(latencies) / elapsed, p95 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--orders", type=int, default=400, help="orders (and baseline updates) in total")
    parser.add_argument("--database-url", help="defaults to a scratch SQLite file")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, connections, transaction

    from gpurent.catalog.models import GpuModel
    from gpurent.orders.models import Order
    from gpurent.orders.services import Contact, order_place

    call_command("migrate", verbosity=0)
    # One customer per thread, as in a shop where eight buyers want the same model: they contend for its stock
    # row only. One customer's own placements also wait for each other on the owner's row (decision 0122).
    users = [
        get_user_model().objects.create_user(f"bench{i}@example.com", "bench passphrase", first_name="B", last_name="B")
        for i in range(args.threads)
    ]
    gpu = GpuModel.objects.create(
        slug="bench-gpu", name="Bench GPU", vendor="NVIDIA", stack="CUDA", memory_mib_per_card=81920,
        stock_lots=10**6, price_3d_cents=100, price_7d_cents=200, price_30d_cents=300, summary="bench",
    )  # fmt: skip
    per_thread = args.orders // args.threads
    table = GpuModel._meta.db_table

    reserve_sql = f"UPDATE {table} SET stock_lots = stock_lots - 1 WHERE id = %s AND stock_lots >= 1"  # noqa: S608
    raw = threading.local()

    def raw_reserve(_: int) -> None:
        if connection.vendor != "postgresql":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(reserve_sql, [gpu.pk])
            return
        if not hasattr(raw, "connection"):
            import psycopg

            raw.connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        raw.connection.execute(reserve_sql, [gpu.pk])

    windows: list[float] = []
    locked = threading.local()

    def lock_window(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        result = execute(sql, params, many, context)
        if sql.startswith(f'UPDATE "{table}" SET "stock_lots"'):  # noqa: S608
            locked.at = time.perf_counter()
        return result

    # The window ends when COMMIT returns (the row lock is released at commit): timed around the connection's
    # commit itself, before any on-commit callback (the email's rendering) runs.
    database_wrapper = type(connections["default"])
    plain_commit = database_wrapper._commit

    def timed_commit(self):  # type: ignore[no-untyped-def]
        result = plain_commit(self)
        start = getattr(locked, "at", None)
        if start is not None:
            windows.append(time.perf_counter() - start)
            locked.at = None
        return result

    database_wrapper._commit = timed_commit  # type: ignore[method-assign]
    contact = Contact("B", "B", "bench@example.com")

    def place(index: int) -> None:
        with connection.execute_wrapper(lock_window):
            order_place(
                owner=users[index], gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact
            )

    # The issue asks whether stock in a narrow table of its own would pay: the same raw UPDATE on a two-column
    # copy of the row, measured in the same run (PostgreSQL only; decision 0250).
    narrow_sql = "UPDATE bench_stock SET stock_lots = stock_lots - 1 WHERE gpu_id = %s AND stock_lots >= 1"

    def raw_reserve_narrow(_: int) -> None:
        if not hasattr(raw, "connection"):
            import psycopg

            raw.connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        raw.connection.execute(narrow_sql, [gpu.pk])

    timed_run(args.threads, 5, raw_reserve)  # warm-up: connections, statement caches
    baseline = timed_run(args.threads, per_thread, raw_reserve)
    narrow = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TABLE bench_stock (gpu_id bigint PRIMARY KEY, stock_lots integer CHECK (stock_lots >= 0))"
            )
            cursor.execute("INSERT INTO bench_stock VALUES (%s, %s)", [gpu.pk, 10**6])
        narrow = timed_run(args.threads, per_thread, raw_reserve_narrow)
    service = timed_run(args.threads, per_thread, place)
    assert Order.objects.count() == per_thread * args.threads
    print(f"database: {connection.vendor}, {args.threads} threads, {per_thread * args.threads} operations of each kind")
    print(f"{'operation':42} {'per second':>11} {'p95 ms':>8}")
    print(f"{'baseline: raw conditional UPDATE':42} {baseline[0]:11.0f} {baseline[1]:8.2f}")
    if narrow is not None:
        print(f"{'raw conditional UPDATE, narrow stock table':42} {narrow[0]:11.0f} {narrow[1]:8.2f}")
    print(f"{'order_place (reserve + order + history)':42} {service[0]:11.0f} {service[1]:8.2f}")
    throughput, p95 = service[0] / baseline[0], service[1] / baseline[1]
    print(f"ratio: throughput {throughput:.2f}× the baseline, p95 latency {p95:.1f}× the baseline")
    window_ms = sorted(window * 1000 for window in windows)
    median, p95_window = statistics.median(window_ms), statistics.quantiles(window_ms, n=20)[18]
    print(f"lock window (reserving UPDATE returned → COMMIT returned): median {median:.3f} ms, p95 {p95_window:.3f} ms")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            print(f"synchronous_commit: {cursor.fetchone()[0]}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
