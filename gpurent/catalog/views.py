"""Catalog pages: the list of GPU models with a live total per card, a GPU's own page, the total partial."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from gpurent.core.htmx import HtmxHttpRequest

from .enums import Term
from .filters import CatalogFilterForm, gpus_filtered
from .forms import QuoteForm
from .models import GpuModel
from .pricing import Quote, quote_for
from .selectors import gpu_get, gpu_list

DEFAULT_TERM = Term.WEEK
DEFAULT_LOTS = 1


def _quote_form(gpu: GpuModel, data: dict[str, str] | None = None, term: Term = DEFAULT_TERM) -> QuoteForm:
    # Every card on the catalog page carries the same fields; ids are made unique per GPU for the labels.
    return QuoteForm(data, auto_id=f"{gpu.slug}-%s", initial={"term": term, "lots": DEFAULT_LOTS})


def _quote_from(gpu: GpuModel, form: QuoteForm) -> Quote | None:
    if form.is_bound:
        if not form.is_valid():
            return None
        return quote_for(gpu, term_days=form.cleaned_data["term"], lots=form.cleaned_data["lots"])
    return quote_for(gpu, term_days=form.initial["term"], lots=DEFAULT_LOTS)


@require_GET
def catalog_index(request: HtmxHttpRequest) -> HttpResponse:
    """The catalog, sorted and filtered by a GET form: a full page, or only the results for htmx."""
    filters = CatalogFilterForm(request.GET)
    term = filters.term_or_default()
    cards = []
    for gpu in gpus_filtered(gpu_list(), filters):
        form = _quote_form(gpu, term=term)
        cards.append({"gpu": gpu, "form": form, "quote": _quote_from(gpu, form)})
    context = {"cards": cards, "terms": list(Term), "filters": filters}
    if request.htmx and request.htmx.target == "catalog-results":
        return render(request, "catalog/partials/results.html", context)
    return render(request, "catalog/index.html", context)


@require_GET
def gpu_detail(request: HttpRequest, slug: str) -> HttpResponse:
    gpu = gpu_get(slug)
    data = request.GET if {"term", "lots"} & set(request.GET) else None
    form = _quote_form(gpu, data)
    context = {"gpu": gpu, "form": form, "quote": _quote_from(gpu, form), "terms": list(Term)}
    return render(request, "catalog/detail.html", context)


@require_GET
def gpu_quote(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The total for a term and a number of lots: an htmx partial, or the GPU page for a plain request."""
    gpu = gpu_get(slug)
    if not request.htmx:
        query = urlencode({key: request.GET[key] for key in ("term", "lots") if key in request.GET})
        return redirect(f"{reverse('catalog:detail', args=[gpu.slug])}?{query}")
    form = _quote_form(gpu, request.GET)
    return render(request, "catalog/partials/quote.html", {"gpu": gpu, "form": form, "quote": _quote_from(gpu, form)})
