"""Money for people, in the active language's conventions (docs/decisions/0162-babel-for-money-formats.md).

The amount never changes, only how it is written: `Usd(123450)` is "$1,234.50" in English, "1.234,50 US$" in
Spanish and Vietnamese and "$1.234,50" in Turkish (Unicode CLDR data through Babel). The API keeps its
locale-free decimal strings (`Usd.to_api`); crypto amounts stay as exact decimal strings with a dot, since
customers paste them into wallets.

`amount_input` reads what a person typed into an amount field, in any of the shop's languages
(docs/decisions/0400-amounts-typed-in-any-language.md): "150,50" and "150.50" are both 150.50; a lone separator
before exactly three digits ("1.234", "1,000") is refused as ambiguous rather than guessed.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.dates import format_date, format_time, get_datetime_format
from babel.numbers import format_currency, format_decimal
from babel.units import format_unit
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext

from .money import Usd

__all__ = [
    "AmbiguousAmount",
    "amount_input",
    "bytes_range_text",
    "bytes_text",
    "date_text",
    "decimal_text",
    "duration_text",
    "duration_words",
    "usd_text",
]


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

    Babel's text, written without Babel on each call: how a language writes dollars (the sign and currency
    around the digits, the grouping and decimal marks) is read once per language from Babel's own text of a
    probe amount (`_usd_shape`), then each amount is integer arithmetic and string joins. A page of 50 ledger
    lines writes 100 amounts; Babel's pattern machinery cost ~40 µs each (issue 30, decision 0427). A language
    whose text does not read as that shape is written by Babel every time.
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    whole = short and amount.cents % 100 == 0
    shape = _usd_shape(language, whole)
    if shape is None:
        return _usd_babel(amount, whole=whole, language=language)
    return shape.write(amount.cents)


def _usd_babel(amount: Usd, *, whole: bool, language: str) -> str:
    try:
        locale, standard, whole_pattern = _patterns(language)
    except ValueError:
        locale, standard, whole_pattern = _patterns(settings.LANGUAGE_CODE)
    value = amount.as_decimal()
    if whole:
        return format_currency(value, "USD", format=whole_pattern, locale=locale, currency_digits=False)
    return format_currency(value, "USD", format=standard, locale=locale)


@dataclass(frozen=True, slots=True)
class _UsdShape:
    """How one language writes dollars: text before and after the digits (positive, negative), the marks."""

    around: tuple[str, str]
    around_negative: tuple[str, str]
    group: str
    decimal: str | None  # None: whole dollars, no decimals

    def write(self, cents: int) -> str:
        dollars, part = divmod(abs(cents), 100)
        digits = f"{dollars:,}".replace(",", self.group)
        if self.decimal is not None:
            digits = f"{digits}{self.decimal}{part:02d}"
        before, after = self.around_negative if cents < 0 else self.around
        return f"{before}{digits}{after}"


# The probe's digits as Babel writes them: "1,234,567.89" with the language's marks, text around.
_PROBE = re.compile(r"(?P<before>\D*)1(?P<group>\D)234(?P=group)567(?:(?P<decimal>\D)89)?(?P<after>\D*)")


@lru_cache(maxsize=32)
def _usd_shape(language: str, whole: bool) -> _UsdShape | None:
    """The shape of `language`'s dollars read from Babel's text of ±$1,234,567.89 (or ±$1,234,567 `whole`), and
    checked against Babel on amounts from 0 to 10^15 dollars; None when it does not read or check."""
    probe = Usd(123_456_700 if whole else 123_456_789)
    positive = _PROBE.fullmatch(_usd_babel(probe, whole=whole, language=language))
    negative = _PROBE.fullmatch(_usd_babel(-probe, whole=whole, language=language))
    if positive is None or negative is None or positive["group"] != negative["group"]:
        return None
    if (positive["decimal"] is None) != whole or positive["decimal"] != negative["decimal"]:
        return None
    shape = _UsdShape(
        (positive["before"], positive["after"]),
        (negative["before"], negative["after"]),
        positive["group"],
        positive["decimal"],
    )
    checks = (0, 5, 100, 99_999, 100_000, 123_400, 10**17, -5, -100, -123_456_789)
    for cents in checks:
        if whole and cents % 100:
            continue
        if shape.write(cents) != _usd_babel(Usd(cents), whole=whole, language=language):
            return None
    return shape


def _locale(language: str | None = None) -> Locale:
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    try:
        return _patterns(language)[0]
    except ValueError:
        return _patterns(settings.LANGUAGE_CODE)[0]


def decimal_text(text: str, *, places: int | None = None, grouping: bool = True, language: str | None = None) -> str:
    """A machine decimal string ("1234.50", "0.00150000") written with the language's decimal mark and
    grouping ("1.234,5", "0,0015"): what a person reads, never what is pasted into a wallet (that stays `text`).

    Without `places` the fraction keeps every significant digit and drops trailing zeros; with it, exactly
    `places` decimals (`text` must not have more). `grouping=False` leaves out the thousands mark, as an input
    field's value does.
    """
    value = Decimal(text)
    group = "#,##0" if grouping else "0"
    if places is None:
        pattern = group + ".###"
        value = value.normalize() if "." in text else value
    else:
        pattern = group + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale=_locale(language), decimal_quantization=places is not None)


_BYTE_UNITS = (("KiB", 1), ("MiB", 2), ("GiB", 3))
_CENT = Decimal("0.01")


def _bytes_unit(n_bytes: int) -> tuple[str, int] | None:
    """The unit `n_bytes` is written in: the smallest whose rounded figure stays under 1000 ("0.98 GiB", never
    "1000.00 MiB"), GiB past that; None for plain bytes (under 1000)."""
    size = abs(n_bytes)
    if size < 1000:
        return None
    for unit, power in _BYTE_UNITS:
        if power == 3 or (Decimal(size) / 1024**power).quantize(_CENT) < 1000:
            return unit, power
    raise AssertionError("unreachable")  # pragma: no cover


def _bytes_in(n_bytes: int, unit: tuple[str, int] | None, language: str | None) -> str:
    if unit is None:
        return f"{n_bytes} B"
    number = (Decimal(n_bytes) / 1024 ** unit[1]).quantize(_CENT)
    return f"{decimal_text(str(number), places=2, language=language)} {unit[0]}"


def bytes_text(n_bytes: int, *, language: str | None = None) -> str:
    """Bytes in binary units for a reader, with the language's marks: "14.96 GiB", "14,96 GiB", "12 B" (the units
    and rounding of `vramcalc.units.format_bytes`, whose text stays the engine's, the API's and the CLI's).

    A figure never reads 1000 or more of a unit below GiB: 1000 MiB is "0.98 GiB", 1000 B "0.98 KiB"."""
    return _bytes_in(n_bytes, _bytes_unit(n_bytes), language)


def bytes_range_text(low: int, high: int, *, language: str | None = None) -> tuple[str, str]:
    """Both ends of a range, the low end in the high end's unit where it reads at least 0.10 in it
    ("0.50 GiB to 1.46 GiB", not "512.00 MiB to 1.46 GiB"); a low end under a tenth of that unit keeps its own
    ("5.00 MiB to 1.46 GiB": the units then say that the range spans more than tenfold)."""
    unit = _bytes_unit(high)
    if unit is not None and abs(low) >= 1024 ** unit[1] // 10 and abs(low) <= abs(high):
        return _bytes_in(low, unit, language), _bytes_in(high, unit, language)
    return bytes_text(low, language=language), bytes_text(high, language=language)


class AmbiguousAmount(ValueError):
    """One separator before exactly three digits: "1.234" is 1234 to a Spanish reader, 1.234 to an English one."""

    def __init__(self, text: str, whole: str) -> None:
        super().__init__(f"ambiguous amount: {text!r}")
        self.whole = whole


# ASCII digits, one optional leading minus, "." and "," between digits; nothing else (no spaces, no exponent).
_TYPED = re.compile(r"-?[0-9]+(?:[.,][0-9]+)*", re.ASCII)
_GROUPS = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{3})*", re.ASCII)


def amount_input(text: str) -> str:
    """What a person typed as an amount, as the plain decimal string `Usd.parse` reads ("1.234,5" → "1234.5").

    The same in every language, so a link or a habit works in all of them:
    - no separator: whole units ("150");
    - one separator, once, before one or two digits: the decimal mark, comma or dot ("150,5", "150.50");
    - one separator, once, before exactly three digits and after a first group ("1.234", "1,000"; not "0,001" or
      "1234,567", which no grouping explains: too many decimals): `AmbiguousAmount`, never a guess;
    - one separator repeated: grouping ("1.234.567", "1,234,567");
    - both: the last one, once, is the decimal mark and the other groups ("1.234,56", "1,234.56").
    Grouping must be in threes. Anything else comes back unchanged, for `Usd.parse` to refuse.

    Raises:
        AmbiguousAmount: a lone separator before exactly three digits, after one to three not starting with 0.
    """
    if _TYPED.fullmatch(text) is None:
        return text
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    marks = [char for char in digits if char in ".,"]
    if not marks:
        return text
    whole, part = digits, ""
    if len(set(marks)) == 1 and len(marks) == 1:  # "150,5", "150.50", "1.234"
        whole, _, part = digits.partition(marks[0])
        if len(part) == 3 and len(whole) <= 3 and whole[0] != "0":  # a first group of thousands, or decimals
            raise AmbiguousAmount(text, f"{sign}{whole}{part}")
        if len(part) > 2:
            return text
        return f"{sign}{whole}.{part}"
    if len(set(marks)) == 2:  # "1.234,56", "1,234.56": the last mark, once, is the decimal mark
        whole, _, part = digits.rpartition(marks[-1])
        if marks.count(marks[-1]) > 1 or len(part) > 2:
            return text
    if _GROUPS.fullmatch(whole) is None:  # grouping in threes, one mark: "1.234.567"
        return text
    plain = whole.replace(".", "").replace(",", "")
    return f"{sign}{plain}.{part}" if part else f"{sign}{plain}"


# A date as each language's readers write it (CLDR through Babel; decision 0401): "5 Dec 2026", "5 dic 2026",
# "05/12/2026", "5 Ara 2026". English keeps the day first, as the shop always wrote it.
_DAY = {"vi": "dd/MM/y"}
_DAY_MONTH = {"vi": "dd/MM"}
# Vietnamese readers write the date first and in numbers ("05/12/2026 14:00"), and "ngày 5 tháng 12 năm 2026" in
# prose (a native reader's review, docs/translation-review.md), not CLDR's "14:00 5 thg 12, 2026".
_LONG = {"en": "d MMMM y", "vi": "'ngày' d 'tháng' M 'năm' y"}
_DATE_TIME = {"vi": "{1} {0}"}


def date_text(
    value: date | datetime | None,
    *,
    time: bool = False,
    year: bool = True,
    long: bool = False,
    seconds: bool = False,
    zone: bool = False,
    language: str | None = None,
) -> str:
    """`value` (a datetime in the shop's time zone, UTC) written for a reader of `language`.

    `long` writes the month's name as prose does ("5 de diciembre de 2026"); `time` adds the hour in the
    language's order ("5 dic 2026, 14:00", "05/12/2026 14:00"), `seconds` its seconds, `zone` " UTC".
    """
    if value is None:
        return ""
    locale = _locale(language)
    if isinstance(value, datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    code = locale.language
    if long:
        day = format_date(value, _LONG.get(code, "long"), locale=locale)
    elif year:
        day = format_date(value, _DAY.get(code, "d MMM y"), locale=locale)
    else:
        day = format_date(value, _DAY_MONTH.get(code, "d MMM"), locale=locale)
    if not (time and isinstance(value, datetime)):
        return day
    hour = format_time(value, "HH:mm:ss" if seconds else "HH:mm", locale=locale)
    pattern = _DATE_TIME.get(code) or str(get_datetime_format("medium", locale=locale))
    text = pattern.replace("{1}", day).replace("{0}", hour)
    return f"{text} {value:%Z}" if zone else text


# A time left, as a countdown writes it (decision 0442): the two largest units in words of the reader's language
# (CLDR through Babel), joined as the catalog says; under an hour, a clock. The page's script gets the same words
# (`duration_words`) and writes the same text every second.
_UNITS = (("day", 86_400), ("hour", 3_600), ("minute", 60))


@lru_cache(maxsize=16)
def _unit_patterns(language: str) -> dict[str, dict[str, str]]:
    locale = _locale(language)
    patterns: dict[str, dict[str, str]] = {}
    for unit, _size in _UNITS:
        by_category: dict[str, str] = {}
        for count in range(200):  # a sample of each plural category the language has (one, few, many, other…)
            category = locale.plural_form(count)
            if category not in by_category:
                text = format_unit(count, f"duration-{unit}", length="long", locale=locale)
                by_category[category] = text.replace(str(count), "{0}", 1)
        patterns[unit] = by_category
    return patterns


def duration_words(language: str | None = None) -> dict[str, Any]:
    """The words a countdown needs in `language` (default: the active one), for the page's script: each unit's
    pattern per CLDR plural category ({"day": {"one": "{0} día", "other": "{0} días"}, …}) and how two units
    are joined ("join": "{larger} y {smaller}")."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    with translation.override(language):
        # Translators: two parts of a time left, the larger unit first: "6 days and 23 hours", "2 hours and 5
        # minutes". Keep %(larger)s and %(smaller)s.
        join = gettext("%(larger)s and %(smaller)s") % {"larger": "{larger}", "smaller": "{smaller}"}
    return {"join": join, **_unit_patterns(language)}


def duration_text(seconds: int, *, language: str | None = None) -> str:
    """`seconds` left, written for a reader of `language`: "6 días y 23 horas", "2 tiếng 5 phút", "1 gün" (a zero
    smaller unit is left out); under an hour, minutes and seconds as a clock ("29:59"). Empty when none is left.

    `payments/static/payments/payments.js` writes the same text in the browser from `duration_words`."""
    if seconds <= 0:
        return ""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    words = duration_words(language)
    locale = _locale(language)

    def unit_text(unit: str, count: int) -> str:
        patterns: dict[str, str] = words[unit]
        pattern = patterns.get(locale.plural_form(count)) or patterns["other"]
        return pattern.replace("{0}", format_decimal(count, locale=locale))

    for (unit, size), (smaller, smaller_size) in itertools.pairwise(_UNITS):
        if seconds >= size:
            count, rest = divmod(seconds, size)
            if rest < smaller_size:
                return unit_text(unit, count)
            larger_text, smaller_text = unit_text(unit, count), unit_text(smaller, rest // smaller_size)
            return str(words["join"]).replace("{larger}", larger_text).replace("{smaller}", smaller_text)
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}:{rest:02d}"
