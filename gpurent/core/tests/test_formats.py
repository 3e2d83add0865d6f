"""Dates as each language's readers write them (decision 0401), on pages and in the formatter behind them."""

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from gpurent.core.formats import bytes_range_text, bytes_text, date_text
from vramcalc.units import format_bytes, format_bytes_range

WHEN = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "day", "with_time", "prose"),
    [
        ("en", "5 Dec 2026", "5 Dec 2026, 14:00 UTC", "5 December 2026"),
        ("es", "5 dic 2026", "5 dic 2026, 14:00 UTC", "5 de diciembre de 2026"),
        ("vi", "05/12/2026", "05/12/2026 14:00 UTC", "ngày 5 tháng 12 năm 2026"),
        ("tr", "5 Ara 2026", "5 Ara 2026 14:00 UTC", "5 Aralık 2026"),
    ],
)
def test_a_date_is_written_as_its_readers_write_it(language, day, with_time, prose):
    assert date_text(WHEN, language=language) == day
    assert date_text(WHEN, time=True, zone=True, language=language) == with_time
    assert date_text(WHEN, long=True, language=language) == prose


@pytest.mark.parametrize(("language", "shown"), [("es", "5 dic 2026, 14:00"), ("vi", "05/12/2026 14:00")])
def test_the_day_filter_follows_the_active_language(language, shown):
    with translation.override(language):
        assert Template('{% load shop %}{{ when|day:"time" }}').render(Context({"when": WHEN})) == shown


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "175.09 GiB"), ("es", "175,09 GiB"), ("vi", "175,09 GiB"), ("tr", "175,09 GiB")],
)
def test_sizes_are_written_with_the_languages_decimal_mark(language, expected):
    assert bytes_text(188_000_000_000, language=language) == expected
    assert bytes_text(-1536 * 1024 * 1024, language=language) == expected.replace("175", "-1").replace("09", "50")
    assert bytes_text(12, language=language) == "12 B"


def test_sizes_keep_the_engines_units_and_rounding():
    """The units and rounding of `vramcalc.units.format_bytes` (its text: "999 B", "1.00 KiB", "80.00 GiB")."""
    cases = {0: "0 B", 999: "999 B", 1024: "1.00 KiB", 10**6: "976.56 KiB", 80 * 1024**3 - 1: "80.00 GiB"}
    for n_bytes, engine in cases.items():
        assert bytes_text(n_bytes, language="en") == engine == format_bytes(n_bytes)
    assert bytes_text(5 * 1024**4, language="en") == "5,120.00 GiB"


@pytest.mark.parametrize(
    ("n_bytes", "shown"),
    [
        (1000, "0.98 KiB"),
        (1023, "1.00 KiB"),
        (1000 * 1024**2, "0.98 GiB"),
        (1023 * 1024**2, "1.00 GiB"),
        (int(999.996 * 1024**2), "0.98 GiB"),  # rounds to 1000.00 MiB: the next unit
        (int(999.99 * 1024**2), "999.99 MiB"),
        (-1000 * 1024**2, "-0.98 GiB"),
    ],
)
def test_sizes_never_show_1000_of_a_unit_below_gib(n_bytes, shown):
    assert bytes_text(n_bytes, language="en") == shown == format_bytes(n_bytes)


def test_a_range_writes_its_low_end_in_the_high_ends_unit():
    """The QA walk's "1,22 GiB (de 1.000,00 MiB a 1,46 GiB)": both ends now read in GiB."""
    assert bytes_range_text(1000 * 1024**2, int(1.46 * 1024**3), language="es") == ("0,98 GiB", "1,46 GiB")
    assert bytes_range_text(512 * 1024**2, int(1.46 * 1024**3), language="en") == ("0.50 GiB", "1.46 GiB")
    # under a tenth of the high end's unit, the low end keeps its own: the range spans more than tenfold
    assert bytes_range_text(5 * 1024**2, int(1.46 * 1024**3), language="en") == ("5.00 MiB", "1.46 GiB")
    assert bytes_range_text(0, 768 * 1024**2, language="en") == ("0 B", "768.00 MiB")


def test_a_range_is_written_as_the_engine_writes_it():
    """The page's range and the CLI's have the same units (`vramcalc.units.format_bytes_range`)."""
    for low, high in [(512 * 1024**2, 1717986918), (5 * 1024**2, 1 << 31), (100, 5000), (0, 700), (99 << 20, 1 << 30)]:
        assert bytes_range_text(low, high, language="en") == format_bytes_range(low, high)
