from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpurent.core.money import Usd


def test_usd_parse_two_decimals_exact():
    assert Usd.parse("1234.50") == Usd(123450)
    assert Usd.parse("0.01") == Usd(1)
    assert Usd.parse("7") == Usd(700)


@pytest.mark.parametrize("text", ["1.005", "abc", "", "NaN", "Infinity", "1e400"])
def test_usd_parse_refuses_what_is_not_an_exact_dollar_amount(text):
    with pytest.raises(ValueError, match=r"(not a dollar amount|more than two decimals|out of range)"):
        Usd.parse(text)


@pytest.mark.parametrize("value", [1.5, Decimal("1.5"), "150", True])
def test_usd_refuses_anything_but_integer_cents(value):
    with pytest.raises(TypeError):
        Usd(value)


def test_usd_multiplication_by_float_is_refused():
    with pytest.raises(TypeError):
        Usd(100) * 1.5  # type: ignore[operator]


def test_usd_formats_for_people_and_for_the_api():
    assert Usd(123450).display() == "$1,234.50"
    assert Usd(-300).display() == "-$3.00"
    assert Usd(5).to_api() == "0.05"
    assert Usd(-5).to_api() == "-0.05"
    assert Usd(170000).display_short() == "$1,700"
    assert Usd(170050).display_short() == "$1,700.50"


def test_usd_from_decimal_rounds_toward_zero():
    assert Usd.from_decimal_rounded_down(Decimal("10.019")) == Usd(1001)
    assert Usd.from_decimal_rounded_down(Decimal("0.009")) == Usd(0)


def test_usd_arithmetic_stays_in_cents():
    assert Usd(150) + Usd(250) == Usd(400)
    assert Usd(150) - Usd(250) == Usd(-100)
    assert 3 * Usd(170000) == Usd(510000)
    assert not Usd.zero()


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_usd_api_form_round_trips(cents):
    assert Usd.parse(Usd(cents).to_api()) == Usd(cents)
