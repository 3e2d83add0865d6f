"""Admin parts shared by every app: operator changes that write the audit log, dates and money as the desks write
them. (The audit log's own page names objects of every app: it is the back office's, `backoffice/records_admin.py`.)"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, cast

from django.conf import settings
from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.db import models, transaction
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from .audit import audit_record, snapshot
from .formats import usd_text
from .models import OperatorNotice
from .money import Usd

# The change list of a model whose bulk actions run through `form_action`: its form carries a fresh idempotency
# key, so a double submit of an action acts once (decision 0260).
ONCE_PER_KEY_CHANGE_LIST = "admin/change_list_once_per_key.html"


def with_zone(value: Any) -> str:
    """A date as operators read it in lists and on the desks: with its time zone, never a bare clock time
    ("06 Dec 2026, 11:23 UTC"); "—" when there is none."""
    return timezone.localtime(value).strftime("%d %b %Y, %H:%M %Z") if value else "—"


def moment_column(name: str, description: Any) -> Callable[[Any], str]:
    """A change list column (or read-only field) showing the datetime attribute `name` as the desks write it
    (`with_zone`: "06 Dec 2026, 10:53 UTC"), sorted by it; its cells' class is "field-<name>_shown"."""

    @admin.display(description=description, ordering=name)
    def moment(obj: Any) -> str:
        return with_zone(getattr(obj, name))

    moment.__name__ = f"{name}_shown"
    return moment


def usd_column(name: str, description: Any) -> Callable[[Any], str]:
    """A change list column (or read-only field) showing the cents attribute `name` as money ("$1,580.00"; "—"
    when there is none), sorted by it; its cells' class is "field-<name without _cents>"."""

    @admin.display(description=description, ordering=name)
    def money(obj: Any) -> str:
        cents = getattr(obj, name)
        return "—" if cents is None else usd_text(Usd(cents))

    money.__name__ = name.removesuffix("_cents")
    return money


def email_html(email: str) -> SafeString:
    """An e-mail address that a narrow column may break only before its "@": each side stays whole
    (backoffice/desk.css), so it never reads "qa-es-1796554416@examp / le.com"."""
    local, at, domain = email.rpartition("@")
    if not at:
        return format_html('<span class="email-part">{}</span>', email)
    return format_html('<span class="email-part">{}</span><wbr><span class="email-part">@{}</span>', local, domain)


def address_ends_html(address: str) -> SafeString:
    """A crypto address by its two ends (8 and 6 characters), the whole one on hover: at full length a TRON or
    Ethereum address took a quarter of a desk's table (decision 0541); the detail page and the search keep it whole."""
    if len(address) <= 16:
        return format_html("{}", address)
    return format_html('<span title="{}">{}…{}</span>', address, address[:8], address[-6:])


class QueueFilter(admin.SimpleListFilter):
    """A list filter with a default choice (`default`, e.g. the rows waiting for an operator) and no Django "All" of its
    own: the subclass's lookups name every choice, its own "All" among them."""

    default = ""

    def value(self) -> str:
        return super().value() or self.default

    def choices(self, changelist: Any) -> Any:
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


def customer_language_html(customer: Any) -> SafeString:
    """The language a customer reads what an operator writes to them (a support reply, a rejection reason, sent
    verbatim), for the field where the operator writes it: "<strong>Tiếng Việt (vi)</strong> — reply in it."
    A customer who never chose one gets the shop's default, and the operator is told so."""
    code = customer.email_language()
    name = dict(settings.LANGUAGES).get(code, code)
    advice = _("write in it.") if customer.language else _("not chosen, the shop's default: write in it.")
    return format_html("<strong>{} ({})</strong> — {}", name, code, advice)


class OwnerEmailColumn:
    """A change list's "owner" column as an e-mail broken only before its "@" (`email_html`): put "owner_email"
    in `list_display` and "owner" in `list_select_related`."""

    @admin.display(description=_lazy("owner"), ordering="owner__email")
    def owner_email(self, obj: Any) -> SafeString:
        return email_html(obj.owner.email)


class BoundedCountPaginator(Paginator):
    """A change list's paginator that counts at most `CAP` rows (`SELECT COUNT(*) FROM (… LIMIT CAP)`): with a
    plain count every page of a long history (10^6 ledger entries) scans it whole, twice. Past `CAP` rows the
    list says "10000" and its last page is the CAP-th row; operators narrow it with the filters, search or date
    hierarchy (issue 16, decision 0271)."""

    CAP = 10_000

    @cached_property
    def count(self) -> int:
        return int(cast(QuerySet[Any], self.object_list)[: self.CAP].count())


class BoundedListAdmin(admin.ModelAdmin[Any]):
    """A change list whose cost does not grow with the table: a capped count and no second, unfiltered count.

    "Select all" (select across) offers the capped count, so an action on it acts only when the filtered list
    holds at most `BoundedCountPaginator.CAP` rows, exactly the rows it announced; past the cap the action is
    refused, nothing is done, and the operator is asked to narrow the list (decision 0292).
    """

    paginator = BoundedCountPaginator
    show_full_result_count = False

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        action_form = self.action_form(request.POST, auto_id=None)
        action_form.fields["action"].choices = self.get_action_choices(request)
        cap = BoundedCountPaginator.CAP
        if action_form.is_valid() and action_form.cleaned_data["select_across"] and queryset[: cap + 1].count() > cap:
            self.message_user(
                request,
                _(
                    "Nothing was done: “select all” can act on at most %(cap)s rows, and this list has more. "
                    "Narrow it with the filters, the search or the dates, then select again."
                )
                % {"cap": f"{cap:,}"},
                messages.WARNING,
            )
            return HttpResponseRedirect(request.get_full_path())
        return super().response_action(request, queryset)


class AuditedModelAdmin(BoundedListAdmin):
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


class ReadOnlyModelAdmin(BoundedListAdmin):
    """Rows that change only through services (money, the audit log): visible, never added, edited or deleted."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(OperatorNotice)
class OperatorNoticeAdmin(ReadOnlyModelAdmin):
    """Failures meant for operators (a rate source's HTTP status, a stale rate), one row per distinct detail."""

    list_display = [
        moment_column("last_seen", "last seen"),
        "code",
        "detail",
        "count",
        moment_column("first_seen", "first seen"),
    ]
    list_filter = ["code"]
    search_fields = ["detail"]
