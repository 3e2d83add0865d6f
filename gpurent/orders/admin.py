"""Orders in the back office: read-only. Status changes go through the services (the desks come later)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from gpurent.core.admin import BoundedListAdmin

from .models import Order, OrderStatusChange


class OrderStatusChangeInline(admin.TabularInline[OrderStatusChange, Order]):
    model = OrderStatusChange
    extra = 0
    can_delete = False
    fields = readonly_fields = ("created_at", "track", "from_status", "to_status", "actor", "reason")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Order)
class OrderAdmin(BoundedListAdmin):
    list_display = [
        "ref",
        "owner",
        "gpu",
        "term_days",
        "lots",
        "total_cents",
        "payment_status",
        "provisioning_status",
        "created_at",
    ]
    list_filter = ["payment_status", "provisioning_status", "gpu"]
    search_fields = ["ref", "owner__email", "contact_email"]
    list_select_related = ["owner", "gpu"]
    date_hierarchy = "created_at"
    inlines = [OrderStatusChangeInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Order | None = None) -> list[str]:
        return [field.name for field in Order._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
