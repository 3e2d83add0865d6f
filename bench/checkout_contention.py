"""Benchmark: placing orders for one GPU model under contention, against a raw SQL baseline in the same run.

    .venv/bin/python bench/checkout_contention.py [--threads 8 | --processes 8] [--orders 400] [--database-url URL]

Every thread places orders for the same GPU model (the hottest row of the shop). The baseline is the bare
minimum a correct reservation needs: the raw conditional UPDATE `stock_lots = stock_lots - 1 WHERE
stock_lots >= 1`, autocommit, over one raw psycopg connection per thread on PostgreSQL (Django's connection
on SQLite), the same number of threads. The service does that plus the order row, its two status-change
rows, its email and the reference. Reported: orders per second and p95 latency of each, the ratios, and the
lock window: from the moment the reserving UPDATE returns (the stock row is locked) to the moment COMMIT
returns (timed around the connection's commit, before on-commit callbacks). Each thread is its own customer.
Use PostgreSQL for meaningful contention (`--database-url postgres://...` to an empty scratch database).

`--processes N` runs the N buyers (baseline and narrow-table updates included) as N processes instead of N threads
of one process: each starts with `spawn`, sets Django up and opens its own connections, so a buyer whose UPDATE
has returned does not wait for the load client's GIL before sending COMMIT (decision 0275).
"""

from __future__ import annotations

import argparse
import multiprocessing
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


def setup_django() -> None:
    """Set Django up on the database named by DATABASE_URL (set by `main`, inherited by spawned processes)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()


def build_operation(kind: str, gpu_pk: int, user_pks: list[int], windows: list[float]) -> Callable[[int], None]:
    """The operation a buyer repeats: "raw" or "narrow" (conditional UPDATE) or "place" (`order_place`).

    A placement's lock window (reserving UPDATE returned → COMMIT returned) is appended to `windows`.
    """
    from django.contrib.auth import get_user_model
    from django.db import connection, connections, transaction

    from gpurent.catalog.models import GpuModel
    from gpurent.orders.services import Contact, order_place

    table = GpuModel._meta.db_table
    raw = threading.local()

    def raw_update(sql: str) -> None:
        if connection.vendor != "postgresql":
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [gpu_pk])
            return
        if not hasattr(raw, "connection"):
            import psycopg

            raw.connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        raw.connection.execute(sql, [gpu_pk])

    if kind == "raw":
        reserve_sql = f"UPDATE {table} SET stock_lots = stock_lots - 1 WHERE id = %s AND stock_lots >= 1"  # noqa: S608
        return lambda _: raw_update(reserve_sql)
    if kind == "narrow":
        narrow_sql = "UPDATE bench_stock SET stock_lots = stock_lots - 1 WHERE gpu_id = %s AND stock_lots >= 1"
        return lambda _: raw_update(narrow_sql)

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
    users = list(get_user_model().objects.filter(pk__in=user_pks).order_by("pk"))
    gpu_slug = GpuModel.objects.get(pk=gpu_pk).slug
    contact = Contact("B", "B", "bench@example.com")

    def place(index: int) -> None:
        with connection.execute_wrapper(lock_window):
            order_place(
                owner=users[index], gpu_slug=gpu_slug, term_days=7, lots=1, environment="ubuntu", contact=contact
            )

    return place


def process_buyer(job: tuple[str, int, int, list[int]], index: int, barrier, results) -> None:  # type: ignore[no-untyped-def]
    """One buyer in a process of its own: set up, connect, wait for the others, run, report (latencies, windows)."""
    kind, per_worker, gpu_pk, user_pks = job
    setup_django()
    from django.db import connection

    windows: list[float] = []
    operation = build_operation(kind, gpu_pk, user_pks, windows)
    # Warm-up before the clock starts, not counted: opens the connections and, for a placement, pays the fresh
    # process's first-use costs (imports, templates) that the threads mode pays once for all its buyers.
    operation(index)
    windows.clear()
    barrier.wait()
    latencies = []
    for _ in range(per_worker):
        start = time.perf_counter()
        operation(index)
        latencies.append(time.perf_counter() - start)
    connection.close()
    results.put((latencies, windows))


def process_run(buyers: int, job: tuple[str, int, int, list[int]], windows: list[float]) -> tuple[float, float]:
    """`timed_run` with one spawned process per buyer; the placements' lock windows are added to `windows`."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(buyers + 1), context.Queue()
    pool = [context.Process(target=process_buyer, args=(job, index, barrier, results)) for index in range(buyers)]
    for process in pool:
        process.start()
    barrier.wait()
    start = time.perf_counter()
    latencies: list[float] = []
    for _ in pool:
        mine, their_windows = results.get()
        latencies.extend(mine)
        windows.extend(their_windows)
    elapsed = time.perf_counter() - start
    for process in pool:
        process.join()
        if process.exitcode:
            raise SystemExit(f"a buyer process failed (exit code {process.exitcode})")
    p95 = statistics.quantiles(latencies, n=20)[18]
    return len(latencies) / elapsed, p95 * 1000


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    buyers = parser.add_mutually_exclusive_group()
    buyers.add_argument("--threads", type=int, help="buyers as threads of this process (default: 8 threads)")
    buyers.add_argument("--processes", type=int, help="buyers as processes of their own (spawn)")
    parser.add_argument("--orders", type=int, default=400, help="orders (and baseline updates) in total")
    parser.add_argument("--database-url", help="defaults to a scratch SQLite file")
    args = parser.parse_args(argv)
    args.buyers = next((count for count in (args.processes, args.threads) if count is not None), 8)
    if args.buyers < 1 or args.orders < args.buyers:
        parser.error("need at least one buyer and at least one order per buyer")
    return args


