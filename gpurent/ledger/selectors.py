"""Reads of the ledger: balances, a customer's lines, and the invariants check."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet, Subquery, Sum

from gpurent.core.money import Usd

from .models import AccountKind, Direction, LedgerAccount, LedgerEntry, LedgerTransfer

__all__ = ["account_balance", "balance_for", "ledger_check", "ledger_lines_for", "transfers_with_references"]


def balance_for(user: AbstractBaseUser) -> Usd:
    """The customer's available balance: one indexed read of the cached balance, whatever the ledger's size."""
    cents = LedgerAccount.objects.filter(code=f"customer:{user.pk}").values_list("balance_cents", flat=True).first()
    return Usd(cents or 0)


def account_balance(code: str) -> Usd:
    """Any account's balance as the sum of its entries (credits − debits); how system accounts are read."""
    totals = dict(
        LedgerEntry.objects.filter(account__code=code)
        .values("direction")
        .annotate(total=Sum("amount_cents"))
        .values_list("direction", "total")
    )
    return Usd(int(totals.get(Direction.CREDIT, 0) or 0) - int(totals.get(Direction.DEBIT, 0) or 0))


def ledger_lines_for(user: AbstractBaseUser) -> QuerySet[LedgerEntry]:
    """Every entry of the customer's balance, oldest first, with its transfer (for the reference).

    Filters on the account's id (not a join on its code), so PostgreSQL walks the (account, id) index; the id is
    a scalar subquery by the code's unique index, evaluated once, so the page is one statement, not two.
    """
    account = LedgerAccount.objects.filter(code=f"customer:{user.pk}").values("pk")[:1]
    return LedgerEntry.objects.filter(account_id=Subquery(account)).select_related("transfer").order_by("id")


def transfers_with_references(references: list[str]) -> QuerySet[LedgerTransfer]:
    """The transfers with these references (e.g. everything about one order), oldest first."""
    return LedgerTransfer.objects.filter(reference__in=references).order_by("id")


def ledger_check() -> list[str]:
    """Every ledger invariant of DESIGN §5, checked against the rows; returns the violations (none: `[]`).

    Debits equal credits overall and per transfer; every transfer has one debit and one credit entry of its
    amount on its two accounts; each customer account's cached balance equals the sum of its entries and the
    replay of its entries in order (each entry's balance-after follows from the previous one); system accounts
    keep no running balance (cache 0, no balance-after); no customer balance is ever below zero; a transfer is
    reversed at most once.
    """
    problems: list[str] = []
    totals = {
        row["direction"]: row["total"]
        for row in LedgerEntry.objects.values("direction").annotate(total=Sum("amount_cents"))
    }
    if totals.get(Direction.DEBIT, 0) != totals.get(Direction.CREDIT, 0):
        problems.append(f"debits {totals.get(Direction.DEBIT, 0)} != credits {totals.get(Direction.CREDIT, 0)}")
    entries_by_transfer: dict[int, list[LedgerEntry]] = defaultdict(list)
    running: dict[int, int] = defaultdict(int)
    kinds = dict(LedgerAccount.objects.values_list("pk", "kind"))
    for entry in LedgerEntry.objects.order_by("id"):
        entries_by_transfer[entry.transfer_id].append(entry)
        running[entry.account_id] += entry.amount_cents if entry.direction == Direction.CREDIT else -entry.amount_cents
        if kinds[entry.account_id] != AccountKind.CUSTOMER:
            if entry.balance_after_cents is not None:
                problems.append(f"entry {entry.pk}: a system account keeps no running balance")
        elif running[entry.account_id] != entry.balance_after_cents:
            problems.append(
                f"entry {entry.pk}: balance after {entry.balance_after_cents} != replay {running[entry.account_id]}"
            )
    for transfer in LedgerTransfer.objects.all():
        sides = {entry.direction: entry for entry in entries_by_transfer.get(transfer.pk, [])}
        debit, credit = sides.get(Direction.DEBIT), sides.get(Direction.CREDIT)
        if len(entries_by_transfer.get(transfer.pk, [])) != 2 or debit is None or credit is None:
            problems.append(f"transfer {transfer.reference}: needs exactly one debit and one credit entry")
            continue
        if not (debit.amount_cents == credit.amount_cents == transfer.amount_cents):
            problems.append(f"transfer {transfer.reference}: entry amounts differ from the transfer")
        if (debit.account_id, credit.account_id) != (transfer.debit_account_id, transfer.credit_account_id):
            problems.append(f"transfer {transfer.reference}: entries are on other accounts")
    for account in LedgerAccount.objects.all():
        cached = running.get(account.pk, 0) if account.kind == AccountKind.CUSTOMER else 0
        if account.balance_cents != cached:
            problems.append(f"{account.code}: cached {account.balance_cents} != entries {cached}")
        if account.kind == AccountKind.CUSTOMER and account.balance_cents < 0:
            problems.append(f"{account.code}: negative balance")
    negative = LedgerEntry.objects.filter(account__kind=AccountKind.CUSTOMER, balance_after_cents__lt=0)
    problems.extend(f"entry {entry.pk}: a customer balance went below zero" for entry in negative)
    return problems
