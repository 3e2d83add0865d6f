"""Stock on catalog pages: written live on every request, never part of a cached page (decision 0425, issue 30).

Stock moves with every order; a catalog page is mostly about everything else. So the catalog's templates write
a GPU's stock through the tags of `templatetags/stock.py`: rendered for a shared page (`shared_page` in the
context: the catalog, a GPU page, every card and grid fragment) they leave holes (`gpurent/core/caching/pages.py`),
which `stock_fillers` fills from the stock read with the catalog's version in the same statement
(`selectors.catalog_state`); rendered for one request (the htmx total) they write the text at once. Both ways
write the same text, from the functions below.

What depends on stock: the "N lots available" or "Sold out" fact, the sold-out look of a card, its Rent button,
the total's "Only N lots are in stock" warning, and on a sold-out GPU's page the GPUs in stock offered instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from gpurent.core.caching.pages import Hole

__all__ = ["instead_shows", "stock_fact", "stock_fillers", "stock_shows", "stock_warning"]


def stock_fact(stock: int) -> SafeString:
    """What the facts list says of stock: "3 lots available", or "Sold out"."""
    if stock > 0:
        # The catalog's own strings, as the template's blocktranslate wrote them (the translation is trusted).
        return mark_safe(  # noqa: S308
            ngettext("%(stock)s lot available", "%(stock)s lots available", stock) % {"stock": stock}
        )
    return format_html('<span class="sold-out">{}</span>', gettext("Sold out"))


def stock_warning(stock: int, lots: int) -> SafeString:
    """The total's warning when `lots` is more than there is in stock; empty otherwise (and when sold out: the
    page's sold-out block says so and offers what is in stock instead)."""
    if lots <= stock or stock == 0:
        return mark_safe("")
    text = ngettext(
        "Only %(stock)s lot is in stock right now.", "Only %(stock)s lots are in stock right now.", stock
    ) % {"stock": stock}
    return mark_safe(f'<p class="quote-warning">{text}</p>')  # noqa: S308 (the catalog's translated text)


def stock_shows(kind: str, stock: int) -> bool:
    """Whether a block shown only `in-stock` or only when `sold-out` is shown at this stock."""
    return stock > 0 if kind == "in-stock" else stock == 0


def instead_shows(stock: int, other_stock: int) -> bool:
    """Whether another GPU is offered instead of this one: this one is sold out and the other is in stock."""
    return stock == 0 and other_stock > 0


def stock_fillers(stock: Mapping[int, int]) -> dict[str, Callable[[Hole], str]]:
    """The fillers of a shared catalog page's stock holes, from the stock of each GPU by id (a GPU missing from
    `stock` counts as sold out: it left the table since the page was rendered)."""

    def level(hole: Hole) -> int:
        return stock.get(int(hole.arg.split(":", 1)[0]), 0)

    def block(hole: Hole) -> str:
        return hole.content or "" if stock_shows(hole.kind, level(hole)) else ""

    def instead(hole: Hole) -> str:
        gpu, other = (stock.get(int(pk), 0) for pk in hole.arg.split(":", 1))
        return hole.content or "" if instead_shows(gpu, other) else ""

    return {
        "instead": instead,
        "stock": lambda hole: stock_fact(level(hole)),
        "stock-warning": lambda hole: stock_warning(level(hole), int(hole.arg.split(":", 1)[1])),
        "in-stock": block,
        "sold-out": block,
    }
