"""The ledger in the back office: read-only, always (corrections are reversal transfers, made by services)."""

from __future__ import annotations

from django.contrib import admin

from gpurent.core.admin import ReadOnlyModelAdmin

from .models import LedgerAccount, LedgerEntry, LedgerTransfer


@admin.register(LedgerAccount)
class LedgerAccountAdmin(ReadOnlyModelAdmin):
    list_display = ["code", "kind", "balance_cents", "created_at"]
    list_filter = ["kind"]
    search_fields = ["code", "customer__email"]


@admin.register(LedgerTransfer)
class LedgerTransferAdmin(ReadOnlyModelAdmin):
    list_display = ["created_at", "reference", "amount_cents", "debit_account", "credit_account", "memo"]
    search_fields = ["reference", "memo"]
    list_select_related = ["debit_account", "credit_account"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyModelAdmin):
    list_display = ["created_at", "transfer", "account", "direction", "amount_cents", "balance_after_cents"]
    list_filter = ["direction", "account__kind"]
    list_select_related = ["transfer", "account"]
