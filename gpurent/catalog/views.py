"""Catalog pages: the list of GPU models with a live total per card, a GPU's own page, the total partial."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from gpurent.core.cache import cached, fragment_key
from gpurent.core.htmx import HtmxHttpRequest
from gpurent.core.page_cache import cached_page, page_key, store_page
from gpurent.core.pagination import page_from_request, page_link

from .cards import PAGE_SIZE, grid_html, quote_form, quote_from
from .enums import Term
from .filters import CatalogFilterForm, catalog_order, gpus_filtered
from .selectors import catalog_version, gpu_get, gpu_list


@require_GET
def catalog_index(request: HtmxHttpRequest) -> HttpResponse:
    """The catalog, sorted and filtered by a GET form, one keyset page of cards at a time: a full page, or
    only the results for htmx. An anonymous visitor gets the whole page from the cache while no GPU on sale
    changed (one small query, gpurent/core/page_cache.py); otherwise cards, the grid and the filter form come
    from the cache while nothing they show changed."""
    partial = request.htmx and request.htmx.target == "catalog-results"
    key = None if partial else page_key(request, "catalog", catalog_version)
    if (hit := cached_page(key)) is not None:
        return hit
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
    if partial:
        return HttpResponse(results)
    context = {"filters_html": _filters_html(request, filters), "results": results}
    return store_page(request, key, render(request, "catalog/index.html", context))


def _filters_html(request: HttpRequest, filters: CatalogFilterForm) -> str:
    """The filter form, rendered without the request (a GET form: no token), once per query and language."""
    key = fragment_key("catalog-filters", request.GET.urlencode())
    html = cached(key, lambda: render_to_string("catalog/partials/filters.html", {"filters": filters}))
    return mark_safe(html)  # noqa: S308 (rendered by our own template with autoescape)


@require_GET
def gpu_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A GPU's page with its quote form (a GET form); an anonymous visitor gets it from the cache while no GPU
    on sale changed (the key holds the path, so the slug and the query)."""
    key = page_key(request, "gpu", catalog_version)
    if (hit := cached_page(key)) is not None:
        return hit
    gpu = gpu_get(slug)
    data = request.GET if {"term", "lots"} & set(request.GET) else None
    form = quote_form(gpu, data)
    context = {"gpu": gpu, "form": form, "quote": quote_from(gpu, form), "terms": list(Term)}
    return store_page(request, key, render(request, "catalog/detail.html", context))


@require_GET
def gpu_quote(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The total for a term and a number of lots: an htmx partial, or the GPU page for a plain request."""
    gpu = gpu_get(slug)
    if not request.htmx:
        query = urlencode({key: request.GET[key] for key in ("term", "lots") if key in request.GET})
        return redirect(f"{reverse('catalog:detail', args=[gpu.slug])}?{query}")
    form = quote_form(gpu, request.GET)
    return render(request, "catalog/partials/quote.html", {"gpu": gpu, "form": form, "quote": quote_from(gpu, form)})
