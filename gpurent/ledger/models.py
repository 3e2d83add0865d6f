"""The double-entry USD ledger (DESIGN §5): accounts, transfers and their entries, in integer cents.

Append-only. A transfer moves `amount_cents` from one account (debit) to another (credit) and is written as two
entries, one per account, each with the account's balance after it. An account's balance is credits minus
debits: a customer's balance is what the shop owes them (a liability) and may never go below zero; the
`external:crypto` account is where deposits come from and goes negative as money comes in. Mistakes are
corrected by a reversal transfer, never by editing: entries and transfers refuse updates and deletes here,
and on PostgreSQL a trigger refuses them too (migration 0002).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

__all__ = ["AccountKind", "Direction", "LedgerAccount", "LedgerEntry", "LedgerTransfer"]


class AccountKind(models.TextChoices):
    """- `external`: outside the shop (`external:crypto`: money received on chain).
    - `customer`: a customer's USD balance (`customer:<user id>`); never below zero.
    - `revenue`: what the shop earned (`revenue:rentals`).
    - `suspense`: money held while an operator decides (`suspense:review`)."""

    EXTERNAL = "external", _("External")
    CUSTOMER = "customer", _("Customer balance")
    REVENUE = "revenue", _("Revenue")
    SUSPENSE = "suspense", _("Suspense")


class Direction(models.TextChoices):
    DEBIT = "debit", _("Debit")
    CREDIT = "credit", _("Credit")


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Bulk updates and deletes are refused: ledger rows are facts, corrected only by new rows."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise TypeError("ledger rows are append-only; post a reversal transfer instead")

    def delete(self) -> NoReturn:
        raise TypeError("ledger rows are append-only; post a reversal transfer instead")


class AppendOnlyModel(models.Model):
    """A model whose rows can be inserted, never changed or removed."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("ledger rows are append-only; post a reversal transfer instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("ledger rows are append-only; post a reversal transfer instead")


class LedgerAccount(models.Model):
    """An account of the ledger. For a customer, `balance_cents` is a cache of its entries, kept in the posting
    transaction under the account's row lock. System accounts keep it at 0 and are never locked: their balance
    is the sum of their entries (`selectors.account_balance`)."""

    code = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=10, choices=AccountKind.choices)
    customer = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_account"
    )
    balance_cents = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ledger account")
        verbose_name_plural = _("ledger accounts")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind=AccountKind.CUSTOMER) | Q(balance_cents__gte=0), name="ledger_customer_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(kind=AccountKind.CUSTOMER, customer__isnull=False)
                | (~Q(kind=AccountKind.CUSTOMER) & Q(customer__isnull=True)),
                name="ledger_customer_account_has_customer",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class LedgerTransfer(AppendOnlyModel):
    """One movement of money between two accounts, with a reference unique across the ledger.

    The reference names what the money is for (`deposit:D-…`, `order:R-…`, `refund:R-…`, `reversal:<id>`),
    so the same deposit can never be credited twice nor the same order debited twice, long after any
    idempotency key is forgotten.
    """

    reference = models.CharField(max_length=100, unique=True)
    amount_cents = models.BigIntegerField()
    debit_account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="+")
    credit_account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="+")
    memo = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("ledger transfer")
        verbose_name_plural = _("ledger transfers")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="ledger_transfer_amount_positive"),
            models.CheckConstraint(
                condition=~Q(debit_account=models.F("credit_account")), name="ledger_transfer_two_accounts"
            ),
        ]

    def __str__(self) -> str:
        return self.reference


class LedgerEntry(AppendOnlyModel):
    """One side of a transfer on one account, with a customer account's balance right after it."""

    transfer = models.ForeignKey(LedgerTransfer, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="entries")
    direction = models.CharField(max_length=6, choices=Direction.choices)
    amount_cents = models.BigIntegerField()
    # The account's balance right after this entry, for customer accounts; None for system accounts, whose
    # balance is the sum of their entries (they are not locked, so no running balance is kept for them).
    balance_after_cents = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["transfer", "direction"], name="ledger_entry_one_per_side"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="ledger_entry_amount_positive"),
        ]
        indexes = [models.Index(fields=["account", "id"])]

    def __str__(self) -> str:
        return f"{self.account_id} {self.direction} {self.amount_cents}"
