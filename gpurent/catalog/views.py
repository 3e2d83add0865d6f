"""Catalog pages: the list of GPU models with a live total per card, a GPU's own page, the total partial."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from gpurent.core.caching.fragments import cached, fragment_key
from gpurent.core.caching.pages import filled, render_filled, shared_page
from gpurent.core.htmx import HtmxHttpRequest
from gpurent.core.pagination import page_from_request, page_link

from .cards import PAGE_SIZE, grid_html, quote_form, quote_from
from .enums import Term
from .filters import CatalogFilterForm, catalog_order, gpus_filtered
from .selectors import catalog_state, gpu_get, gpu_list, gpus_like
from .stock_parts import stock_fillers


@require_GET
def catalog_index(request: HtmxHttpRequest) -> HttpResponse:
    """The catalog, sorted and filtered by a GET form, one keyset page of cards at a time: a full page, or
    only the results for htmx. Every visitor, signed in or not, gets the page from the cache while no GPU
    changed but for stock (one small statement reads the version and the stock of the page's GPUs,
    gpurent/core/caching/pages.py, decision 0425); otherwise cards, the grid and the filter form come from the
    cache while nothing they show changed. "In stock only" is about stock: never a cached page."""
    partial = request.htmx and request.htmx.target == "catalog-results"
    about_stock = "in_stock" in request.GET
    shared = shared_page(request, "catalog", catalog_state) if not (partial or about_stock) else None
    if shared is not None and shared.parts is not None:
        return shared.response(stock_fillers(shared.state.stock))
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
    fillers = stock_fillers({gpu.pk: gpu.stock_lots for gpu in page.items})
    if partial:
        return HttpResponse(filled(request, results, fillers))
    context = {"filters_html": _filters_html(request, filters), "results": results}
    if shared is None:
        return render_filled(request, "catalog/index.html", context, fillers=fillers)
    return shared.render("catalog/index.html", context, ids=[gpu.pk for gpu in page.items], fillers=fillers)


def _filters_html(request: HttpRequest, filters: CatalogFilterForm) -> str:
    """The filter form, rendered without the request (a GET form: no token), once per query and language."""
    key = fragment_key("catalog-filters", request.GET.urlencode())
    html = cached(key, lambda: render_to_string("catalog/partials/filters.html", {"filters": filters}))
    return mark_safe(html)  # noqa: S308 (rendered by our own template with autoescape)


@require_GET
def gpu_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A GPU's page with its quote form (a GET form), from the cache for every visitor while no GPU changed but
    for stock (the key holds the path, so the slug and the query; stock is read live)."""
    shared = shared_page(request, "gpu", catalog_state)
    if shared.parts is not None:
        return shared.response(stock_fillers(shared.state.stock))
    gpu = gpu_get(slug)
    data = request.GET if {"term", "lots"} & set(request.GET) else None
    form = quote_form(gpu, data)
    # The GPUs offered instead when this one is sold out: chosen by likeness alone, shown by live stock.
    instead = gpus_like(gpu, gpu_list())
    context = {"gpu": gpu, "form": form, "quote": quote_from(gpu, form), "terms": list(Term), "instead": instead}
    fillers = stock_fillers({other.pk: other.stock_lots for other in (gpu, *instead)})
    return shared.render("catalog/detail.html", context, ids=[gpu.pk, *(o.pk for o in instead)], fillers=fillers)


@require_GET
def gpu_quote(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The total for a term and a number of lots: an htmx partial, or the GPU page for a plain request."""
    gpu = gpu_get(slug)
    if not request.htmx:
        query = urlencode({key: request.GET[key] for key in ("term", "lots") if key in request.GET})
        return redirect(f"{reverse('catalog:detail', args=[gpu.slug])}?{query}")
    form = quote_form(gpu, request.GET)
    return render(request, "catalog/partials/quote.html", {"gpu": gpu, "form": form, "quote": quote_from(gpu, form)})
