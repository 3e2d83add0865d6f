"""The records outside the desks, as operators read them (QA walk of the back office, defects 18 and 19).

- The audit trail: each entry's object by the reference operators use (R-, D-, P-, S-), linked to its desk or its
  admin page where the reader may open it, searched by that reference; its before/after as the fields it changed,
  money as money, with the record as stored below.
- The worker's task results: moments as the desks write them.

The trail names objects of every app, so it lives in the back office (which may import them all), not in `core`.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, cast

from django.apps import apps
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult, get_date_max

from gpurent.core.admin import ReadOnlyModelAdmin, moment_column, with_zone
from gpurent.core.formats import usd_text
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.payments.assets import Pair, format_units, pair_get
from gpurent.payments.errors_crypto import UnsupportedPair
from gpurent.payments.receipts.receipt import rate_text

from .models import PaymentsDesk, PayoutsDesk, ProvisioningDesk

# The reference operators know an audited object by, as lookups from it: the first that has one names it. A
# payment's entries are on its intent, named by the order or top-up it pays.
REFERENCE_PATHS: dict[str, tuple[str, ...]] = {
    "orders.order": ("ref",),
    "orders.machinerequest": ("order__ref",),
    "hosts.hostrental": ("order__ref",),
    "payments.paymentintent": ("order__ref", "deposit__ref"),
    "payments.deposit": ("ref",),
    "payments.payout": ("ref",),
    "support.supportrequest": ("ref",),
}
# Searching a reference also finds an order's payments by the deposit each was credited as (D-…).
SEARCH_PATHS = {**REFERENCE_PATHS, "payments.paymentintent": ("order__ref", "deposit__ref", "payments__deposit__ref")}
# The desk an object is worked at, where the reader may open that desk and the object is on it.
DESKS: dict[str, type[models.Model]] = {
    "orders.order": ProvisioningDesk,
    "payments.paymentintent": PaymentsDesk,
    "payments.payout": PayoutsDesk,
}
# R-7KQ3-M9XA and its kin (`core.references`), as an operator may type it.
REFERENCE = re.compile(r"[DPRS]-[0-9A-Z]{4}-[0-9A-Z]{4}", re.IGNORECASE)
# How a field's label says its unit, left out when the value is written as money.
UNIT_IN_LABEL = re.compile(r"\s*\((?:cents|quote units)\)$")
RATE_KEYS = frozenset({"usd_per_unit", "rate_usd"})


@dataclass(frozen=True, slots=True)
class Named:
    """How the trail names an entry's object: its reference (or its own name), and where it opens, if anywhere."""

    text: str
    url: str | None = None

    def html(self) -> SafeString:
        if self.url is None:
            return format_html("{}", self.text)
        return format_html('<a href="{}">{}</a>', self.url, self.text)


def _model(label: str) -> type[models.Model] | None:
    try:
        return apps.get_model(label)
    except (LookupError, ValueError):
        return None


def _kind(label: str, *, plural: bool = False) -> str:
    """An object type by its name ("withdrawal", "GPU models"); the label itself for a model since removed."""
    model = _model(label)
    if model is None:
        return label
    return str(model._meta.verbose_name_plural if plural else model._meta.verbose_name)


def _names(label: str, model: type[models.Model], ids: set[str]) -> dict[str, str]:
    """The objects of `ids` that still exist, each by its reference or, without one, by its own name."""
    paths = REFERENCE_PATHS.get(label)
    rows = model._default_manager.filter(pk__in=[pk for pk in ids if _readable(model, pk)])
    if paths is None:
        return {str(pk): str(obj) for pk, obj in rows.in_bulk().items()}
    return {str(pk): next((ref for ref in refs if ref), "") for pk, *refs in rows.values_list("pk", *paths)}


def _readable(model: type[models.Model], pk: str) -> bool:
    """Whether `pk` reads as a key of `model` (one that does not is named by its kind and id: never a 500)."""
    try:
        model._meta.pk.to_python(pk)
    except ValidationError:
        return False
    return True


def _admin_url(model: type[models.Model], pk: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])


def _urls(request: HttpRequest, label: str, model: type[models.Model], ids: set[str]) -> dict[str, str]:
    """Where each object opens for this reader: its desk if it is on one they may open, else its admin page."""
    urls: dict[str, str] = {}
    desk = DESKS.get(label)
    if desk is not None and admin.site.is_registered(desk):
        desk_admin = admin.site.get_model_admin(desk)
        if desk_admin.has_view_permission(request):
            on_desk = desk_admin.get_queryset(request).filter(pk__in=ids).prefetch_related(None)
            urls = {str(pk): _admin_url(desk, pk) for pk in on_desk.values_list("pk", flat=True)}
    if admin.site.is_registered(model) and admin.site.get_model_admin(model).has_view_permission(request):
        urls = {pk: _admin_url(model, pk) for pk in ids} | urls
    return urls


