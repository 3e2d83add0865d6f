"""Catalog pages: the list of GPU models with a live total per card, a GPU's own page, the total partial."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from gpurent.core.htmx import HtmxHttpRequest
from gpurent.core.pagination import page_from_request, page_link

from .cards import PAGE_SIZE, grid_html, quote_form, quote_from
from .enums import Term
from .filters import CatalogFilterForm, catalog_order, gpus_filtered
from .selectors import gpu_get, gpu_list


@require_GET
def catalog_index(request: HtmxHttpRequest) -> HttpResponse:
    """The catalog, sorted and filtered by a GET form, one keyset page of cards at a time: a full page, or
    only the results for htmx. Cards and the grid come from the cache while no GPU on them changed."""
    filters = CatalogFilterForm(request.GET)
    matching = gpus_filtered(gpu_list(), filters)
    page = page_from_request(request, matching, size=PAGE_SIZE, key=catalog_order(filters))
    count = len(page.items) if page.is_first and page.next is None else matching.count()
    results = grid_html(
        page,
        filters.term_or_default(),
        count=count,
        filtering=filters.is_filtering,
        first_url="" if page.is_first else page_link(request, None),
        next_url=page_link(request, page.next) if page.next else "",
    )
    if request.htmx and request.htmx.target == "catalog-results":
        return HttpResponse(results)
    return render(request, "catalog/index.html", {"filters": filters, "results": results})


@require_GET
def gpu_detail(request: HttpRequest, slug: str) -> HttpResponse:
    gpu = gpu_get(slug)
    data = request.GET if {"term", "lots"} & set(request.GET) else None
    form = quote_form(gpu, data)
    context = {"gpu": gpu, "form": form, "quote": quote_from(gpu, form), "terms": list(Term)}
    return render(request, "catalog/detail.html", context)


@require_GET
def gpu_quote(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The total for a term and a number of lots: an htmx partial, or the GPU page for a plain request."""
    gpu = gpu_get(slug)
    if not request.htmx:
        query = urlencode({key: request.GET[key] for key in ("term", "lots") if key in request.GET})
        return redirect(f"{reverse('catalog:detail', args=[gpu.slug])}?{query}")
    form = quote_form(gpu, request.GET)
    return render(request, "catalog/partials/quote.html", {"gpu": gpu, "form": form, "quote": quote_from(gpu, form)})
