"""The catalog in the back office (role `catalog`): GPU models, their prices, their stock and the texts customers
read (QA walk of the back office, defects 4, 5 and 20).

- **Prices** are typed in dollars ("29", "29.00", "1,700.50") and stored as integer cents exactly (`Usd.parse`,
  never a float); the API and every other reader keep the same cents. Prices that look like a slip (a longer
  term dearer per day than a shorter one, a longer term cheaper than a shorter one, a change beyond ×10 or under
  1/10 of the current price) are saved only once the operator ticks a confirmation given for those very prices.
- **Stock** of an existing model is never typed over: the form shows the lots free now and takes lots to add or
  remove. The change form's POST locks the model's row first (`get_object`), so the number checked and the one
  written are the same, and the lots are applied with `UPDATE … SET stock_lots = stock_lots + n` as
  `catalog.services` does; the rest of the row is saved without `stock_lots`. An order's reservation made while
  the page was open is kept; one made during the save waits for it (then takes its lots from the new count).
- **What customers see** is flagged field by field, and the texts say they are shown as typed in every language:
  the shop has no per-language fields; only texts that are word for word in its translation catalogs (the demo
  models') are shown translated, and the form says, text by text, which are.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import F, Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from gpurent.core.admin import AuditedModelAdmin
from gpurent.core.audit import audit_record, snapshot
from gpurent.core.money import Usd

from .enums import Term
from .models import GpuModel

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldsetSpec

# The largest price a PositiveIntegerField of cents holds (PostgreSQL's integer): $21,474,836.47.
MAX_PRICE_CENTS = 2_147_483_647
# Thousands grouped with commas ("1,700.50"); a comma anywhere else (a decimal comma, "29,5") is refused, not guessed.
_GROUPED = re.compile(r"[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?", re.ASCII)
# How far a price may move in one save before the operator is asked to confirm it.
CHANGE_FACTOR = 10

PRICE_FIELDS = {Term.THREE_DAYS: "price_3d", Term.WEEK: "price_7d", Term.MONTH: "price_30d"}
CENTS_FIELDS = {Term.THREE_DAYS: "price_3d_cents", Term.WEEK: "price_7d_cents", Term.MONTH: "price_30d_cents"}

# What customers see of a GPU model (catalog cards, the GPU's page, the estimator's table, the API), and how.
SHOWN = "Customers see this."
SHOWN_AS_TYPED = (
    "Customers see this text exactly as typed, in every language, unless the shop's translation catalogs have it "
    "word for word (see “Languages” below)."
)
CUSTOMER_FIELDS = {
    "name": "Customers see this, as typed in every language (a product name).",
    "slug": "Customers see it in the GPU's address, /gpus/SLUG/.",
    "vendor": SHOWN,
    "stack": SHOWN,
    "on_sale": "Off sale: the model leaves the catalog and cannot be ordered.",
    "position": "Not shown to customers. It orders the catalog (lowest first).",
    "memory_mib_per_card": "Customers see it in GiB with one decimal.",
    "cards_per_lot": SHOWN,
    "interconnect": SHOWN_AS_TYPED,
    "vcpus_per_lot": SHOWN,
    "ram_gib_per_lot": SHOWN,
    "disk_gib_per_lot": SHOWN,
    "network": SHOWN_AS_TYPED,
    "region": SHOWN_AS_TYPED,
    "driver_version": SHOWN,
    "stack_version": SHOWN,
    "typical_ready_minutes": SHOWN,
    "summary": SHOWN_AS_TYPED,
    "good_for": SHOWN_AS_TYPED,
    "glossary_terms": "Customers see them as links to the glossary (translated).",
    "stock_lots": "Customers see the stock on every catalog card.",
}
# The free texts a customer reads, in the order the form has them.
TEXT_FIELDS = ("summary", "good_for", "network", "region", "interconnect")
LANGUAGES_NOTE = (
    "Customers read these texts exactly as typed here, whatever their language: the shop has no per-language "
    "texts. Only a text that is word for word in the shop's translation catalogs (those of the demo models) is "
    "shown translated; a new model's texts stay in English for Spanish, Vietnamese and Turkish customers until a "
    "developer adds them to the catalogs (in the source with gettext_noop, as gpurent/catalog/demo.py does, then "
    "make messages and the translators). Empty fields are not shown."
)


def dollars_to_cents(text: str) -> int:
    """A price typed in dollars ("29", "29.5", "$29.00", "1,700.50") as exact integer cents.

    Raises:
        forms.ValidationError: not such an amount, more than two decimals, zero, or beyond what the column holds.
    """
    cleaned = text.strip().removeprefix("$").strip()
    if _GROUPED.fullmatch(cleaned):
        cleaned = cleaned.replace(",", "")
    try:
        cents = Usd.parse(cleaned).cents
    except ValueError as error:
        if "decimals" in str(error):
            raise forms.ValidationError("Enter at most two decimals (cents).", code="decimals") from None
        raise forms.ValidationError(
            "Enter the price in dollars, e.g. 29 or 29.50 (a point before the cents).", code="invalid"
        ) from None
    if cents <= 0:
        raise forms.ValidationError("Enter a price of more than $0.", code="min_value")
    if cents > MAX_PRICE_CENTS:
        raise forms.ValidationError(f"Enter at most {Usd(MAX_PRICE_CENTS).display()}.", code="max_value")
    return cents


class DollarField(forms.CharField):
    """A price of one lot in dollars; `clean` gives integer cents."""

    def __init__(self, term: Term, **kwargs: Any) -> None:
        kwargs.setdefault("label", f"Price of one lot for {term.value} days (USD)")
        kwargs.setdefault("max_length", 20)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 12}))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> int:
        text = super().clean(value)
        return dollars_to_cents(text)


def per_day(cents: int, days: int) -> str:
    """The price of a day of a term, for the operator's eye only (never stored): "$29.29"."""
    return f"${(Decimal(cents) / 100 / days).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):,}"


