"""CPU per page, in process: what a signed-in customer's page costs this process, beside `/healthz` (issue 30).

    .venv/bin/python bench/page_cpu.py --database-url postgres://postgres@127.0.0.1:5432/gpurent_pagecpu
        [--requests 300] [--lines 1000] [--profile balance] [--sort tottime] [--top 40] [NAME ...]

Creates (and drops after) the database of the URL, migrates it and loads the demo catalog (bench/inprocess.py),
gives one customer `--lines` ledger lines (bulk SQL, not postings) and a session, then sends each named request
through Django's test client with production settings, after 20 warm-up requests, and prints the median
`time.process_time()` (CPU of this process: Python and the database driver) and wall time per request, the
statements each sends and the ratio of its CPU to `/healthz`'s. `guides-700` is the signed-in guide index after
the catalog has grown to 700 GPU models (copies of the last one); it runs last. `--profile NAME` adds a cProfile
of that request. Compare before and after in alternating runs: CPU time still moves with other work.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inprocess import add_database_arguments, scratch_django

NAMES = ("healthz", "anon-home", "home", "gpu", "balance", "guides", "guides-700")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_database_arguments(parser)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--lines", type=int, default=1000, help="ledger lines of the customer (the balance page)")
    parser.add_argument("--profile", choices=NAMES)
    parser.add_argument("--sort", default="cumulative", help="pstats order: cumulative, tottime, ...")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("names", nargs="*", help=f"pages to time, of {', '.join(NAMES)} (default: all)")
    args = parser.parse_args()
    if unknown := sorted(set(args.names) - set(NAMES)):
        parser.error(f"unknown page {', '.join(unknown)}: choose among {', '.join(NAMES)}")
    args.names = [name for name in NAMES if name in (args.names or NAMES)]
    with scratch_django(parser, args):
        run(args)


def ledger_lines(user_id: int, lines: int) -> None:
    """`lines` credits of $1.23 on the customer's account, in bulk (transfers and entries)."""
    from django.db import connection

    with connection.cursor() as cursor:
        ids = []
        for code, kind, customer in [
            ("external:crypto", "external", None),
            (f"customer:{user_id}", "customer", user_id),
        ]:
            cursor.execute(
                "INSERT INTO ledger_ledgeraccount (code, kind, customer_id, balance_cents, created_at) "
                "VALUES (%s, %s, %s, 0, now()) ON CONFLICT (code) DO UPDATE SET code = EXCLUDED.code RETURNING id",
                [code, kind, customer],
            )
            ids.append(cursor.fetchone()[0])
        external, account = ids
        cursor.execute(
            "INSERT INTO ledger_ledgertransfer (reference, amount_cents, debit_account_id, credit_account_id, memo,"
            " created_at) SELECT 'bench:' || %s || ':' || g, 123, %s, %s, 'bench', now() FROM generate_series(1, %s) g",
            [user_id, external, account, lines],
        )
        cursor.execute(
            "INSERT INTO ledger_ledgerentry (transfer_id, account_id, direction, amount_cents, balance_after_cents,"
            " created_at) SELECT id, %s, 'credit', 123, 123 * row_number() OVER (ORDER BY id), created_at"
            " FROM ledger_ledgertransfer WHERE credit_account_id = %s ORDER BY id",
            [account, account],
        )
        cursor.execute("UPDATE ledger_ledgeraccount SET balance_cents = %s WHERE id = %s", [123 * lines, account])
        cursor.execute("ANALYZE")


def grow_catalog(total: int) -> None:
    """Copies of the last GPU model until `total` models are on sale (as bench/http_bench.py part 5 does)."""
    from gpurent.catalog.models import GpuModel

    template = GpuModel.objects.order_by("-position").first()
    assert template is not None
    copies = []
    for index in range(total - GpuModel.objects.count()):
        copies.append(
            GpuModel(
                **{
                    **{f.attname: getattr(template, f.attname) for f in GpuModel._meta.concrete_fields},
                    "id": None,
                    "slug": f"{template.slug}-x{index}",
                    "name": f"{template.name} x{index}",
                    "position": template.position + index + 1,
                }
            )
        )
    GpuModel.objects.bulk_create(copies)


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from gpurent.catalog.models import GpuModel

    call_command("collectstatic", "--noinput", verbosity=0)  # pages link the manifest's hashed names
    user = get_user_model().objects.create_user("page@example.com", "bench passphrase", first_name="P", last_name="C")
    ledger_lines(user.pk, args.lines)
    signed_in, anonymous = Client(), Client()
    signed_in.force_login(user)
    gpu = GpuModel.objects.order_by("position", "name").first()
    assert gpu is not None
    requests: dict[str, Callable[[], Any]] = {
        "healthz": lambda: anonymous.get("/healthz"),
        "anon-home": lambda: anonymous.get("/"),
        "home": lambda: signed_in.get("/"),
        "gpu": lambda: signed_in.get(f"/gpus/{gpu.slug}/"),
        "balance": lambda: signed_in.get("/balance/"),
        "guides": lambda: signed_in.get("/guides/"),
        "guides-700": lambda: signed_in.get("/guides/"),
    }
    print(f"{'page':11} {'CPU ms':>7} {'wall ms':>8} {'× healthz':>10} {'queries':>8} {'KB':>6}")
    healthz_cpu = None
    for name in args.names:
        if name == "guides-700":
            grow_catalog(700)
        send = requests[name]
        for _ in range(20):
            response = send()
            assert response.status_code == 200, (name, response.status_code)
        sent: list[str] = []

        def count(execute: Callable[..., Any], sql: str, *rest: Any, sent: list[str] = sent) -> Any:
            sent.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):
            send()  # (a CaptureQueriesContext would be emptied by the request_started signal)
        # CPU time, as the table: waiting for PostgreSQL is not this process's cost.
        profile = cProfile.Profile(time.process_time) if args.profile == name else None
        cpu, wall = [], []
        if profile:
            profile.enable()
        for _ in range(args.requests):
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            response = send()
            cpu.append(time.process_time() - cpu_start)
            wall.append(time.perf_counter() - wall_start)
        if profile:
            profile.disable()
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
        median_cpu = 1000 * statistics.median(cpu)
        healthz_cpu = median_cpu if name == "healthz" else healthz_cpu
        ratio = f"{median_cpu / healthz_cpu:9.1f}×" if healthz_cpu else f"{'':10}"
        print(
            f"{name:11} {median_cpu:7.2f} {1000 * statistics.median(wall):8.2f} {ratio} "
            f"{len(sent):8} {len(response.content) / 1024:6.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
