"""Admin parts shared by every app: operator changes that write the audit log, and the audit log page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import models, transaction
from django.forms import ModelForm
from django.http import HttpRequest

from .audit import audit_record, snapshot
from .models import AuditLogEntry, OperatorNotice

# The change list of a model whose bulk actions run through `form_action`: its form carries a fresh idempotency
# key, so a double submit of an action acts once (decision 0260).
ONCE_PER_KEY_CHANGE_LIST = "admin/change_list_once_per_key.html"


class AuditedModelAdmin(admin.ModelAdmin[Any]):
    """A ModelAdmin whose saves and deletes write an audit row (who, what, before, after) in the same
    transaction as the change itself."""

    def save_model(self, request: HttpRequest, obj: models.Model, form: ModelForm[Any], change: bool) -> None:
        with transaction.atomic():
            before = snapshot(type(obj)._default_manager.get(pk=obj.pk)) if change else None
            super().save_model(request, obj, form, change)
            audit_record(
                actor=request.user,
                action=f"admin.{'change' if change else 'add'}",
                target=obj,
                before=before,
                after=snapshot(obj),
            )

    def delete_model(self, request: HttpRequest, obj: models.Model) -> None:
        with transaction.atomic():
            audit_record(actor=request.user, action="admin.delete", target=obj, before=snapshot(obj))
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: models.QuerySet[Any]) -> None:
        with transaction.atomic():
            for obj in queryset:
                audit_record(actor=request.user, action="admin.delete", target=obj, before=snapshot(obj))
            super().delete_queryset(request, queryset)


class ReadOnlyModelAdmin(admin.ModelAdmin[Any]):
    """Rows that change only through services (money, the audit log): visible, never added, edited or deleted."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditLogEntry)
class AuditLogEntryAdmin(ReadOnlyModelAdmin):
    """Read-only: the audit log is append-only, even for superusers."""

    list_display = ["created_at", "actor_label", "action", "target_type", "target_id"]
    list_filter = ["action", "target_type"]
    search_fields = ["actor_label", "target_id", "action"]
    date_hierarchy = "created_at"


@admin.register(OperatorNotice)
class OperatorNoticeAdmin(ReadOnlyModelAdmin):
    """Failures meant for operators (a rate source's HTTP status, a stale rate), one row per distinct detail."""

    list_display = ["last_seen", "code", "detail", "count", "first_seen"]
    list_filter = ["code"]
    search_fields = ["detail"]