def objects_named(request: HttpRequest, entries: list[AuditLogEntry]) -> dict[tuple[str, str], Named]:
    """How the trail names the objects of `entries`, by (type, id): two queries per kind of object, whatever the
    number of entries. An object since deleted is named by its kind and id, without a link."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for entry in entries:
        wanted[entry.target_type].add(entry.target_id)
    named: dict[tuple[str, str], Named] = {}
    for label, ids in wanted.items():
        model = _model(label)
        names = _names(label, model, ids) if model is not None else {}
        urls = _urls(request, label, model, set(names)) if model is not None else {}
        kind = _kind(label)
        for pk in ids:
            named[label, pk] = Named(names[pk], urls.get(pk)) if names.get(pk) else Named(f"{kind} #{pk}")
    return named


def entries_named_by(text: str) -> Q | None:
    """The entries whose object a reference names (`text`, in any case): None when `text` is no reference."""
    ref = text.strip().upper()
    if REFERENCE.fullmatch(ref) is None:
        return None
    found = Q(pk__in=[])
    for label, paths in SEARCH_PATHS.items():
        model = _model(label)
        if model is None:
            continue
        by_ref = Q()
        for path in paths:
            by_ref |= Q(**{path: ref})
        ids = [str(pk) for pk in model._default_manager.filter(by_ref).values_list("pk", flat=True).distinct()]
        if ids:
            found |= Q(target_type=label, target_id__in=ids)
    return found


def _field(model: type[models.Model] | None, key: str) -> models.Field[Any, Any] | None:
    """The target's field stored under `key` (an attname such as "owner_id", or a name), if it has one."""
    if model is None:
        return None
    for field in model._meta.concrete_fields:
        if key in (field.attname, field.name):
            return field
    try:
        found = model._meta.get_field(key)
    except FieldDoesNotExist:
        return None
    return found if isinstance(found, models.Field) else None


def _label(key: str, model: type[models.Model] | None) -> str:
    """A recorded key as the object's field calls it ("txid" → "transaction id"), without the unit of money
    written as money ("amount_cents" → "amount", "sent_units" → "sent")."""
    field = _field(model, key)
    if field is not None:
        return UNIT_IN_LABEL.sub("", str(field.verbose_name))
    return key.removesuffix("_cents").removesuffix("_units").replace("_", " ")


