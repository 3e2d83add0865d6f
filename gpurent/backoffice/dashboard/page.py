"""The dashboard's page in the back office: the `Dashboard` proxy's admin, whose one URL is the page itself.

Who sees it: staff with `backoffice.view_dashboard` (role `reports`, and superusers); the admin site sends anyone
else to its login page, and a staff member without the permission gets 403. The period comes from `?days=`
(30, 90 or 365); another value is answered 400 with the selector and its message, nothing computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.backoffice.models import Dashboard
from gpurent.core.admin import ReadOnlyModelAdmin
from gpurent.core.formats import date_text, usd_text
from gpurent.core.money import Usd

from . import charts
from .figures import (
    Funnel,
    Medians,
    OpenWork,
    Series,
    funnel_of,
    medians_of,
    open_work,
    received_by_pair,
    revenue_by_term,
)
from .numbers import count_text, duration_text, percent_text
from .occupancy import ModelOccupancy, occupancy_by_model, orders_now
from .periods import DEFAULT_DAYS, Period, PeriodForm, period_of

__all__ = ["WORK_PERMISSIONS", "DashboardAdmin", "work_context"]

# The lines of "Waiting for an operator" (`backoffice/dashboard_work.html`) and the permission of the desk each one
# links to: the dashboard shows every line, the back office's home page those of the desks its reader may open.
WORK_PERMISSIONS = {
    "payouts": "backoffice.view_payoutsdesk",
    "payments": "backoffice.view_paymentsdesk",
    "provisioning": "backoffice.view_provisioningdesk",
    "machine_requests": "orders.view_machinerequest",
    "support": "support.view_supportrequest",
}


def _usd(cents: int | Decimal) -> str:
    return usd_text(Usd(int(cents)))


def _usd_axis(cents: int | Decimal) -> str:
    return usd_text(Usd(int(cents)), short=True)


def _bucket_names(period: Period) -> tuple[list[str], list[str]]:
    """Each bucket's name in full (a bar's title, a table's row) and under the axis."""

    def full(day: date) -> str:
        return _("Week of %(day)s") % {"day": date_text(day)} if period.bucket == "week" else date_text(day)

    return [full(day) for day in period.buckets], [date_text(day, year=False) for day in period.buckets]


def _money_block(period: Period, series: Sequence[Series], title: str, description: str, key: str) -> dict[str, Any]:
    """A stacked-bar chart of USD per bucket, its legend and its table (the buckets with any money)."""
    names, axis = _bucket_names(period)
    chart = charts.stacked_bars(
        [(s.label, s.values) for s in series], buckets=names, axis_labels=axis, fmt=_usd_axis, value_fmt=_usd
    )
    rows = [
        {
            "bucket": names[i],
            "values": [_usd(s.values[i]) for s in series],
            "total": _usd(sum(s.values[i] for s in series)),
        }
        for i in range(len(period.buckets))
        if any(s.values[i] for s in series)
    ]
    total = sum(s.total for s in series)
    return {
        # An empty chart says so: drawn, its only value line was "$0.01" (the scale's smallest step).
        "any": bool(rows),
        "key": key,
        "title": title,
        "description": description % {"total": _usd(total)},
        "chart": chart,
        "columns": [s.label for s in series],
        "rows": rows,
        "totals": [_usd(s.total) for s in series],
        "total": _usd(total),
    }


# What an average of cards is rounded to (`ModelOccupancy.average_cards`).
_TENTH = Decimal("0.1")


def _occupancy_block(period: Period, models: Sequence[ModelOccupancy]) -> dict[str, Any]:
    """The occupancy chart, its legend and its table. A model's line is drawn when one of its daily (weekly)
    averages reads above 0: a rental of a few minutes rounds to 0.0 card every day, and its line lay on the axis of
    a 0–1 scale (QA walk, decision 0563). Such a model's figures read "< 0.1", not "0", in the legend and table."""
    _, axis = _bucket_names(period)
    buckets = range(len(period.buckets))
    averages = {m.gpu_id: [m.average_cards(period, i) for i in buckets] for m in models}
    drawn = [m for m in models if any(averages[m.gpu_id])]
    chart = charts.line_chart(
        [(m.name, averages[m.gpu_id], _average_text(m, period)) for m in drawn],
        axis_labels=axis,
        fmt=count_text,
        precision=_TENTH,
    )
    rows = [
        {
            "name": m.name,
            "fleet": count_text(m.fleet_cards),
            "average": _average_text(m, period),
            "utilisation": _utilisation_text(m, period),
        }
        for m in models
    ]
    rented = any(any(m.card_seconds) for m in models)
    # Rented, but too little to draw: said in words, as an empty money chart is ("Nothing in this period.").
    return {"chart": chart, "rows": rows, "any": bool(drawn), "too_few": rented and not drawn}


def _average_text(model: ModelOccupancy, period: Period) -> str:
    """Cards rented on average over the period: "0.2"; "< 0.1" for a model rented too little to read as a tenth."""
    average = model.average_over(period)
    if average == 0 and any(model.card_seconds):
        return f"< {count_text(_TENTH)}"
    return count_text(average)


