"""Dollars written without Babel on each call (decision 0427): the same text as Babel's, in every language."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpurent.core.formats import _usd_babel, _usd_shape, usd_text
from gpurent.core.money import MAX_CENTS, Usd

LANGUAGES = ["en", "es", "vi", "tr"]


@settings(max_examples=400, deadline=None)
@given(
    cents=st.one_of(st.integers(-(10**9), 10**9), st.integers(-MAX_CENTS, MAX_CENTS)),
    language=st.sampled_from(LANGUAGES),
    short=st.booleans(),
)
def test_usd_text_is_babels_text(cents, language, short):
    amount = Usd(cents)
    whole = short and cents % 100 == 0
    assert usd_text(amount, short=short, language=language) == _usd_babel(amount, whole=whole, language=language)


@pytest.mark.parametrize(
    ("language", "cents", "short", "text"),
    [
        ("en", 123_450, False, "$1,234.50"),
        ("en", 123_400, True, "$1,234"),
        ("en", -300, False, "-$3.00"),
        ("es", 123_450, False, "1.234,50\xa0US$"),
        ("vi", 5, False, "0,05\xa0US$"),
        ("tr", 123_400, True, "$1.234"),
    ],
)
def test_usd_text_examples(language, cents, short, text):
    assert usd_text(Usd(cents), short=short, language=language) == text


def test_a_language_whose_dollars_do_not_read_as_the_shape_is_written_by_babel():
    """Hindi groups by two after the first three ("$12,34,567.89"): no shape, Babel writes every amount."""
    assert _usd_shape("hi", False) is None
    assert usd_text(Usd(123_456_789), language="hi") == _usd_babel(Usd(123_456_789), whole=False, language="hi")
    assert _usd_shape("en", False) is not None
