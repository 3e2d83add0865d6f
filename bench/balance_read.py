"""Benchmark: the balance read as the ledger grows from 10^3 to 10^6 entries, against a baseline in the same run.

    .venv/bin/python bench/balance_read.py [--reads N] [--sizes 1000,10000,100000,1000000] [--database-url URL]

`balance_for` reads one cached column of one account row by its unique code, so its cost must not depend on how
many ledger entries exist. The baseline is `SELECT 1` through the Django connection; each read is reported as its
median time and as a ratio to the baseline's, at each ledger size, so the ratios hold across machines. Also
timed: the customer's last 50 ledger lines (`ledger_lines_for`, newest first), and, for contrast, what a balance
without the cache would cost (a SUM over the entries of `external:crypto`, which takes one side of every
transfer). The measured customer has a fixed history (60 lines posted through `transfer_post`); the ledger grows
around it with bulk inserts of transfers and their two entries (append-only allows inserts), each entry with the
right balance-after, and the cached balances of the accounts are set to match before anything is timed.
Use PostgreSQL for production-like numbers (`--database-url postgres://...` to an empty scratch database).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FILLER_CUSTOMERS = 1_000
BATCH_TRANSFERS = 25_000
OWN_LINES = 60
SLOW_BUDGET_S = 3.0


def timed(reads: int, operations: dict[str, Callable[[], object]], rounds: int = 5) -> dict[str, tuple[float, float]]:
    """Median and p95, in microseconds, of `reads` calls of each operation, after a short warm-up.

    The operations are interleaved in `rounds` rounds, so a burst of noise from other work on the machine falls on
    all of them alike instead of on whichever ran at that moment.
    """
    samples: dict[str, list[float]] = {name: [] for name in operations}
    counts: dict[str, int] = {}
    for name, operation in operations.items():
        for _ in range(min(50, reads)):
            start = time.perf_counter()
            operation()
            probe = time.perf_counter() - start
        # A slow operation gets fewer reads (about SLOW_BUDGET_S seconds' worth, at least 20): the run stays short.
        counts[name] = min(reads, max(20, int(SLOW_BUDGET_S / max(probe, 1e-9))))
    for _ in range(rounds):
        for name, operation in operations.items():
            for _ in range(max(1, counts[name] // rounds)):
                start = time.perf_counter()
                operation()
                samples[name].append(time.perf_counter() - start)
    return {
        name: (statistics.median(times) * 1e6, statistics.quantiles(times, n=20)[18] * 1e6)
        for name, times in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=2_000, help="timed reads per operation and size (default 2000)")
    parser.add_argument("--sizes", default="1000,10000,100000,1000000", help="ledger sizes in entries, ascending")
    parser.add_argument("--database-url", help="defaults to a scratch SQLite file")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.management.color import no_style
    from django.db import connection, transaction
    from django.db.models import Case, F, Sum, When
    from django.utils import timezone

    from gpurent.core.money import Usd
    from gpurent.ledger.models import AccountKind, Direction, LedgerAccount, LedgerEntry, LedgerTransfer
    from gpurent.ledger.selectors import balance_for, ledger_check, ledger_lines_for
    from gpurent.ledger.services import (
        EXTERNAL_CRYPTO,
        REVENUE_RENTALS,
        customer_account,
        system_account,
        transfer_post,
    )

    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    user = user_model.objects.create_user("bench@example.com", "bench passphrase", first_name="B", last_name="B")
    external, revenue = system_account(EXTERNAL_CRYPTO), system_account(REVENUE_RENTALS)
    mine = customer_account(user)
    # The measured customer's own history, through the service: deposits and order payments.
    for index in range(OWN_LINES):
        if index % 3 == 2:
            transfer_post(reference=f"order:BENCH-{index}", debit=mine, credit=revenue, amount=Usd(1_000))
        else:
            transfer_post(reference=f"deposit:BENCH-{index}", debit=external, credit=mine, amount=Usd(2_000))
    expected_balance = balance_for(user)

    fillers = user_model.objects.bulk_create(
        [
            user_model(email=f"filler{index}@example.com", first_name="F", last_name="F")
            for index in range(FILLER_CUSTOMERS)
        ]
    )
    if fillers[0].pk is None:  # a backend that does not return ids from bulk inserts
        fillers = list(user_model.objects.filter(email__startswith="filler").order_by("id"))
    LedgerAccount.objects.bulk_create(
        [LedgerAccount(code=f"customer:{f.pk}", kind=AccountKind.CUSTOMER, customer_id=f.pk) for f in fillers]
    )
    filler_accounts = list(
        LedgerAccount.objects.filter(code__startswith="customer:").exclude(pk=mine.pk).order_by("id")
    )
    balances = {account.pk: account.balance_cents for account in LedgerAccount.objects.all()}

    transfer_table, entry_table = LedgerTransfer._meta.db_table, LedgerEntry._meta.db_table
    insert_transfer = (
        f"INSERT INTO {transfer_table} (id, reference, amount_cents, debit_account_id, credit_account_id, memo, "  # noqa: S608
        "reverses_id, created_at) VALUES (%s, %s, %s, %s, %s, %s, NULL, %s)"
    )
    insert_entry = (
        f"INSERT INTO {entry_table} (id, transfer_id, account_id, direction, amount_cents, balance_after_cents, "  # noqa: S608
        "created_at) VALUES (%s, %s, %s, %s, %s, %s, %s)"
    )
    stamp = connection.ops.adapt_datetimefield_value(timezone.now())

    def grow_to(entries: int) -> None:
        """Append bulk transfers (external:crypto → a filler customer) until the ledger has `entries` entries."""
        next_transfer = (LedgerTransfer.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        next_entry = (LedgerEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        missing = (entries - LedgerEntry.objects.count()) // 2
        while missing > 0:
            count = min(missing, BATCH_TRANSFERS)
            transfers, lines = [], []
            for offset in range(count):
                number = next_transfer + offset
                target = filler_accounts[number % len(filler_accounts)].pk
                amount = 100 + number % 7
                balances[external.pk] -= amount
                balances[target] += amount
                transfers.append((number, f"deposit:BULK-{number}", amount, external.pk, target, "", stamp))
                entry = next_entry + 2 * offset
                lines.append((entry, number, external.pk, Direction.DEBIT, amount, balances[external.pk], stamp))
                lines.append((entry + 1, number, target, Direction.CREDIT, amount, balances[target], stamp))
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.executemany(insert_transfer, transfers)
                cursor.executemany(insert_entry, lines)
                # Cached balances follow their entries (the account rows are not append-only).
                for pk in {external.pk, *(row[4] for row in transfers)}:
                    LedgerAccount.objects.filter(pk=pk).update(balance_cents=balances[pk])
            next_transfer += count
            next_entry += 2 * count
            missing -= count
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [LedgerTransfer, LedgerEntry]):
                cursor.execute(sql)  # PostgreSQL: the id sequences continue after the explicit ids
            cursor.execute("ANALYZE")

    def check_consistent() -> None:
        """Every cached balance equals the sum of its entries (one grouped query), and the customer's is intact."""
        sums = dict(
            LedgerEntry.objects.values("account_id")
            .annotate(
                total=Sum(Case(When(direction=Direction.CREDIT, then=F("amount_cents")), default=-F("amount_cents")))
            )
            .values_list("account_id", "total")
        )
        cached = dict(LedgerAccount.objects.values_list("id", "balance_cents"))
        assert all(cached[pk] == sums.get(pk, 0) for pk in cached), "a cached balance differs from its entries"
        assert balance_for(user) == expected_balance

    def select_one() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    def last_lines() -> None:
        assert len(list(ledger_lines_for(user).order_by("-id")[:50])) == 50

    def uncached_sum() -> None:
        LedgerEntry.objects.filter(account=external).aggregate(
            total=Sum(Case(When(direction=Direction.CREDIT, then=F("amount_cents")), default=-F("amount_cents")))
        )

    rows = []
    for size in sizes:
        start = time.perf_counter()
        grow_to(size)
        grown = time.perf_counter() - start
        if size <= 10_000:
            assert ledger_check() == [], "the bulk rows break a ledger invariant"
        check_consistent()
        entries = LedgerEntry.objects.count()
        measured = timed(
            args.reads, {"baseline": select_one, "balance": lambda: balance_for(user), "lines": last_lines}
        )
        baseline, balance, lines = measured["baseline"], measured["balance"], measured["lines"]
        naive = timed(args.reads, {"naive": uncached_sum})["naive"]
        rows.append((entries, grown, baseline, balance, lines, naive))

    print(
        f"database: {connection.vendor}, up to {args.reads} timed reads per operation and size (fewer for slow ones: "
        f"~{SLOW_BUDGET_S:.0f} s each), median (p95) in µs"
    )
    print(
        f"{'entries':>9} {'grow s':>7} {'SELECT 1':>15} {'balance_for':>15} {'× base':>7} "
        f"{'last 50 lines':>15} {'× base':>7} {'uncached SUM':>17} {'× base':>8}"
    )
    for entries, grown, baseline, balance, lines, naive in rows:

        def cell(result: tuple[float, float], width: int = 15) -> str:
            return f"{f'{result[0]:.0f} ({result[1]:.0f})':>{width}}"

        print(
            f"{entries:>9,} {grown:7.1f} {cell(baseline)} {cell(balance)} {balance[0] / baseline[0]:7.1f} "
            f"{cell(lines)} {lines[0] / baseline[0]:7.1f} {cell(naive, 17)} {naive[0] / baseline[0]:8.0f}"
        )
    first, last = rows[0], rows[-1]
    print(
        f"balance_for at {last[0]:,} entries vs {first[0]:,}: {last[3][0] / first[3][0]:.2f}× the time "
        f"({(last[3][0] / last[2][0]) / (first[3][0] / first[2][0]):.2f}× in baseline ratio); "
        f"uncached SUM: {last[5][0] / first[5][0]:.0f}×"
    )
    scratch.cleanup()


if __name__ == "__main__":
    main()