def _utilisation_text(model: ModelOccupancy, period: Period) -> str:
    use = model.utilisation(period)
    if use is None:
        return "—"
    if use == 0 and any(model.card_seconds):
        return f"< {percent_text(_TENTH)}"
    return percent_text(use)


def _funnel_block(funnel: Funnel, medians: Medians) -> dict[str, Any]:
    def drop(before: int, after: int, sentence: str) -> str:
        # Says what the figures compare: a bare "−100% (4)" read as a change from the period before.
        lost = before - after
        if before == 0 or lost == 0:  # nothing was lost: the bars are as long, a "0 fewer (−0%)" says nothing
            return ""
        return sentence % {"share": percent_text(Decimal(100 * lost) / before), "count": count_text(lost)}

    stages = [
        (_("Placed: %(count)s") % {"count": count_text(funnel.placed)}, ""),
        (
            _("Paid: %(count)s") % {"count": count_text(funnel.paid)},
            drop(funnel.placed, funnel.paid, _("%(count)s fewer than placed (−%(share)s)")),
        ),
        (
            _("Ready: %(count)s") % {"count": count_text(funnel.ready)},
            drop(funnel.paid, funnel.ready, _("%(count)s fewer than paid (−%(share)s)")),
        ),
    ]
    return {
        "chart": charts.funnel_chart(stages, [funnel.placed, funnel.paid, funnel.ready]),
        "unpaid": {
            "expired": count_text(funnel.expired),
            "cancelled": count_text(funnel.cancelled),
            "awaiting": count_text(funnel.awaiting),
        },
        "not_ready": {"preparing": count_text(funnel.preparing), "failed": count_text(funnel.failed)},
        "to_paid": duration_text(medians.to_paid),
        "paid_to_ready": duration_text(medians.paid_to_ready),
        "paid_count": count_text(funnel.paid),
        "ready_count": count_text(funnel.ready),
    }


def _work_block(work: OpenWork) -> dict[str, Any]:
    return {
        "payouts": count_text(work.payouts),
        "payouts_total": _usd(work.payouts_cents),
        "payouts_oldest": date_text(work.payouts_oldest, time=True, zone=True) if work.payouts_oldest else "",
        "reported": count_text(work.reported),
        "in_review": count_text(work.in_review),
        "to_provision": count_text(work.to_provision),
        "machine_requests": count_text(work.machine_requests),
        "access_to_remove": count_text(work.access_to_remove),
        "support_requests": count_text(work.support_requests),
        "support_oldest": date_text(work.support_oldest, time=True, zone=True) if work.support_oldest else "",
    }


def work_context(user: Any) -> dict[str, Any]:
    """The "Waiting for an operator" lines of the back office's home page: the counts (`work`) and the lines `user`
    may see (`may`); nothing, and no query, for a user who may open none of those desks."""
    may = {line: user.has_perm(permission) for line, permission in WORK_PERMISSIONS.items()}
    if not any(may.values()):
        return {}
    return {"work": _work_block(open_work()), "may": may}


def dashboard_context(period: Period) -> dict[str, Any]:
    """Every figure of the page for `period`, written for the reader (about a dozen queries in all)."""
    funnel, orders = funnel_of(period), orders_now(period)
    return {
        "period": period,
        "since": date_text(period.buckets[0]),
        "revenue": _money_block(
            period,
            revenue_by_term(period),
            _("Revenue by term"),
            _("Revenue from rentals, net of refunds, by term: %(total)s in the period."),
            "revenue",
        ),
        "received": _money_block(
            period,
            received_by_pair(period),
            _("Money received by pair"),
            _("Payments credited to balances, by the asset and network they were paid in: %(total)s in the period."),
            "received",
        ),
        "occupancy": _occupancy_block(period, occupancy_by_model(period, orders)),
        "funnel": _funnel_block(funnel, medians_of(period, funnel)),
        "work": _work_block(open_work(to_provision=orders.waiting)),
        "may": dict.fromkeys(WORK_PERMISSIONS, True),
    }


@admin.register(Dashboard)
class DashboardAdmin(ReadOnlyModelAdmin):
    """The page and nothing else: no list of rows, no change form (the proxy is an order's, and the dashboard's
    role must not read orders one by one)."""

    def get_urls(self) -> list[URLPattern]:
        name = f"{self.opts.app_label}_{self.opts.model_name}_changelist"
        return [path("", self.admin_site.admin_view(self.changelist_view), name=name)]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        form = PeriodForm(request.GET if "days" in request.GET else None)
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": _("Business dashboard"),
            "opts": self.opts,
            "form": form,
        }
        if form.is_bound and not form.is_valid():
            return TemplateResponse(request, "backoffice/dashboard.html", context, status=400)
        days = (form.cleaned_data["days"] if form.is_bound else None) or DEFAULT_DAYS
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    # For these reads only (decision 0416): a year's sorts and hashes (a few MB) stay in memory
                    # rather than spill to disk at the default 4 MB, and no JIT, whose compiling costs more than
                    # the queries once a year of rows lifts their estimated cost past `jit_above_cost`.
                    cursor.execute("SET LOCAL work_mem = '32MB'")
                    cursor.execute("SET LOCAL jit = off")
            context.update(dashboard_context(period_of(days, timezone.now())))
        return TemplateResponse(request, "backoffice/dashboard.html", context)
