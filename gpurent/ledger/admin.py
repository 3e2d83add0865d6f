"""The ledger in the back office: read-only, always (corrections are reversal transfers, made by services).

Amounts read as money, a customer's account by the customer's e-mail (a system account by its code), moments as the
desks write them (QA walk of the back office, defect 19)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.utils.safestring import SafeString

from gpurent.core.admin import ReadOnlyModelAdmin, email_html, moment_column, usd_column

from .models import LedgerAccount, LedgerEntry, LedgerTransfer


def account_html(account: LedgerAccount) -> SafeString:
    """A customer's account by the customer's e-mail ("customer:2" tells an operator nothing), a system account by
    its code ("external:crypto")."""
    return email_html(account.customer.email) if account.customer is not None else email_html(account.code)


def account_column(name: str, description: str) -> Callable[[Any], SafeString]:
    """A column showing the account at `name` (select it with its customer: "<name>__customer")."""

    @admin.display(description=description, ordering=f"{name}__code")
    def account(obj: Any) -> SafeString:
        return account_html(getattr(obj, name))

    account.__name__ = name
    return account


class LedgerListAdmin(ReadOnlyModelAdmin):
    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the desks' table: headings wrap, e-mails break only at "@"


@admin.register(LedgerAccount)
class LedgerAccountAdmin(LedgerListAdmin):
    list_display = [
        "code_or_email",
        "kind",
        usd_column("balance_cents", "balance"),
        moment_column("created_at", "created at"),
    ]
    list_filter = ["kind"]
    search_fields = ["code", "customer__email"]
    list_select_related = ["customer"]

    @admin.display(description="account", ordering="code")
    def code_or_email(self, account: LedgerAccount) -> SafeString:
        return account_html(account)


@admin.register(LedgerTransfer)
class LedgerTransferAdmin(LedgerListAdmin):
    list_display = [
        moment_column("created_at", "created at"),
        "reference",
        usd_column("amount_cents", "amount"),
        account_column("debit_account", "debit account"),
        account_column("credit_account", "credit account"),
        "memo",
    ]
    search_fields = ["reference", "memo"]
    list_select_related = ["debit_account__customer", "credit_account__customer"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(LedgerListAdmin):
    list_display = [
        moment_column("created_at", "created at"),
        "transfer",
        account_column("account", "account"),
        "direction",
        usd_column("amount_cents", "amount"),
        usd_column("balance_after_cents", "balance after"),
    ]
    list_filter = ["direction", "account__kind"]
    search_fields = ["transfer__reference", "account__customer__email"]
    list_select_related = ["transfer", "account__customer"]
