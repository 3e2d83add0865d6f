"""Orders in the back office: read-only. Status changes go through the services (the desks come later)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from gpurent.core.admin import BoundedListAdmin, OwnerEmailColumn, moment_column, usd_column, with_zone

from .models import Order, OrderStatusChange


class OrderStatusChangeInline(admin.TabularInline[OrderStatusChange, Order]):
    model = OrderStatusChange
    extra = 0
    can_delete = False
    # The states by their labels ("Awaiting payment"), not their codes ("awaiting_payment").
    fields = readonly_fields = ("created", "track", "from_state", "to_state", "actor", "reason")

    @admin.display(description=_("created at"))
    def created(self, change: OrderStatusChange) -> str:
        return with_zone(change.created_at)

    @admin.display(description=_("from status"))
    def from_state(self, change: OrderStatusChange) -> str:
        return change.from_status_label or "—"

    @admin.display(description=_("to status"))
    def to_state(self, change: OrderStatusChange) -> str:
        return change.to_status_label

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# The order's amounts in cents, by the name the page gives them as money.
MONEY_LABELS = {"lot_price_cents": _("price of one lot"), "total_cents": _("total")}


def _shown(field: models.Field[Any, Any]) -> str | Callable[[Order], str]:
    """How the order page shows `field`: amounts in cents as money ("$1,580.00"), moments with their time zone
    as the desks write them ("06 Dec 2026, 10:53 UTC"), anything else as the admin does."""
    if field.name in MONEY_LABELS:
        return usd_column(field.name, MONEY_LABELS[field.name])
    if isinstance(field, models.DateTimeField):
        return moment_column(field.name, field.verbose_name)
    return field.name


# Made once: the change form leaves out the read-only fields by identity. The list shows the same columns.
SHOWN = {field.name: _shown(field) for field in Order._meta.fields}


@admin.register(Order)
class OrderAdmin(OwnerEmailColumn, BoundedListAdmin):
    list_display = [
        "ref",
        "owner_email",
        "gpu",
        "term_days",
        "lots",
        SHOWN["total_cents"],
        "payment_status",
        "provisioning_status",
        SHOWN["created_at"],
    ]
    list_filter = ["payment_status", "provisioning_status", "gpu"]
    search_fields = ["ref", "owner__email", "contact_email"]
    list_select_related = ["owner", "gpu"]
    date_hierarchy = "created_at"
    inlines = [OrderStatusChangeInline]

    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the desks' table at 1280 px: headings wrap, e-mails at "@"

    def get_fields(self, request: HttpRequest, obj: Order | None = None) -> list[Any]:
        return list(SHOWN.values())

    def get_readonly_fields(self, request: HttpRequest, obj: Order | None = None) -> list[Any]:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
