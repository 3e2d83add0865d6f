"""The guide index, a guide page with its quote form, and the customer's own quote requests."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_GET

from gpurent.accounts.owners import owner_for
from gpurent.catalog.filters import CATALOG_ORDER as GPU_ORDER
from gpurent.catalog.selectors import catalog_state, catalog_version, gpu_list
from gpurent.core.caching.fragments import cached, fragment_key
from gpurent.core.caching.pages import shared_page
from gpurent.core.errors import ApplicationError
from gpurent.core.form_targets import post_or_back
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.pagination import page_from_request, page_link

from .enums import Endpoint, GuideWorkload, Scope
from .forms import GuideFilterForm, QuoteRequestForm
from .guide import Guide
from .record_texts import DATA_ACCESS, DATA_LOCATION, DATA_RETENTION, LEGAL_NOTE, LOG_SCOPE, MEASUREMENTS
from .report import guide_report_cached
from .scenarios import SCENARIOS
from .scope_texts import PHASES, SCOPE_TEXTS
from .selectors import guide_get, guide_list, quote_request_get_for, quote_request_list_for
from .services import quote_request_create
from .texts import WORKLOAD_TEXTS

# The endpoint a quote form proposes first for each workload.
DEFAULT_ENDPOINT = {
    GuideWorkload.LLM_SERVING: Endpoint.OPENAI_API,
    GuideWorkload.LORA_FINETUNING: Endpoint.SSH,
    GuideWorkload.FULL_FINETUNING: Endpoint.SSH,
    GuideWorkload.IMAGE_GENERATION: Endpoint.BATCH,
    GuideWorkload.VISION_FINETUNING: Endpoint.SSH,
}


# GPUs per page of the guide index: each brings one row per workload (at most 15 guide links).
GPUS_PER_INDEX_PAGE = 25


@require_GET
def guide_index(request: HttpRequest) -> HttpResponse:
    """Every guide, grouped by workload, as a GPU × scope table; filtered by GPU, workload and scope, one
    keyset page of GPUs at a time. Linear in the guides shown: each is placed once, by its GPU's id. Every
    visitor, signed in or not, gets it from the cache while no GPU changed (it shows no stock, so orders change
    nothing here; gpurent/core/caching/pages.py, decision 0425): one small statement, whatever the catalog's size."""
    shared = shared_page(request, "guides", catalog_state)
    if shared.parts is not None:
        return shared.response({})
    form = GuideFilterForm(request.GET or None)
    filters = form.filters() if form.is_bound else {"gpu": "", "workload": "", "scope": ""}
    matching = gpu_list().filter(slug=filters["gpu"]) if filters["gpu"] else gpu_list()
    page = page_from_request(request, matching, size=GPUS_PER_INDEX_PAGE, key=GPU_ORDER)
    form.offer(page.items)
    guides = guide_list(gpus=page.items, workload=filters["workload"], scope=filters["scope"])
    by_workload: dict[GuideWorkload, dict[int, list[Guide]]] = {}
    for guide in guides:
        by_workload.setdefault(guide.workload, {}).setdefault(guide.gpu.pk, []).append(guide)
    gpus = {gpu.pk: gpu for gpu in page.items}
    sections = []
    for workload, rows in by_workload.items():
        scopes = list(dict.fromkeys(guide.scope for row in rows.values() for guide in row))
        sections.append(
            {
                "workload": workload,
                "summary": WORKLOAD_TEXTS[workload].summary,
                "glossary": SCENARIOS[workload].glossary,
                # Each scope's model, the same for every GPU: said once under the column's heading, not in
                # every cell (a phone showed "llama-3.1-8b" under each link, on three lines; QA walk, 0563).
                "columns": [(scope, SCENARIOS[workload].fields_for(scope)["preset"]) for scope in scopes],
                "rows": [(gpus[pk], row) for pk, row in rows.items()],
            }
        )
    gpu_count = len(page.items) if page.is_first and page.next is None else matching.count()
    per_gpu = len(guide_list(gpus=page.items[:1], workload=filters["workload"], scope=filters["scope"]))
    context = {
        "form": form,
        "sections": sections,
        "count": gpu_count * per_gpu,
        "filtered": any(filters.values()),
        "first_url": "" if page.is_first else page_link(request, None),
        "next_url": page_link(request, page.next) if page.next else "",
    }
    return shared.render("guides/index.html", context)


