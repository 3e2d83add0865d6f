"""The ledger in the back office: read-only, always (corrections are reversal transfers, made by services)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import LedgerAccount, LedgerEntry, LedgerTransfer


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyAdmin):
    list_display = ["code", "kind", "balance_cents", "created_at"]
    list_filter = ["kind"]
    search_fields = ["code", "customer__email"]


@admin.register(LedgerTransfer)
class LedgerTransferAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "reference", "amount_cents", "debit_account", "credit_account", "memo"]
    search_fields = ["reference", "memo"]
    list_select_related = ["debit_account", "credit_account"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "transfer", "account", "direction", "amount_cents", "balance_after_cents"]
    list_filter = ["direction", "account__kind"]
    list_select_related = ["transfer", "account"]
