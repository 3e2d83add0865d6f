"""What a number of lots of a GPU model costs for a term, and how many cards that is."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd

from .enums import MAX_LOTS_PER_ORDER, MIN_LOTS_PER_ORDER, Term
from .models import GpuModel

__all__ = ["Quote", "quote_for"]


@dataclass(frozen=True, slots=True)
class Quote:
    """The price of `lots` lots of `gpu` for `term`: lot price × lots (never × cards per lot again)."""

    gpu: GpuModel
    term: Term
    lots: int
    lot_price: Usd
    total: Usd
    cards: int


def quote_for(gpu: GpuModel, *, term_days: int, lots: int) -> Quote:
    """Price `lots` lots of `gpu` for a term of `term_days` days.

    Raises:
        InvalidRequest: the term is not 3, 7 or 30 days, or lots is outside 1..10.
    """
    if term_days not in Term.values:
        raise InvalidRequest(_("Choose a term of 3, 7 or 30 days."))
    if not MIN_LOTS_PER_ORDER <= lots <= MAX_LOTS_PER_ORDER:
        raise InvalidRequest(
            _("Choose between %(min)d and %(max)d lots.") % {"min": MIN_LOTS_PER_ORDER, "max": MAX_LOTS_PER_ORDER}
        )
    term = Term(term_days)
    lot_price = gpu.lot_price(term)
    return Quote(
        gpu=gpu, term=term, lots=lots, lot_price=lot_price, total=lot_price * lots, cards=lots * gpu.cards_per_lot
    )
