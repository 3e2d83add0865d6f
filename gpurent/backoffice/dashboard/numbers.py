"""Counts, percentages and durations on the dashboard, in the reader's language (money: `core.formats.usd_text`)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from babel import Locale
from babel.numbers import format_decimal, format_percent
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

__all__ = ["count_text", "duration_text", "percent_text"]


def _locale() -> Locale:
    return Locale.parse(translation.to_locale(translation.get_language() or settings.LANGUAGE_CODE))


def count_text(number: int | Decimal) -> str:
    """A count or an average with the language's marks ("1,234.5", "1.234,5")."""
    return format_decimal(number, locale=_locale())


def percent_text(percent: Decimal) -> str:
    """A percentage to a tenth, as the language writes it ("12.5%", "12,5 %", "%12,5")."""
    return format_percent(percent.quantize(Decimal("0.1")) / 100, locale=_locale(), decimal_quantization=False)


def duration_text(value: timedelta | None) -> str:
    """A duration to the minute below two days ("1 h 05 min"), to the hour from two days ("3 d 4 h"); "—" for none."""
    if value is None:
        return "—"
    minutes = int(value.total_seconds() // 60)
    if minutes < 60:
        return _("%(minutes)s min") % {"minutes": minutes}
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": f"{minutes:02d}"}
    days, hours = divmod(hours, 24)
    return _("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
