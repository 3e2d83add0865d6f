"""Sorting and filtering the catalog from a GET form: works as a plain form without JavaScript, and live
with htmx (the same view answers with the results partial)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gpurent.core.forms import UsdField
from gpurent.core.money import Usd

from .enums import Stack, Term, Vendor
from .models import GpuModel

__all__ = ["CATALOG_ORDER", "CatalogFilterForm", "catalog_order", "gpus_filtered", "min_mib_for_gb"]


def _memory_choice(gb: int) -> str:
    return gettext("≥ %(gb)s GB per card") % {"gb": gb}


# Lazy: the label is formatted in the language of each request, not in the one active at import.
_memory_label = lazy(_memory_choice, str)

MEMORY_CHOICES = [
    ("", _("Any memory")),
    *[(str(gb), _memory_label(gb)) for gb in (24, 48, 80, 141, 180)],
]
SORT_CHOICES = [
    ("", _("Catalog order")),
    ("price", _("Price per term, lowest first")),
    ("-price", _("Price per term, highest first")),
    ("-memory", _("Memory per card, most first")),
    ("memory", _("Memory per card, least first")),
]
_PRICE_FIELD = {Term.THREE_DAYS: "price_3d_cents", Term.WEEK: "price_7d_cents", Term.MONTH: "price_30d_cents"}


def min_mib_for_gb(gb: int) -> int:
    """The least memory in MiB (what the driver reports) that is at least `gb` decimal gigabytes, as cards are
    named: "80 GB" is 80 × 10⁹ bytes = 76,294 MiB, so an H100 80GB (81,559 MiB) counts."""
    return -(-gb * 10**9 // 2**20)


class CatalogFilterForm(forms.Form):
    memory = forms.TypedChoiceField(
        label=_("Memory"), choices=MEMORY_CHOICES, required=False, coerce=int, empty_value=None
    )
    vendor = forms.ChoiceField(label=_("Vendor"), choices=[("", _("Any vendor")), *Vendor.choices], required=False)
    stack = forms.ChoiceField(label=_("Software"), choices=[("", _("Any stack")), *Stack.choices], required=False)
    term = forms.TypedChoiceField(label=_("Term"), choices=Term.choices, coerce=int, required=False, empty_value=None)
    # A money field like every other: parsed by `Usd.parse` (no "1e3", non-ASCII digits or padding), cents allowed.
    max_price = UsdField(
        label=_("Max. price of one lot (USD)"), min_value=Usd(1), max_value=Usd(100_000_000), required=False
    )
    in_stock = forms.BooleanField(label=_("In stock only"), required=False)
    sort = forms.ChoiceField(label=_("Sort"), choices=SORT_CHOICES, required=False)

    def __init__(self, data: QueryDict | None = None, **kwargs: Any) -> None:
        # The term select shows the term the prices are for: 7 days unless one is chosen, as every card preselects.
        if data is not None and not data.get("term"):
            data = data.copy()
            data["term"] = str(Term.WEEK.value)
        super().__init__(data, **kwargs)

    def term_or_default(self) -> Term:
        term = self.cleaned_data.get("term") if self.is_valid() else None
        return Term(term) if term else Term.WEEK

    @property
    def is_filtering(self) -> bool:
        chosen = {name: value for name, value in self.cleaned_data.items() if name != "term"} if self.is_valid() else {}
        return self.is_valid() and (
            self.term_or_default() != Term.WEEK or any(value not in (None, "", False) for value in chosen.values())
        )


CATALOG_ORDER = ("position", "name")


def gpus_filtered(queryset: QuerySet[GpuModel], form: CatalogFilterForm) -> QuerySet[GpuModel]:
    """`queryset` narrowed and sorted as the form says; an invalid form changes nothing."""
    if not form.is_valid():
        return queryset
    data: dict[str, Any] = form.cleaned_data
    price_field = _PRICE_FIELD[form.term_or_default()]
    if data["memory"]:
        queryset = queryset.filter(memory_mib_per_card__gte=min_mib_for_gb(data["memory"]))
    if data["vendor"]:
        queryset = queryset.filter(vendor=data["vendor"])
    if data["stack"]:
        queryset = queryset.filter(stack=data["stack"])
    if data["max_price"]:
        queryset = queryset.filter(**{f"{price_field}__lte": data["max_price"].cents})
    if data["in_stock"]:
        queryset = queryset.filter(stock_lots__gt=0)
    return queryset.order_by(*catalog_order(form))


def catalog_order(form: CatalogFilterForm) -> tuple[str, ...]:
    """The order the form asks for, ending in a unique field (`name`): usable as a keyset page's key."""
    if not form.is_valid():
        return CATALOG_ORDER
    price_field = _PRICE_FIELD[form.term_or_default()]
    first = {"price": price_field, "-price": f"-{price_field}", "memory": "memory_mib_per_card"}
    first["-memory"] = "-memory_mib_per_card"
    sort = form.cleaned_data["sort"]
    return (first[sort], *CATALOG_ORDER) if sort in first else CATALOG_ORDER
