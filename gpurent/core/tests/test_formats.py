"""Dates as each language's readers write them (decision 0401), on pages and in the formatter behind them."""

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from gpurent.core.formats import date_text

WHEN = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "day", "with_time", "prose"),
    [
        ("en", "5 Dec 2026", "5 Dec 2026, 14:00 UTC", "5 December 2026"),
        ("es", "5 dic 2026", "5 dic 2026, 14:00 UTC", "5 de diciembre de 2026"),
        ("vi", "5 thg 12, 2026", "14:00 5 thg 12, 2026 UTC", "5 tháng 12, 2026"),
        ("tr", "5 Ara 2026", "5 Ara 2026 14:00 UTC", "5 Aralık 2026"),
    ],
)
def test_a_date_is_written_as_its_readers_write_it(language, day, with_time, prose):
    assert date_text(WHEN, language=language) == day
    assert date_text(WHEN, time=True, zone=True, language=language) == with_time
    assert date_text(WHEN, long=True, language=language) == prose


@pytest.mark.parametrize(("language", "shown"), [("es", "5 dic 2026, 14:00"), ("vi", "14:00 5 thg 12, 2026")])
def test_the_day_filter_follows_the_active_language(language, shown):
    with translation.override(language):
        assert Template('{% load shop %}{{ when|day:"time" }}').render(Context({"when": WHEN})) == shown