def _quote_form(request: HttpRequest, guide: Guide) -> QuoteRequestForm:
    initial = {
        "model_name": guide.preset,
        "gpu": guide.gpu.slug,
        "delivery_scope": guide.scope.value,
        "endpoint": DEFAULT_ENDPOINT[guide.workload].value,
    }
    if request.user.is_authenticated:
        initial["contact_email"] = getattr(request.user, "email", "")
    return QuoteRequestForm(initial=initial)


def _guide_body(guide: Guide) -> tuple[str, list[tuple[str, str]]]:
    """Everything above the quote form: the figures, findings, decision table and texts, and the (slug, name) of
    the GPUs its decision table shows (the quote form offers them). The same for every visitor, so rendered
    without the request and cached per guide, catalog version (every GPU on sale's id, `updated_at` and stock:
    the figures compare this GPU with all the others), language and code; on a hit neither the catalog nor the
    report is read (decision 0200)."""
    key = fragment_key("guide-body", guide.gpu.pk, guide.workload.value, guide.scope.value, catalog_version())

    def render_body() -> tuple[str, list[tuple[str, str]]]:
        report = guide_report_cached(guide, list(gpu_list()))
        context = {
            "guide": guide,
            "report": report,
            "text": WORKLOAD_TEXTS[guide.workload],
            "scope_text": SCOPE_TEXTS[guide.scope],
            "measurements": [*MEASUREMENTS[guide.workload], *guide.spec.extra_measurements],
            "data_texts": [DATA_LOCATION, DATA_RETENTION, DATA_ACCESS, LOG_SCOPE[guide.workload]],
            "legal_note": LEGAL_NOTE,
            "phases": PHASES[guide.scope],
            "other_scopes": [Guide(guide.gpu, guide.workload, scope) for scope in Scope if scope != guide.scope],
        }
        gpus = [(line.gpu.slug, line.gpu.name) for line in report.rows]
        return render_to_string("guides/partials/guide_body.html", context), gpus

    body, gpus = cached(key, render_body)
    return mark_safe(body), gpus  # noqa: S308 (rendered by our own template with autoescape)


def _detail_context(guide: Guide, form: QuoteRequestForm, error: str = "") -> dict[str, Any]:
    body, gpus = _guide_body(guide)
    form.offer(gpus)
    return {
        "guide": guide,
        "body": body,
        "scope_text": SCOPE_TEXTS[guide.scope],
        "form": form,
        "quote_error": error,
    }


@require_GET
def guide_detail(request: HttpRequest, gpu: str, workload: str, scope: str) -> HttpResponse:
    """A guide page: every figure computed now, against the catalog and prices of now."""
    guide = guide_get(gpu, workload, scope)
    return render(request, "guides/detail.html", _detail_context(guide, _quote_form(request, guide)))


@sensitive_post_parameters()
@sensitive_variables()
@post_or_back(lambda request, gpu, workload, scope: reverse("guides:detail", args=[gpu, workload, scope]) + "#quote")
def quote_create(request: HttpRequest, gpu: str, workload: str, scope: str) -> HttpResponse:
    """Store a quote request once per form key, for the user or this browser's guest session, then show it."""
    guide = guide_get(gpu, workload, scope)
    form = QuoteRequestForm(request.POST)
    if not form.is_valid():
        return render(request, "guides/detail.html", _detail_context(guide, form), status=422)
    details = form.details(guide_workload=guide.workload.value, guide_scope=guide.scope.value)

    def create() -> Outcome:
        quote = quote_request_create(
            owner=owner_for(request, create=True), details=details, client_ip=request.META.get("REMOTE_ADDR", "")
        )
        return Outcome(303, {"redirect": reverse("guides:quote_detail", args=[quote.public_id])})

    def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
        return render(request, "guides/detail.html", _detail_context(guide, form, message), status=status)

    success = _("Quote request received. A confirmation is on its way to %(email)s.") % {"email": details.contact_email}
    return form_action(request, create, back=request.path, success=success, on_error=failed)


@require_GET
def quote_list(request: HttpRequest) -> HttpResponse:
    """The quote requests of this account (or of this browser's guest session), newest first."""
    owner = owner_for(request)
    page = page_from_request(request, quote_request_list_for(owner))
    context = {"quotes": page.items, "page": page, "is_guest": owner.user is None}
    return render(request, "guides/quote_list.html", context)


@require_GET
def quote_detail(request: HttpRequest, public_id: uuid.UUID) -> HttpResponse:
    """One quote request; another owner's is a 404."""
    quote = quote_request_get_for(owner_for(request), public_id)
    return render(request, "guides/quote_detail.html", {"quote": quote})
