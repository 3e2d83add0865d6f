"""Benchmark: peak memory of the whole-history downloads as the history grows (issues 16 and 30, decisions 0325, 0430).

    .venv/bin/python bench/export_memory.py [--sizes 1000,4000,12000]
        [--database-url postgres://postgres@127.0.0.1:5432/gpurent_exportmem]   (default: a scratch SQLite file)

For each size, one customer gets that many journal entries (each with one run and its two measurements, the
first and the steady phase), that many rental orders and ten times as many balance lines; then the worker writes
each whole-history file into its stored parts (`gpurent.exports.writing.export_write`, decision 0430): the
whole-journal JSON and Markdown (`journal_pieces`, decision 0290), the rentals CSV (`orders_csv`, decision 0270;
the CSV with the most columns and queries a page) and the balance statement (`balance_csv`), under `tracemalloc`.
Reported: the peak of traced memory above what was allocated before the writing, and how many full
(generation-2) collections the interpreter ran during it. Everything a size needs is created before its files
are written, the garbage collector is run once before each, and a first customer of 10 entries is written and
not shown (it loads what a process loads once), so each writing starts from the same state. A flat peak across
sizes is what a file written a page at a time must show (a page of rows, and one stored part of `PART_BYTES` on
its way to the database).

Then, on the largest journal, the median time per page of 200 entries of writing the page as the JSON export does
(`entry_data` and `json.dumps`), of `release` (what `keyset_chunks` does after each page, decision 0325), and of a
full `gc.collect()` (the alternative: its cost is a walk over every object of the process, whatever the page).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from inprocess import scratch_database  # noqa: E402

MIB = 1024 * 1024


def peak_of(write: Callable[[], object]) -> tuple[float, int]:
    """Peak traced memory (MiB above the start) and full collections run while `write` runs."""
    gc.collect()
    full_before = gc.get_stats()[2]["collections"]
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    write()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (peak - start) / MIB, gc.get_stats()[2]["collections"] - full_before


def page_costs(pages: Iterable[list[Any]], write: Callable[[Any], object]) -> tuple[float, float, float]:
    """Median ms per page of writing each row, of `release` of the page, and of a full collection after it."""
    from gpurent.core.pagination import release

    samples: tuple[list[float], list[float], list[float]] = ([], [], [])
    for page in pages:
        start = time.perf_counter()
        for row in page:
            write(row)
        written = time.perf_counter()
        release(page)
        released = time.perf_counter()
        gc.collect()
        collected = time.perf_counter()
        for times, seconds in zip(samples, (written - start, released - written, collected - released), strict=True):
            times.append(seconds * 1000)
    return statistics.median(samples[0]), statistics.median(samples[1]), statistics.median(samples[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000,12000", help="entries and orders per customer, ascending")
    parser.add_argument("--database-url", help="postgres://.../NAME: NAME is created and dropped (default: SQLite)")
    parser.add_argument("--replace", action="store_true", help="drop NAME first if it exists (it is refused else)")
    args = parser.parse_args()
    if args.database_url is None:
        # A scratch SQLite file: the rows a run creates never land in a real database.
        with tempfile.TemporaryDirectory() as scratch:
            run(args, f"sqlite:///{scratch}/bench.sqlite3")
    else:
        with scratch_database(parser, args):
            run(args, args.database_url)


def run(args: argparse.Namespace, database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.serializers.json import DjangoJSONEncoder
    from django.db import connection
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from conftest import make_gpu
    from gpurent.accounts.models import User
    from gpurent.accounts.owners import Owner
    from gpurent.exports.models import Export
    from gpurent.exports.writing import export_write
    from gpurent.journal.export import entry_data
    from gpurent.journal.models import JournalEntry, Measurement, Run
    from gpurent.journal.selectors import journal_pages_for_export
    from gpurent.ledger.models import LedgerEntry, LedgerTransfer
    from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account
    from gpurent.orders.models import Order

    def balance_lines(user: User, count: int) -> None:
        """`count` credits of $1 to the customer, in bulk (a transfer and the customer's entry each)."""
        external, account = system_account(EXTERNAL_CRYPTO), customer_account(user)
        transfers = LedgerTransfer.objects.bulk_create(
            LedgerTransfer(
                reference=f"deposit:B{user.pk}-{n}", amount_cents=100, debit_account=external, credit_account=account
            )
            for n in range(count)
        )
        LedgerEntry.objects.bulk_create(
            LedgerEntry(transfer=t, account=account, direction="credit", amount_cents=100, balance_after_cents=100 * n)
            for n, t in enumerate(transfers, start=1)
        )

    setup_test_environment()
    call_command("migrate", verbosity=0, interactive=False)
    gpu = make_gpu()
    print(f"database: scratch {connection.vendor}; peak traced memory above the start, MiB")
    print(
        f"{'size':>7} {'journal JSON':>13} {'journal MD':>11} {'rentals CSV':>12} {'balance CSV':>12}"
        "   full gc runs (JSON, MD, CSV, balance)   MB written"
    )
    # The first size is a warm-up of 10 entries, not shown: it loads what a first download loads once per process
    # (translations, URL patterns, imports).
    for number, size in enumerate([10] + [int(size) for size in args.sizes.split(",")]):
        user = User.objects.create_user(f"bench{number}@example.com", "plum orbit ferry lantern")
        entries = JournalEntry.objects.bulk_create(
            JournalEntry(user=user, question=f"Question {n}: bf16 or fp8 at batch {n % 64}?", hypothesis="bf16 fits")
            for n in range(size)
        )
        runs = Run.objects.bulk_create(
            Run(entry=entry, number=1, name="bf16 b16", parameters={"batch": 16}, conclusion="Fits.")
            for entry in entries
        )
        Measurement.objects.bulk_create(
            Measurement(run=run, phase=phase, peak_bytes_per_gpu=[22 * 1024**3], throughput=1200.0)
            for run in runs
            for phase in ("first", "steady")
        )
        now = timezone.now()
        Order.objects.bulk_create(
            Order(
                ref=f"B{number}{n:08d}",
                owner=user,
                gpu=gpu,
                term_days=7,
                lots=1,
                cards=1,
                environment="pytorch",
                lot_price_cents=20_500,
                total_cents=20_500,
                contact_first_name="Ana",
                contact_last_name="Souza",
                contact_email="ana@example.com",
                reserved_until=now + timedelta(minutes=30),
            )
            for n in range(size)
        )
        balance_lines(user, 10 * size)
        figures, written = [], 0
        for kind in ("journal.json", "journal.md", "rentals.csv", "balance.csv"):
            # Made directly, not by `export_request`: the test settings' tasks run at once, and the writing is timed.
            export = Export.objects.create(user=user, kind=kind, filename=kind, language="en")
            figures.append(peak_of(lambda export=export: export_write(export.pk, writer="bench")))
            written += Export.objects.get(pk=export.pk).size_bytes
        widths = (13, 11, 12, 12)
        peaks = " ".join(f"{peak:>{width}.1f}" for (peak, _), width in zip(figures, widths, strict=True))
        runs_gc = ", ".join(str(full) for _, full in figures)
        if number:
            print(f"{size:>7,} {peaks}   {runs_gc:<36}   {written / 1e6:.1f}", flush=True)
    costs = page_costs(
        journal_pages_for_export(Owner(user=user)),
        lambda entry: json.dumps(entry_data(entry), cls=DjangoJSONEncoder, indent=2),
    )
    print(f"journal of {size:,} entries, median ms per page: write {costs[0]:.1f}, release {costs[1]:.2f}, ", end="")
    print(f"gc.collect() {costs[2]:.1f} ({len(gc.get_objects()):,} objects tracked)")


if __name__ == "__main__":
    main()
