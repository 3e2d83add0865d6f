"""Payments in the back office. Money rows (intents, deposits, webhook deliveries) are read-only here:
they change only through the payment services (the payments desk arrives with the back-office work)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest, HttpResponse

from gpurent.core.admin import AuditedModelAdmin, OwnerEmailColumn, ReadOnlyModelAdmin, moment_column, usd_column
from gpurent.core.audit import audit_record

from .assets import NETWORKS
from .errors_crypto import InvalidAddress
from .intents.allocation import address_mode, extended_key_register, gap_report
from .intents.derivation import DERIVABLE_NETWORKS, account_key_hints, account_key_parse
from .models import (
    ChainObservation,
    Deposit,
    DerivedAddress,
    ExchangeRate,
    ExtendedPublicKey,
    PaymentIntent,
    ReceivingAddress,
    WebhookDelivery,
)
from .receipts.receipt import rate_text


@admin.register(PaymentIntent)
class PaymentIntentAdmin(ReadOnlyModelAdmin):
    list_display = ["created_at", "owner", "asset", "network", "amount_units", "status", "reported_at", "expires_at"]
    list_filter = ["status", "asset", "network"]
    search_fields = ["id", "address", "txid", "owner__email", "order__ref", "deposit__ref"]
    list_select_related = ["owner"]

    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the table beside the filters at 1280 px: headings and dates wrap


@admin.register(Deposit)
class DepositAdmin(OwnerEmailColumn, ReadOnlyModelAdmin):
    list_display = [
        "ref",
        "owner_email",
        "kind",
        "status",
        usd_column("requested_cents", "requested"),
        usd_column("credited_cents", "credited"),
        moment_column("created_at", "created at"),
    ]
    list_filter = ["kind", "status"]
    search_fields = ["ref", "owner__email"]
    list_select_related = ["owner"]

    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the desks' table: headings wrap, e-mails break only at "@"


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyModelAdmin):
    list_display = ["received_at", "source", "delivery_key", "event_type", "invoice_id", "outcome"]


@admin.register(ExchangeRate)
class ExchangeRateAdmin(AuditedModelAdmin):
    list_display = ["asset", "rate", moment_column("as_of", "as of"), "source"]
    list_filter = ["asset"]

    @admin.display(description="USD per unit", ordering="usd_per_unit")
    def rate(self, row: ExchangeRate) -> str:
        """ "1 BTC = 97,000 USD", not the twelve decimal places the rate is stored with."""
        return rate_text(row.usd_per_unit, row.asset)


@admin.register(ReceivingAddress)
class ReceivingAddressAdmin(AuditedModelAdmin):
    list_display = ["network", "address", "memo", "mode", "allocated_at"]
    list_filter = ["network", "mode"]
    search_fields = ["address"]
    change_list_template = "admin/payments/receivingaddress/change_list.html"

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # Which source each network takes its addresses from (PAYMENTS_ADDRESS_MODES), and for derived ones
        # the gap to tell the wallet about (docs/decisions/0140).
        modes = [
            {
                "network": label,
                "mode": address_mode(network),
                "derivable": network in DERIVABLE_NETWORKS,
                "gap": gap_report(network),
            }
            for network, label in NETWORKS.items()
        ]
        return super().changelist_view(request, {**(extra_context or {}), "address_modes": modes})


class ExtendedPublicKeyForm(forms.ModelForm[ExtendedPublicKey]):
    # A password input is never rendered back: if someone pastes a private key by mistake, the error page
    # does not show it again (nor store or log it).
    key = forms.CharField(
        label="Extended public key",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off", "size": 120}),
    )

    class Meta:
        model = ExtendedPublicKey
        fields = ["network", "key", "label"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Built per request: which key a network takes follows the test network the shop runs (decision 0372).
        self.fields["key"].help_text = (
            "The account key (depth 3) of a watch-only wallet. "
            + "; ".join(account_key_hints())
            + ". Test networks: set PAYMENTS_SEGWIT_HRP_BITCOIN (tb, bcrt) or PAYMENTS_SEGWIT_HRP_LITECOIN (tltc, "
            "rltc) and register the key of m/84'/1'/0'. Never a private key or a recovery phrase."
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("network") and data.get("key"):
            try:
                data["key"] = account_key_parse(data["network"], data["key"]).text
            except InvalidAddress as error:
                data.pop("key", None)
                self.add_error("key", error.message)
        return data


@admin.register(ExtendedPublicKey)
class ExtendedPublicKeyAdmin(admin.ModelAdmin[ExtendedPublicKey]):
    """Register a key (the previous active key of the network is retired); keys are never edited or deleted,
    since addresses derived from them must stay attributable."""

    form = ExtendedPublicKeyForm
    list_display = ["network", "__str__", "label", "next_index", "active", "created_at"]
    list_filter = ["network", "active"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ExtendedPublicKey, form: Any, change: bool) -> None:
        with transaction.atomic():
            saved = extended_key_register(network=obj.network, key=obj.key, label=obj.label)
            obj.pk = saved.pk
            audit_record(
                actor=request.user,
                action="payments.xpub_registered",
                target=saved,
                after={"network": saved.network, "key": str(saved), "label": saved.label},
            )


@admin.register(DerivedAddress)
class DerivedAddressAdmin(ReadOnlyModelAdmin):
    list_display = ["network", "index", "address", "created_at", "imported_at"]
    list_filter = ["network"]
    search_fields = ["address"]


@admin.register(ChainObservation)
class ChainObservationAdmin(ReadOnlyModelAdmin):
    list_display = [
        "first_seen_at",
        "network",
        "asset",
        "txid",
        "output_index",
        "amount_units",
        "state",
        "confirmations",
    ]
    list_filter = ["network", "state"]
    search_fields = ["txid", "address"]
