"""Posting to the ledger: the only code that writes ledger rows."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction

from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd

from .errors import DuplicateTransfer, InsufficientBalance
from .models import AccountKind, Direction, LedgerAccount, LedgerEntry, LedgerTransfer

__all__ = [
    "EXTERNAL_CRYPTO",
    "REVENUE_PAYOUT_FEES",
    "REVENUE_RENTALS",
    "SUSPENSE_PAYOUTS",
    "SUSPENSE_REVIEW",
    "customer_account",
    "system_account",
    "transfer_post",
    "transfer_reverse",
]

EXTERNAL_CRYPTO = "external:crypto"
REVENUE_RENTALS = "revenue:rentals"
SUSPENSE_REVIEW = "suspense:review"
# Withdrawals requested and not yet sent or rejected; and the withdrawal fees the shop keeps.
SUSPENSE_PAYOUTS = "suspense:payouts"
REVENUE_PAYOUT_FEES = "revenue:payout_fees"
_SYSTEM_KINDS = {
    EXTERNAL_CRYPTO: AccountKind.EXTERNAL,
    REVENUE_RENTALS: AccountKind.REVENUE,
    SUSPENSE_REVIEW: AccountKind.SUSPENSE,
    SUSPENSE_PAYOUTS: AccountKind.SUSPENSE,
    REVENUE_PAYOUT_FEES: AccountKind.REVENUE,
}


def system_account(code: str) -> LedgerAccount:
    """One of the shop's own accounts (`external:crypto`, `revenue:rentals`, `suspense:review`, `suspense:payouts`,
    `revenue:payout_fees`)."""
    account, _ = LedgerAccount.objects.get_or_create(code=code, defaults={"kind": _SYSTEM_KINDS[code]})
    return account


def customer_account(user: AbstractBaseUser | int) -> LedgerAccount:
    """The customer's balance account (for a user or a user id), made on first use."""
    user_id = user if isinstance(user, int) else user.pk
    account, _ = LedgerAccount.objects.get_or_create(
        code=f"customer:{user_id}", defaults={"kind": AccountKind.CUSTOMER, "customer_id": user_id}
    )
    return account


def transfer_post(
    *,
    reference: str,
    debit: LedgerAccount,
    credit: LedgerAccount,
    amount: Usd,
    memo: str = "",
    reverses: LedgerTransfer | None = None,
) -> LedgerTransfer:
    """Move `amount` from `debit` to `credit`: one transfer, two entries, both cached balances, atomically.

    Customer accounts are locked (by id, through `gpurent.core.locks.lock_rows`, last in the money lock
    order) and carry a cached running balance; system accounts (`external:…`, `revenue:…`, `suspense:…`) are not
    locked and keep no running balance: their balance is the sum of their entries (`account_balance`), so every
    payment of the shop does not queue on them.

    Raises:
        ValueError: the amount is not positive or both sides are one account.
        InsufficientBalance: the debit would take a customer's balance below zero.
        DuplicateTransfer: a transfer with this reference exists (the money already moved).
    """
    if amount.cents <= 0:
        raise ValueError("a transfer moves a positive amount")
    if debit.pk == credit.pk:
        raise ValueError("a transfer needs two accounts")
    with transaction.atomic():
        # Only customer accounts are locked (they carry a running balance that must never go below zero);
        # the shop's own accounts are not, so postings of different customers never queue on them.
        lock_rows((LedgerAccount, [a.pk for a in (debit, credit) if a.kind == AccountKind.CUSTOMER]))
        fresh = {a.pk: a for a in LedgerAccount.objects.filter(pk__in=[debit.pk, credit.pk])}
        source, target = fresh[debit.pk], fresh[credit.pk]
        if LedgerTransfer.objects.filter(reference=reference).exists():
            raise DuplicateTransfer()
        source_after = _running(source, -amount.cents)
        target_after = _running(target, amount.cents)
        if source.kind == AccountKind.CUSTOMER and source_after is not None and source_after < 0:
            raise InsufficientBalance()
        try:
            with transaction.atomic():
                transfer = LedgerTransfer.objects.create(
                    reference=reference,
                    amount_cents=amount.cents,
                    debit_account=source,
                    credit_account=target,
                    memo=memo,
                    reverses=reverses,
                )
        except IntegrityError:
            # A concurrent posting with the same reference won the race (the unique index decides).
            raise DuplicateTransfer() from None
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(
                    transfer=transfer,
                    account=source,
                    direction=Direction.DEBIT,
                    amount_cents=amount.cents,
                    balance_after_cents=source_after,
                ),
                LedgerEntry(
                    transfer=transfer,
                    account=target,
                    direction=Direction.CREDIT,
                    amount_cents=amount.cents,
                    balance_after_cents=target_after,
                ),
            ]
        )
        for account, after in ((source, source_after), (target, target_after)):
            if after is not None:
                LedgerAccount.objects.filter(pk=account.pk).update(balance_cents=after)
    return transfer


def _running(account: LedgerAccount, delta: int) -> int | None:
    """The account's balance after `delta`, for accounts that keep a running balance (customers); else None."""
    return account.balance_cents + delta if account.kind == AccountKind.CUSTOMER else None


def transfer_reverse(*, transfer: LedgerTransfer, memo: str = "") -> LedgerTransfer:
    """Correct a transfer by moving the same amount back, under the reference `reversal:<id>`.

    Raises:
        DuplicateTransfer: it was reversed already.
        InsufficientBalance: the customer has already spent what the reversal would take back.
    """
    return transfer_post(
        reference=f"reversal:{transfer.pk}",
        debit=transfer.credit_account,
        credit=transfer.debit_account,
        amount=Usd(transfer.amount_cents),
        memo=memo or f"reversal of {transfer.reference}",
        reverses=transfer,
    )
