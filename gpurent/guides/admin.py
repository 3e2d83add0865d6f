"""Quote requests in the back office: read-mostly. Operators change the status and a note, each audited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from gpurent.core.admin import BoundedListAdmin

from .models import QuoteRequest
from .services import quote_request_set_status

EDITABLE = ("status", "operator_note")
FIELDS = (
    "public_id",
    "created_at",
    "status",
    "operator_note",
    "contact_email",
    "user",
    "guest",
    "gpu",
    "guide_workload",
    "guide_scope",
    "model_name",
    "endpoint",
    "support_level",
    "delivery_scope",
    "expected_load",
    "sample_data",
)


@admin.register(QuoteRequest)
class QuoteRequestAdmin(BoundedListAdmin):
    list_display = ["short_id", "created_at", "contact_email", "model_name", "gpu", "delivery_scope", "status"]
    list_filter = ["status", "guide_workload", "delivery_scope", "support_level", "endpoint", "gpu"]
    search_fields = ["public_id", "contact_email", "model_name", "user__email"]
    list_select_related = ["gpu", "user"]
    date_hierarchy = "created_at"
    fields = FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: QuoteRequest | None = None) -> list[str]:
        return [name for name in FIELDS if name not in EDITABLE]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: QuoteRequest, form: Any, change: bool) -> None:
        # Through the service, so the change and its audit row commit together.
        quote_request_set_status(
            quote=obj,
            status=obj.status,
            note=obj.operator_note,
            actor=request.user,  # type: ignore[arg-type]
        )
