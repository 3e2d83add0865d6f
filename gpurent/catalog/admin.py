from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from gpurent.core.admin import AuditedModelAdmin

from .enums import Term
from .models import GpuModel


@admin.register(GpuModel)
class GpuModelAdmin(AuditedModelAdmin):
    list_display = [
        "name",
        "vendor",
        "stack",
        "memory_mib_per_card",
        "cards_per_lot",
        "stock_lots",
        "price_3_days",
        "price_7_days",
        "price_30_days",
        "on_sale",
    ]
    list_filter = ["vendor", "stack", "on_sale"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = [
        (None, {"fields": ["name", "slug", "vendor", "stack", "on_sale", "position"]}),
        (_("Hardware"), {"fields": ["memory_mib_per_card", "cards_per_lot", "interconnect"]}),
        (
            _("The machine of one lot"),
            {
                "fields": [
                    "vcpus_per_lot",
                    "ram_gib_per_lot",
                    "disk_gib_per_lot",
                    "network",
                    "region",
                    "driver_version",
                    "stack_version",
                    "typical_ready_minutes",
                ]
            },
        ),
        (_("Sale"), {"fields": ["stock_lots", "price_3d_cents", "price_7d_cents", "price_30d_cents"]}),
        (_("Description"), {"fields": ["summary", "good_for", "glossary_terms"]}),
    ]

    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the table beside the filters at 1280 px: headings wrap

    def get_readonly_fields(self, request: HttpRequest, obj: GpuModel | None = None) -> list[str]:
        # A model with registered GPU hosts counts its stock from their free GPUs (gpurent.hosts.stock): typed
        # here, it would be overwritten at the next change of a host or an allocation.
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.hosts.exists():
            readonly.append("stock_lots")
        return readonly

    @admin.display(description=_("3 days"), ordering="price_3d_cents")
    def price_3_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.THREE_DAYS).display()

    @admin.display(description=_("7 days"), ordering="price_7d_cents")
    def price_7_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.WEEK).display()

    @admin.display(description=_("30 days"), ordering="price_30d_cents")
    def price_30_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.MONTH).display()