def price_warnings(prices: dict[Term, int], current: dict[Term, int] | None) -> list[str]:
    """Why these lot prices (cents per term) look like a slip; empty when they look right.

    A longer term that costs more per day than a shorter one, or less in all than a shorter one, is never a
    price anyone means; nor, usually, is a price that moves beyond ×10 or under 1/10 of `current` (a model's
    prices before the change; None for a new model).
    """
    found: list[str] = []
    terms = sorted(prices)
    for index, short in enumerate(terms):
        for long in terms[index + 1 :]:
            if prices[long] * short.value > prices[short] * long.value:  # per day, in integers
                found.append(
                    f"The {long.value}-day price is {per_day(prices[long], long.value)} a day, more than the "
                    f"{short.value}-day price's {per_day(prices[short], short.value)} a day: a longer term should "
                    "not cost more per day."
                )
            if prices[long] < prices[short]:
                found.append(
                    f"The {long.value}-day price ({Usd(prices[long]).display()}) is below the {short.value}-day "
                    f"price ({Usd(prices[short]).display()}): nobody would rent the shorter term."
                )
    for term in terms:
        before, after = (current or {}).get(term), prices[term]
        if before and after > before * CHANGE_FACTOR:
            found.append(
                f"The {term.value}-day price goes from {Usd(before).display()} to {Usd(after).display()} "
                f"(more than ×{CHANGE_FACTOR})."
            )
        elif before and after * CHANGE_FACTOR < before:
            found.append(
                f"The {term.value}-day price goes from {Usd(before).display()} to {Usd(after).display()} "
                f"(under 1/{CHANGE_FACTOR} of it)."
            )
    return found


class ConfirmPricesWidget(forms.CheckboxInput):
    """A box that confirms one set of prices: its value is those prices in cents ("29,20500,79000"), set by the
    form when it warns; a box ticked for other prices confirms nothing. Offered only on a posted form (the page
    that shows the warnings), never on a fresh one."""

    prices_token = ""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> str:
        return str(data.get(name, ""))

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, None, {**(attrs or {}), "value": self.prices_token})
        context["widget"]["attrs"]["checked"] = False  # ticked again by the operator, after reading the warnings
        return context