def main() -> None:
    args = parse_arguments()
    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch.name}/bench.sqlite3"
    setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from gpurent.catalog.models import GpuModel
    from gpurent.orders.models import Order

    call_command("migrate", verbosity=0)
    # One customer per buyer, as in a shop where eight buyers want the same model: they contend for its stock
    # row only. One customer's own placements also wait for each other on the owner's row (decision 0122).
    user_pks = [
        get_user_model()
        .objects.create_user(f"bench{i}@example.com", "bench passphrase", first_name="B", last_name="B")
        .pk
        for i in range(args.buyers)
    ]
    gpu = GpuModel.objects.create(
        slug="bench-gpu", name="Bench GPU", vendor="NVIDIA", stack="CUDA", memory_mib_per_card=81920,
        stock_lots=10**6, price_3d_cents=100, price_7d_cents=200, price_30d_cents=300, summary="bench",
    )  # fmt: skip
    per_worker = args.orders // args.buyers
    windows: list[float] = []

    def run(kind: str) -> tuple[float, float]:
        if args.processes:
            return process_run(args.buyers, (kind, per_worker, gpu.pk, user_pks), windows)
        return timed_run(args.buyers, per_worker, build_operation(kind, gpu.pk, user_pks, windows))

    if not args.processes:
        timed_run(args.buyers, 5, build_operation("raw", gpu.pk, user_pks, windows))  # warm-up: statement caches
    baseline = run("raw")
    # The issue asks whether stock in a narrow table of its own would pay: the same raw UPDATE on a two-column
    # copy of the row, measured in the same run (PostgreSQL only; decision 0250).
    narrow = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TABLE bench_stock (gpu_id bigint PRIMARY KEY, stock_lots integer CHECK (stock_lots >= 0))"
            )
            cursor.execute("INSERT INTO bench_stock VALUES (%s, %s)", [gpu.pk, 10**6])
        connection.close()  # spawned buyers must see the table committed (autocommit) and not share this connection
        narrow = run("narrow")
    service = run("place")
    assert Order.objects.count() == per_worker * args.buyers + (args.buyers if args.processes else 0)  # warm-ups
    mode = "processes" if args.processes else "threads"
    print(f"database: {connection.vendor}, {args.buyers} {mode}, {per_worker * args.buyers} operations of each kind")
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
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