def _value(key: str, value: Any, *, model: type[models.Model] | None, pair: Pair | None, asset: str) -> str:
    """A recorded value as the desks write it: cents as dollars, quote units as the asset's amount, a rate per
    coin, a moment with its zone, a choice by its label; "—" for none."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and key.endswith("_cents"):
        return usd_text(Usd(value))
    if isinstance(value, int) and key.endswith("_units") and pair is not None:
        return f"{format_units(value, pair)} {pair.asset}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    if key in RATE_KEYS and asset:
        try:
            return rate_text(Decimal(str(value)), asset)
        except InvalidOperation:
            return str(value)
    if isinstance(value, str) and key.endswith("_at"):
        try:
            return with_zone(datetime.fromisoformat(value))
        except ValueError:
            return value
    field = _field(model, key)
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.ForeignKey) and key == field.attname:  # "decided_by_id": 1 is the operator's e-mail
        related = cast(type[models.Model], field.related_model)._default_manager.filter(pk=value).first()
        return str(related) if related is not None else f"#{value}"
    return str(value)


def _pair(entry: AuditLogEntry, model: type[models.Model] | None) -> Pair | None:
    """The asset and network the entry's amounts are in: as recorded, else its object's (a payment's intent)."""
    recorded = [side for side in (entry.after, entry.before) if isinstance(side, dict)]
    found = next(((side["asset"], side["network"]) for side in recorded if "asset" in side and "network" in side), None)
    if found is None and model is not None and _field(model, "asset") and _field(model, "network"):
        found = model._default_manager.filter(pk=entry.target_id).values_list("asset", "network").first()
    try:
        return pair_get(*found) if found is not None else None
    except UnsupportedPair:
        return None


def changed_fields(entry: AuditLogEntry) -> list[tuple[str, str, str]]:
    """The entry's fields as (label, before, after): with both sides recorded, only the fields that changed; a side
    not recorded is blank."""
    before = entry.before if isinstance(entry.before, dict) else None
    after = entry.after if isinstance(entry.after, dict) else None
    model = _model(entry.target_type)
    pair = _pair(entry, model)
    asset = pair.asset if pair is not None else str((after or before or {}).get("asset") or "")
    keys = list(dict.fromkeys([*(before or {}), *(after or {})]))
    if before is not None and after is not None:
        keys = [key for key in keys if key not in before or key not in after or before[key] != after[key]]

    def side(values: dict[str, Any] | None, key: str) -> str:
        if values is None or key not in values:
            return ""
        return _value(key, values[key], model=model, pair=pair, asset=asset)

    return [(_label(key, model), side(before, key), side(after, key)) for key in keys]


def _stored(value: Any) -> SafeString:
    if value is None:
        return format_html("{}", "—")
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


WHEN = moment_column("created_at", "when")


class ObjectKindFilter(admin.SimpleListFilter):
    """The kinds of object the trail holds, by their names ("withdrawals"), not their labels ("payments.payout")."""

    title = "object type"
    parameter_name = "target_type"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        labels = AuditLogEntry.objects.order_by("target_type").values_list("target_type", flat=True).distinct()
        kinds = [(label, _kind(label, plural=True)) for label in labels]
        return sorted(kinds, key=lambda kind: kind[1].lower())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(target_type=self.value()) if self.value() else queryset


@admin.register(AuditLogEntry)
class AuditLogEntryAdmin(ReadOnlyModelAdmin):
    """Read-only: the audit log is append-only, even for superusers. Each page names its entries' objects in two
    queries per kind of object (`objects_named`), whatever its length."""

    list_display = [WHEN, "actor_label", "action", "target"]
    list_filter = ["action", ObjectKindFilter]
    search_fields = ["actor_label", "target_id", "action"]
    date_hierarchy = "created_at"

    class Media:
        css = {"all": ["backoffice/desk.css", "backoffice/records.css"]}

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [WHEN, "actor_label", "action", "target", "changes", "before_stored", "after_stored"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self.get_fields(request, obj)

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        entries = list(changelist.result_list)
        named = objects_named(request, entries)
        for entry in entries:
            entry.named = named[entry.target_type, entry.target_id]
        return changelist

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        entry = super().get_object(request, object_id, from_field)
        if entry is not None:
            entry.named = objects_named(request, [entry])[entry.target_type, entry.target_id]
        return entry

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        by_reference = entries_named_by(search_term)
        if by_reference is not None:
            found = found | queryset.filter(by_reference)
        return found, may_have_duplicates

    @admin.display(description="object")
    def target(self, entry: Any) -> SafeString:
        named: Named = getattr(entry, "named", None) or Named(f"{entry.target_type} #{entry.target_id}")
        return named.html()

    @admin.display(description="changes")
    def changes(self, entry: AuditLogEntry) -> SafeString:
        rows = changed_fields(entry)
        if not rows:
            return format_html("{}", "Nothing recorded beyond the action.")
        return format_html(
            '<table class="audit-changes"><thead><tr><th scope="col">field</th><th scope="col">before</th>'
            '<th scope="col">after</th></tr></thead><tbody>{}</tbody></table>',
            format_html_join("", "<tr><th>{}</th><td>{}</td><td>{}</td></tr>", rows),
        )

    @admin.display(description="before, as stored")
    def before_stored(self, entry: AuditLogEntry) -> SafeString:
        return _stored(entry.before)

    @admin.display(description="after, as stored")
    def after_stored(self, entry: AuditLogEntry) -> SafeString:
        return _stored(entry.after)


# django-tasks-db registers its own page when imported (above): this one takes its place.
admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class TaskResultAdmin(DBTaskResultAdmin):
    """The worker's task results (django-tasks-db's page), their moments as the desks write them."""

    enqueued_at_shown = staticmethod(moment_column("enqueued_at", "enqueued at"))
    started_at_shown = staticmethod(moment_column("started_at", "started at"))
    finished_at_shown = staticmethod(moment_column("finished_at", "finished at"))
    list_display = (
        "id",
        "task_name",
        "status",
        "enqueued_at_shown",
        "started_at_shown",
        "finished_at_shown",
        "priority",
        "queue_name",
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        moments = {"enqueued_at", "started_at", "finished_at"}
        return [f"{name}_shown" if name in moments else name for name in super().get_readonly_fields(request, obj)]

    @admin.display(description="run after")
    def display_run_after(self, obj: DBTaskResult) -> str:
        return "—" if obj.run_after == get_date_max() else with_zone(obj.run_after)
