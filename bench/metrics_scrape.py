"""Benchmark: one scrape of /metrics on a sizeable shop, as a ratio against /healthz in the same run (issue 28).

    .venv/bin/python bench/metrics_scrape.py [--database-url postgres://postgres@127.0.0.1:5432/gpurent_metrics_bench]
        [--orders 100000] [--requests 7] [--keep | --reuse]

Creates the database of the URL (dropped first if it exists, unless `--reuse`), migrates it and writes, in bulk:
`--orders` orders over every status (one payment intent each, half of them confirmed after 1 to 240 minutes), as
many finished tasks plus a few queued and running ones, a tenth as many provisioning runs, 20 GPU hosts with 80
GPUs, half of them rented, and a week of agent calls (a check per host per minute: 201,600 rows). Then it times in
process (Django's test client, the test settings) `GET /healthz` (one `SELECT 1`, the baseline) and `GET
/metrics` with its token: median time, its ratio to the baseline, the queries of one scrape and the slowest of
them, and the business collection's own time as /metrics reports it. The database is dropped unless `--keep`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TOKEN = "bench-metrics-token"  # noqa: S105 (the bench's own token)


def _prepare(url: str, reuse: bool) -> None:
    server, _, name = url.rpartition("/")
    if not name.isidentifier():
        raise SystemExit("the database name must be a plain identifier")
    if reuse:
        return
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')


def _drop(url: str) -> None:
    server, _, name = url.rpartition("/")
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _write_history(orders_count: int) -> None:
    from datetime import timedelta

    from django.utils import timezone
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from gpurent.accounts.models import User
    from gpurent.catalog.models import GpuModel
    from gpurent.hosts.models import GpuAllocation, GpuHost, HostOperation, HostRental
    from gpurent.monitoring.testing import intents_bulk, orders_bulk
    from gpurent.orders.models import ProvisioningRun
    from gpurent.payments.models import ChainCursor, IntentStatus

    now = timezone.now()
    owner = User.objects.create_user(
        "bench-metrics@example.com", "a long bench passphrase", first_name="B", last_name="M"
    )
    gpu = GpuModel.objects.order_by("pk").first()
    assert gpu is not None
    states = [
        ("awaiting_payment", "not_started", 0.05),
        ("expired", "not_started", 0.25),
        ("cancelled", "not_started", 0.05),
        ("paid", "ready", 0.10),
        ("paid", "ended", 0.50),
        ("paid", "failed", 0.05),
    ]
    made = []
    for index, (payment, provisioning, share) in enumerate(states):
        made += orders_bulk(
            owner=owner,
            gpu=gpu,
            count=int(orders_count * share),
            payment_status=payment,
            provisioning_status=provisioning,
            prefix=f"B{index}",
        )
    half = len(made) // 2
    intents_bulk(orders=made[:half], asset="USDT", network="tron", status=IntentStatus.EXPIRED)
    for minutes in (1, 5, 30, 240):
        part = made[half:][minutes % 4 :: 4]
        intents_bulk(
            orders=part,
            asset="BTC",
            network="bitcoin",
            status=IntentStatus.CONFIRMED,
            confirmed_after=timedelta(minutes=minutes),
        )
    tasks: list[DBTaskResult] = [
        DBTaskResult(
            status=TaskResultStatus.SUCCESSFUL,
            args_kwargs={"args": [n], "kwargs": {}},
            task_path="gpurent.core.emails.deliver_email",
            backend_name="default",
            run_after=now,
        )
        for n in range(orders_count)
    ]
    tasks += [
        DBTaskResult(
            status=status,
            args_kwargs={"args": [], "kwargs": {}},
            task_path="gpurent.core.emails.deliver_email",
            backend_name="default",
            run_after=now,
            started_at=now,
        )
        for status in [TaskResultStatus.READY] * 20 + [TaskResultStatus.RUNNING] * 3
    ]
    DBTaskResult.objects.bulk_create(tasks, batch_size=5_000)
    ProvisioningRun.objects.bulk_create(
        [
            ProvisioningRun(order=order, command="provision", exit_code=0, finished_at=now)
            for order in made[: orders_count // 10]
        ],
        batch_size=5_000,
    )
    hosts = GpuHost.objects.bulk_create(
        [
            GpuHost(
                name=f"node-{n}",
                address="192.0.2.1",
                gpu=gpu,
                gpu_indices=[0, 1, 2, 3],
                host_key="k",
                host_key_fingerprint="f",
                inventory={"gpus": [{"index": i} for i in range(4)]},
            )
            for n in range(20)
        ]
    )
    for n, host in enumerate(hosts[:10]):
        rental = HostRental.objects.create(order=made[n], host=host, username=f"bench-{n}", state="active")
        GpuAllocation.objects.bulk_create([GpuAllocation(host=host, index=i, rental=rental) for i in range(4)])
    week = [
        HostOperation(
            host=host, operation="check", ok=True, duration_ms=150, started_at=now - timedelta(minutes=minute)
        )
        for host in hosts
        for minute in range(7 * 24 * 60)
    ]
    HostOperation.objects.bulk_create(week, batch_size=10_000)
    for network in ("bitcoin", "ethereum", "tron"):
        ChainCursor.objects.create(network=network, height=1_000, tip_height=1_010, tip_seen_at=now)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _time(client: Any, url: str, requests: int, headers: dict[str, str]) -> float:
    timings = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/gpurent_metrics_bench")
    parser.add_argument("--orders", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=7)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    _prepare(args.database_url, args.reuse)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.METRICS_TOKEN = TOKEN
    if not args.reuse:
        call_command("migrate", verbosity=0)
        call_command("load_demo", verbosity=0)
        started = time.perf_counter()
        _write_history(args.orders)
        print(f"history written in {time.perf_counter() - started:.0f} s")
    client = Client()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    baseline = _time(client, "/healthz", args.requests, {})
    settings.METRICS_BUSINESS_CACHE_SECONDS = 0  # every scrape counts
    scrape = _time(client, "/metrics", args.requests, auth)
    with CaptureQueriesContext(connection) as captured:
        body = client.get("/metrics", headers=auth).content.decode()
    # Read now: the next request's start clears the connection's log of queries.
    queries = sorted(captured.captured_queries, key=lambda query: -float(query["time"]))
    collect = next(line for line in body.splitlines() if line.startswith("gpurent_business_collect_duration_seconds "))
    settings.METRICS_BUSINESS_CACHE_SECONDS = 15  # the default: the count of an earlier scrape, from the cache
    client.get("/metrics", headers=auth)
    cached = _time(client, "/metrics", args.requests, auth)
    counting = float(collect.split()[1]) * 1000
    print(
        f"orders: {args.orders}; /healthz median {baseline * 1000:.1f} ms; /metrics counting median "
        f"{scrape * 1000:.1f} ms (x{scrape / baseline:.1f}), {len(queries)} queries, {counting:.0f} ms of them "
        f"counting the business; /metrics from the cache median {cached * 1000:.1f} ms (x{cached / baseline:.1f})"
    )
    for query in queries[:3]:
        print(f"  {float(query['time']) * 1000:.1f} ms: {query['sql'][:110]}")
    if not args.keep:
        _drop(args.database_url)


if __name__ == "__main__":
    main()
