"""`python manage.py ledger_check`: every ledger invariant, checked against the rows (`ledger_check()`).

Prints one line per violation and exits 1 if there is any; prints the counts it checked and exits 0 otherwise.
An operator runs it after restoring a backup (deploy/backup.md) and whenever the books look wrong; it only reads.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from gpurent.ledger.models import LedgerAccount, LedgerEntry, LedgerTransfer
from gpurent.ledger.selectors import ledger_check


class Command(BaseCommand):
    help = "Check every ledger invariant (debits equal credits, balances replay, none below zero); exit 1 if broken."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = ledger_check()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"ledger_check: {len(problems)} problem(s)")
        self.stdout.write(
            f"ledger_check: OK ({LedgerAccount.objects.count()} accounts, {LedgerTransfer.objects.count()} transfers, "
            f"{LedgerEntry.objects.count()} entries)"
        )
