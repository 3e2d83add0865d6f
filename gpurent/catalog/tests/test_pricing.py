import pytest

from gpurent.catalog.pricing import quote_for
from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd

pytestmark = pytest.mark.django_db


def test_quote_for_two_b200_lots_is_four_gpus_at_twice_the_lot_price(b200):
    quote = quote_for(b200, term_days=7, lots=2)
    assert quote.cards == 4
    assert quote.lot_price == Usd(170_000)
    assert quote.total == Usd(340_000)  # 2 × lot price, never × cards per lot again


def test_quote_for_one_card_lots(gpu):
    quote = quote_for(gpu, term_days=30, lots=10)
    assert (quote.cards, quote.total) == (10, Usd(790_000))


@pytest.mark.parametrize("lots", [0, 11, -1])
def test_quote_for_lots_outside_one_to_ten_is_refused(gpu, lots):
    with pytest.raises(InvalidRequest, match="between 1 and 10 lots"):
        quote_for(gpu, term_days=7, lots=lots)


@pytest.mark.parametrize("term_days", [1, 14, 31, 0])
def test_quote_for_other_terms_is_refused(gpu, term_days):
    with pytest.raises(InvalidRequest, match="3, 7 or 30 days"):
        quote_for(gpu, term_days=term_days, lots=1)
