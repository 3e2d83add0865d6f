"""Posting to the ledger: the only code that writes ledger rows."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction

from gpurent.core.money import Usd

from .errors import DuplicateTransfer, InsufficientBalance
from .models import AccountKind, Direction, LedgerAccount, LedgerEntry, LedgerTransfer

__all__ = [
    "EXTERNAL_CRYPTO",
    "REVENUE_RENTALS",
    "SUSPENSE_REVIEW",
    "customer_account",
    "system_account",
    "transfer_post",
    "transfer_reverse",
]

EXTERNAL_CRYPTO = "external:crypto"
REVENUE_RENTALS = "revenue:rentals"
SUSPENSE_REVIEW = "suspense:review"
_SYSTEM_KINDS = {
    EXTERNAL_CRYPTO: AccountKind.EXTERNAL,
    REVENUE_RENTALS: AccountKind.REVENUE,
    SUSPENSE_REVIEW: AccountKind.SUSPENSE,
}


def system_account(code: str) -> LedgerAccount:
    """One of the shop's own accounts (`external:crypto`, `revenue:rentals`, `suspense:review`)."""
    account, _ = LedgerAccount.objects.get_or_create(code=code, defaults={"kind": _SYSTEM_KINDS[code]})
    return account


def customer_account(user: AbstractBaseUser) -> LedgerAccount:
    """The customer's balance account, made on first use."""
    account, _ = LedgerAccount.objects.get_or_create(
        code=f"customer:{user.pk}", defaults={"kind": AccountKind.CUSTOMER, "customer_id": user.pk}
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

    Both accounts are locked in a fixed order (by id), so two postings that touch the same accounts queue
    instead of deadlocking, and each sees the balance the other left.

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
        locked = {
            account.pk: account
            for account in LedgerAccount.objects.select_for_update().filter(pk__in=[debit.pk, credit.pk]).order_by("pk")
        }
        source, target = locked[debit.pk], locked[credit.pk]
        if LedgerTransfer.objects.filter(reference=reference).exists():
            raise DuplicateTransfer()
        source_after = source.balance_cents - amount.cents
        target_after = target.balance_cents + amount.cents
        if source.kind == AccountKind.CUSTOMER and source_after < 0:
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
        LedgerAccount.objects.filter(pk=source.pk).update(balance_cents=source_after)
        LedgerAccount.objects.filter(pk=target.pk).update(balance_cents=target_after)
    return transfer


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
