"""Payments in the back office. Money rows (intents, deposits, webhook deliveries) are read-only here:
they change only through the payment services (the payments desk arrives with the back-office work)."""

from __future__ import annotations

from django.contrib import admin

from gpurent.core.admin import AuditedModelAdmin, ReadOnlyModelAdmin

from .models import Deposit, ExchangeRate, PaymentIntent, ReceivingAddress, WebhookDelivery


@admin.register(PaymentIntent)
class PaymentIntentAdmin(ReadOnlyModelAdmin):
    list_display = ["created_at", "owner", "asset", "network", "amount_units", "status", "reported_at", "expires_at"]
    list_filter = ["status", "asset", "network"]
    search_fields = ["id", "address", "txid", "owner__email", "order__ref", "deposit__ref"]
    list_select_related = ["owner"]


@admin.register(Deposit)
class DepositAdmin(ReadOnlyModelAdmin):
    list_display = ["ref", "owner", "kind", "status", "requested_cents", "credited_cents", "created_at"]
    list_filter = ["kind", "status"]
    search_fields = ["ref", "owner__email"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyModelAdmin):
    list_display = ["received_at", "source", "delivery_key", "event_type", "invoice_id", "outcome"]


@admin.register(ExchangeRate)
class ExchangeRateAdmin(AuditedModelAdmin):
    list_display = ["asset", "usd_per_unit", "as_of", "source"]
    list_filter = ["asset"]


@admin.register(ReceivingAddress)
class ReceivingAddressAdmin(AuditedModelAdmin):
    list_display = ["network", "address", "memo", "mode", "allocated_at"]
    list_filter = ["network", "mode"]
    search_fields = ["address"]
