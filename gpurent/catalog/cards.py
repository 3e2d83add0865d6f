"""The catalog grid: one page of cards, each rendered once per GPU version, term and language.

A card's key holds the GPU's id, `updated_at` (every edit through `save()`, the back office included, moves
it), the term it quotes and, through `fragment_key`, the language and the code version. Stock is not in it:
cards are rendered with stock holes (`shared_page`, `stock_parts.py`, decision 0425), filled per request, so an
order changes no card. The grid of a page is keyed by the same versions of every card on it, its count and its
links. Nothing is deleted to invalidate: a changed GPU gets a new key (gpurent/core/caching/fragments.py,
decision 0182). Cards are rendered without the request, so no visitor's data can be in one.
"""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from gpurent.core.caching.fragments import TIMEOUT_SECONDS, cached, fragment_key, rows_version
from gpurent.core.pagination import Page

from .enums import Term
from .forms import QuoteForm
from .models import GpuModel
from .pricing import Quote, quote_for

__all__ = ["DEFAULT_LOTS", "DEFAULT_TERM", "PAGE_SIZE", "cards_html", "grid_html", "quote_form", "quote_from"]

DEFAULT_TERM = Term.WEEK
DEFAULT_LOTS = 1
# Cards per catalog page: ~3.7 KB of HTML each, so a full page stays well under 150 KB.
PAGE_SIZE = 30


def quote_form(gpu: GpuModel, data: dict[str, str] | None = None, term: Term = DEFAULT_TERM) -> QuoteForm:
    # Every card on the catalog page carries the same fields; ids are made unique per GPU for the labels.
    return QuoteForm(data, auto_id=f"{gpu.slug}-%s", initial={"term": term, "lots": DEFAULT_LOTS})


def quote_from(gpu: GpuModel, form: QuoteForm) -> Quote | None:
    if form.is_bound:
        if not form.is_valid():
            return None
        return quote_for(gpu, term_days=form.cleaned_data["term"], lots=form.cleaned_data["lots"])
    return quote_for(gpu, term_days=form.initial["term"], lots=DEFAULT_LOTS)


def _card_key(gpu: GpuModel, term: Term) -> str:
    return fragment_key("catalog-card", gpu.pk, gpu.updated_at.isoformat(), term.value)


def _render_card(gpu: GpuModel, term: Term) -> str:
    form = quote_form(gpu, term=term)
    context = {"gpu": gpu, "form": form, "quote": quote_from(gpu, form), "terms": list(Term), "shared_page": True}
    return render_to_string("catalog/partials/card.html", context)


def cards_html(gpus: list[GpuModel], term: Term) -> list[SafeString]:
    """The card of each GPU quoting `term`, with stock holes, from the cache where it is there (one round trip
    for all)."""
    keys = [_card_key(gpu, term) for gpu in gpus]
    found = cache.get_many(keys)
    rendered: dict[str, str] = {}
    cards = []
    for gpu, key in zip(gpus, keys, strict=True):
        html = found.get(key)
        if html is None:
            html = rendered[key] = _render_card(gpu, term)
        cards.append(mark_safe(html))  # noqa: S308 (rendered by our own template with autoescape)
    if rendered:
        cache.set_many(rendered, TIMEOUT_SECONDS)
    return cards


def grid_html(page: Page[GpuModel], term: Term, *, count: int, filtering: bool, first_url: str, next_url: str) -> str:
    """The results block (count, cards, links to the first and next page, or the empty state), with stock
    holes: fill them (`stock_parts.stock_fillers`) before sending it."""
    rows = rows_version(page.items, stock=False)
    key = fragment_key("catalog-grid", term.value, count, filtering, first_url, next_url, rows, len(page.items))

    def render() -> str:
        context = {
            "cards": cards_html(page.items, term),
            "count": count,
            "filtering": filtering,
            "first_url": first_url,
            "next_url": next_url,
        }
        return render_to_string("catalog/partials/results.html", context)

    return mark_safe(cached(key, render))  # noqa: S308 (rendered by our own template with autoescape)
