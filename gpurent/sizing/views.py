"""The estimator page, its live result (htmx partial), saving, the saved list and a saved estimate's page."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from gpurent.accounts.owners import owner_for
from gpurent.core.errors import ApplicationError
from gpurent.core.form_targets import post_or_back
from gpurent.core.htmx import HtmxHttpRequest
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.pagination import DEFAULT_PAGE_SIZE, InvalidCursor, list_page, page_from_request

from .calculation import Sizing, size_workload
from .errors import EstimateInputInvalid
from .forms.choices import EXAMPLES
from .forms.estimate import EstimateForm
from .forms.measurement import MeasurementForm
from .selectors import estimate_get_for, estimate_list_for
from .services import estimate_attach_measurement, estimate_save
from .texts.formulas import PHASES

TEMPLATE = "sizing/estimate.html"
PARTIAL = "sizing/partials/result.html"
# The saved estimate's catalog table is paged by `?fit=` (the other lists' `cursor` is not on that page).
FIT_PARAM = "fit"
FIT_PAGE_SIZE = DEFAULT_PAGE_SIZE


def _sizing(form: EstimateForm) -> Sizing | None:
    """The estimate of a valid form; an engine refusal found while fitting becomes a form error."""
    if not form.is_valid():
        return None
    try:
        return size_workload(form.cleaned_data["inputs"])
    except EstimateInputInvalid as error:
        form.add_error(None, error.message)
        return None


def _context(form: EstimateForm, sizing: Sizing | None) -> dict[str, Any]:
    return {"form": form, "sizing": sizing, "examples": EXAMPLES}


@require_http_methods(["GET", "POST"])
def estimate_page(request: HttpRequest) -> HttpResponse:
    """The estimator. GET fields (the "Try" links) prefill it; a POST is the same page without JavaScript."""
    form = EstimateForm(request.POST) if request.method == "POST" else EstimateForm.from_query(request.GET)
    return render(request, TEMPLATE, _context(form, _sizing(form)))


@post_or_back(lambda request: reverse("sizing:estimate"))
def estimate_result(request: HtmxHttpRequest) -> HttpResponse:
    """The breakdown and the catalog table for the current fields: an htmx partial, or the whole page.

    A POST because a pasted config.json or safetensors header is too long for a URL; it writes nothing.
    """
    form = EstimateForm(request.POST)
    template = PARTIAL if request.htmx else TEMPLATE
    context = _context(form, _sizing(form))
    # A new workload, engine, attention kernel or preset may show other fields: the inputs are re-rendered out of
    # band (server-side, one source).
    context["oob"] = bool(request.htmx) and request.POST.get("rendered_for") != form.layout_key()
    return render(request, template, context)


@post_or_back(lambda request: reverse("sizing:estimate"))
def estimate_save_view(request: HttpRequest) -> HttpResponse:
    """Save the estimate once per form key, for the user or this session's guest, then show it."""
    form = EstimateForm(request.POST)
    sizing = _sizing(form)
    if sizing is None:
        return render(request, TEMPLATE, _context(form, None), status=422)
    done = sizing

    def save() -> Outcome:
        saved = estimate_save(owner=owner_for(request, create=True), sizing=done, form_data=form.form_data())
        return Outcome(303, {"redirect": reverse("sizing:detail", args=[saved.public_id])})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        messages.error(request, message)
        return render(request, TEMPLATE, _context(form, sizing), status=status)

    success = _("Estimate saved. It keeps its inputs, date and engine version.")
    return form_action(request, save, back=request.path, success=success, on_error=failed)


@require_GET
def saved_list(request: HttpRequest) -> HttpResponse:
    """The estimates this account (or this browser's guest session) saved, newest first."""
    owner = owner_for(request)
    page = page_from_request(request, estimate_list_for(owner))
    context = {"estimates": page.items, "page": page, "is_guest": owner.user is None}
    return render(request, "sizing/saved_list.html", context)


def _detail_context(request: HttpRequest, public_id: uuid.UUID, form: MeasurementForm | None = None) -> dict[str, Any]:
    saved = estimate_get_for(owner_for(request), public_id)
    result = saved.result
    phase = result["peak_phase"]
    components = sorted(
        (c for c in result["components"] if phase in c["phases"] and c["bytes"] > 0), key=lambda c: -c["bytes"]
    )
    initial = {"source": saved.measurement_source or "nvidia-smi"}
    try:
        fit = list_page(saved.catalog_fit, request.GET.get(FIT_PARAM), size=FIT_PAGE_SIZE)
    except InvalidCursor:
        fit = list_page(saved.catalog_fit, size=FIT_PAGE_SIZE)
    return {
        "estimate": saved,
        "fit": fit,
        "fit_param": FIT_PARAM,
        "peak_components": components,
        "peak_phase": PHASES.get(phase, phase),  # the engine's identifier, read as words in es/vi/tr
        "measurement_form": form or MeasurementForm(initial=initial),
        "reopen_query": saved.form_data,
    }


@require_GET
def estimate_detail(request: HttpRequest, public_id: uuid.UUID) -> HttpResponse:
    """A saved estimate at its stable URL: another owner's is a 404."""
    return render(request, "sizing/detail.html", _detail_context(request, public_id))


@post_or_back(lambda request, public_id: reverse("sizing:detail", args=[public_id]) + "#measure-heading")
def estimate_measure(request: HttpRequest, public_id: uuid.UUID) -> HttpResponse:
    """Attach a measured peak (setting it again replaces it, so a retry changes nothing more)."""
    saved = estimate_get_for(owner_for(request), public_id)
    form = MeasurementForm(request.POST)
    if not form.is_valid():
        return render(request, "sizing/detail.html", _detail_context(request, public_id, form), status=422)
    estimate_attach_measurement(estimate=saved, peak_bytes=form.peak_bytes(), source=form.cleaned_data["source"])
    messages.success(request, _("Measured peak recorded."))
    return redirect("sizing:detail", public_id=saved.public_id)