class GpuModelForm(ModelForm[GpuModel]):
    """The GPU model's form: prices in dollars with a plausibility check; on a change, lots to add or remove."""

    price_3d = DollarField(Term.THREE_DAYS)
    price_7d = DollarField(Term.WEEK)
    price_30d = DollarField(Term.MONTH)
    confirm_prices = forms.CharField(
        required=False,
        widget=ConfirmPricesWidget,
        label="Save these prices anyway",
        help_text="Tick only after reading the warnings above: it confirms exactly the prices they name.",
    )

    class Meta:
        model = GpuModel
        # The admin narrows these to its fieldsets; prices are the dollar fields above, never the cents columns.
        fields = [*CUSTOMER_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for term, name in PRICE_FIELDS.items():
            if self.instance.pk:
                current = Usd(getattr(self.instance, CENTS_FIELDS[term]))
                self.fields[name].initial = current.to_api()
                note = f"Now {current.display()} ({per_day(current.cents, term.value)} a day)."
            else:
                note = ""
            self.fields[name].help_text = f"In dollars, e.g. 29 or 29.50; stored exactly, in cents. {note} {SHOWN}"
        for name, note in CUSTOMER_FIELDS.items():
            if name in self.fields:
                field = self.fields[name]
                field.help_text = f"{field.help_text} — {note}" if field.help_text else note

    def _current_prices(self) -> dict[Term, int] | None:
        if not self.instance.pk:
            return None
        return {term: getattr(self.instance, field) for term, field in CENTS_FIELDS.items()}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        prices = {term: data.get(name) for term, name in PRICE_FIELDS.items()}
        if all(isinstance(cents, int) for cents in prices.values()):
            typed = {term: int(cents) for term, cents in prices.items() if cents is not None}
            token = ",".join(str(typed[term]) for term in sorted(typed))
            warnings = price_warnings(typed, self._current_prices())
            widget = self.fields["confirm_prices"].widget
            if isinstance(widget, ConfirmPricesWidget):
                widget.prices_token = token
            if warnings and data.get("confirm_prices") != token:
                raise forms.ValidationError(
                    [forms.ValidationError(warning, code="implausible_price") for warning in warnings]
                    + [
                        forms.ValidationError(
                            "Nothing was saved. Correct the prices, or tick “Save these prices anyway” and save "
                            "again if they are right.",
                            code="implausible_price",
                        )
                    ]
                )
            for term, field in CENTS_FIELDS.items():
                setattr(self.instance, field, typed[term])
        return data


class GpuModelChangeForm(GpuModelForm):
    """An existing model: its stock is not a field; lots are added or removed against the row as it is."""

    stock_change = forms.IntegerField(
        label="Lots to add (+) or remove (−)",
        required=False,
        initial=0,
        min_value=-100_000,
        max_value=100_000,
        help_text=(
            "e.g. 2 when two more lots arrived, −1 when one left. Applied to the stock as it is when you save, "
            "so orders placed meanwhile keep their lots."
        ),
    )
    stock_seen = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["stock_seen"].initial = self.instance.stock_lots

    def clean_stock_change(self) -> int:
        change = self.cleaned_data.get("stock_change") or 0
        # The admin's POST locked the row before this form was built (`GpuModelAdmin.get_object`): this is the
        # stock the save will change, and no reservation can move it in between.
        free = self.instance.stock_lots
        if free + change < 0:
            lots = "1 lot is" if free == 1 else f"{free} lots are"
            raise forms.ValidationError(
                f"Only {lots} free to sell now: remove at most {free}. Lots held by orders come back when their "
                "reservation lapses or their term ends; remove them then.",
                code="stock_below_zero",
            )
        return change


@admin.register(GpuModel)
class GpuModelAdmin(AuditedModelAdmin):
    form = GpuModelForm
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
    readonly_fields = ["stock_now", "languages"]

    def get_fieldsets(self, request: HttpRequest, obj: GpuModel | None = None) -> _FieldsetSpec:
        if obj is None:
            stock = ["stock_lots"]
        elif obj.hosts.exists():
            # A model with registered GPU hosts counts its stock from their free GPUs (gpurent.hosts.stock).
            stock = ["stock_lots"]
        else:
            stock = ["stock_now", "stock_change", "stock_seen"]
        confirm = ["confirm_prices"] if request.method == "POST" else []
        return [
            (None, {"fields": ["name", "slug", "vendor", "stack", "on_sale", "position"]}),
            ("Hardware", {"fields": ["memory_mib_per_card", "cards_per_lot", "interconnect"]}),
            (
                "The machine of one lot",
                {
                    "description": "Customers see every filled field of this section; empty ones are not shown.",
                    "fields": [
                        "vcpus_per_lot",
                        "ram_gib_per_lot",
                        "disk_gib_per_lot",
                        "network",
                        "region",
                        "driver_version",
                        "stack_version",
                        "typical_ready_minutes",
                    ],
                },
            ),
            ("Sale", {"fields": [*stock, "price_3d", "price_7d", "price_30d", *confirm]}),
            (
                "Description",
                {"description": LANGUAGES_NOTE, "fields": ["summary", "good_for", "glossary_terms", "languages"]},
            ),
        ]

    def get_form(self, request: HttpRequest, obj: GpuModel | None = None, change: bool = False, **kwargs: Any) -> Any:
        # A host-managed model's stock is its hosts' (gpurent.hosts.stock): no lots to add or remove here.
        typed_stock = obj is not None and not obj.hosts.exists()
        kwargs["form"] = GpuModelChangeForm if typed_stock else GpuModelForm
        return super().get_form(request, obj, change, **kwargs)

    class Media:
        css = {"all": ["backoffice/desk.css"]}  # the table beside the filters at 1280 px: headings wrap

    def get_readonly_fields(self, request: HttpRequest, obj: GpuModel | None = None) -> list[str]:
        # A model with registered GPU hosts counts its stock from their free GPUs (gpurent.hosts.stock): typed
        # here, it would be overwritten at the next change of a host or an allocation.
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.hosts.exists():
            readonly.append("stock_lots")
        return readonly

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> GpuModel | None:
        """On a POST (inside the admin's transaction), the row locked before the form reads its stock; the lock
        is held until the save commits, so a reservation waits for it rather than being undone by it."""
        if request.method != "POST":
            return super().get_object(request, object_id, from_field)
        queryset: QuerySet[GpuModel] = self.get_queryset(request).select_for_update()
        field = self.model._meta.pk if from_field is None else self.model._meta.get_field(from_field)
        try:
            object_id = field.to_python(object_id)
            return queryset.get(**{field.name: object_id})
        except (self.model.DoesNotExist, ValueError, forms.ValidationError):
            return None

    def save_model(self, request: HttpRequest, obj: Model, form: ModelForm[Any], change: bool) -> None:
        if not change or not isinstance(obj, GpuModel):
            super().save_model(request, obj, form, change)
            return
        with transaction.atomic():
            current = GpuModel.objects.select_for_update().get(pk=obj.pk)
            before = snapshot(current)
            # Everything but the stock, which only moves relatively below (and with orders, and with the hosts).
            fields = [
                field.name
                for field in GpuModel._meta.concrete_fields
                if not field.primary_key and field.name not in ("stock_lots", "created_at")
            ]
            obj.save(update_fields=fields)
            change_lots = int(form.cleaned_data.get("stock_change") or 0) if "stock_change" in form.fields else 0
            applied = change_lots == 0 or bool(
                GpuModel.objects.filter(pk=obj.pk, stock_lots__gte=-change_lots).update(
                    stock_lots=F("stock_lots") + change_lots
                )
            )
            obj.stock_lots = GpuModel.objects.values_list("stock_lots", flat=True).get(pk=obj.pk)
            audit_record(actor=request.user, action="admin.change", target=obj, before=before, after=snapshot(obj))
        if "stock_change" in form.fields:
            self._tell_stock(request, obj, current.stock_lots, change_lots if applied else 0, form)
        if not applied:  # the row is locked since the form was checked, so only a database without row locks
            self.message_user(
                request,
                f"The stock was not changed: it is {obj.stock_lots} now, fewer than the {-change_lots} lots to "
                "remove. Check it and save again.",
                messages.ERROR,
            )

    def _tell_stock(self, request: HttpRequest, gpu: GpuModel, was: int, change: int, form: ModelForm[Any]) -> None:
        """Say what the stock became, and whether orders moved it since the page was opened."""
        if change:
            self.message_user(request, f"Stock of {gpu.name}: {was} → {gpu.stock_lots} lots ({change:+d}).")
        seen = form.cleaned_data.get("stock_seen")
        if seen is None or seen == was:
            return
        moved = f"orders took {seen - was} lots" if seen > was else f"{was - seen} lots came back"
        added = f" Your {change:+d} was applied to the {was} lots left." if change else ""
        self.message_user(
            request, f"It was {seen} when you opened the page: {moved} meanwhile.{added}", messages.WARNING
        )

    @admin.display(description="Stock now")
    def stock_now(self, gpu: GpuModel) -> str:
        lots = "1 lot" if gpu.stock_lots == 1 else f"{gpu.stock_lots} lots"
        return f"{lots} free to sell (lots reserved by orders are already taken out). Customers see the stock."

    @admin.display(description="Languages")
    def languages(self, gpu: GpuModel) -> SafeString:
        """For each text customers read, whether the shop's catalogs translate it or it is shown as typed."""
        others = [(code, name) for code, name in settings.LANGUAGES if code != settings.LANGUAGE_CODE[:2]]
        rows = []
        for name in TEXT_FIELDS:
            text = getattr(gpu, name)
            if not text:
                continue
            translated = []
            for code, language in others:
                with translation.override(code):
                    if translation.gettext(text) != text:
                        translated.append(language)
            if translated:
                rows.append((name, f"translated for {', '.join(translated)}"))
            else:
                rows.append((name, "shown as typed to every customer (no translation in the shop's catalogs)"))
        if not rows:
            return format_html("{}", "No text yet.")
        return format_html('<ul class="languages">{}</ul>', format_html_join("", "<li>{}: {}</li>", rows))

    @admin.display(description=_("3 days"), ordering="price_3d_cents")
    def price_3_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.THREE_DAYS).display()

    @admin.display(description=_("7 days"), ordering="price_7d_cents")
    def price_7_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.WEEK).display()

    @admin.display(description=_("30 days"), ordering="price_30d_cents")
    def price_30_days(self, gpu: GpuModel) -> str:
        return gpu.lot_price(Term.MONTH).display()
