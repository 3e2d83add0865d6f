"""Money for people, in the active language's conventions (docs/decisions/0162-babel-for-money-formats.md).

The amount never changes, only how it is written: `Usd(123450)` is "$1,234.50" in English, "1.234,50 US$" in
Spanish and Vietnamese and "$1.234,50" in Turkish (Unicode CLDR data through Babel). The API keeps its
locale-free decimal strings (`Usd.to_api`); crypto amounts stay as exact decimal strings with a dot, since
customers paste them into wallets.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale
from babel.numbers import format_currency
from django.conf import settings
from django.utils import translation

from .money import Usd

__all__ = ["usd_text"]


@lru_cache(maxsize=16)
def _patterns(language: str) -> tuple[Locale, str, str]:
    locale = Locale.parse(translation.to_locale(language))
    standard = locale.currency_formats["standard"].pattern
    # The same pattern without the decimals, for whole amounts shown short ("$1,234").
    whole = standard.replace(".00", "")
    return locale, standard, whole


def usd_text(amount: Usd, *, short: bool = False, language: str | None = None) -> str:
    """`amount` written for a reader of `language` (default: the active one).

    With `short`, whole dollars drop their ".00" ("$1,234" but "$1,234.50"), as catalog prices do.
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    try:
        locale, standard, whole = _patterns(language)
    except ValueError:
        locale, standard, whole = _patterns(settings.LANGUAGE_CODE)
    value = amount.as_decimal()
    if short and amount.cents % 100 == 0:
        return format_currency(value, "USD", format=whole, locale=locale, currency_digits=False)
    return format_currency(value, "USD", format=standard, locale=locale)
