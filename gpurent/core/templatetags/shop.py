"""Template helpers shared by every page: money formatting, sentence case, and the idempotency key of a form."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime
from decimal import Decimal

from django import template
from django.middleware.csrf import get_token
from django.template.defaultfilters import stringfilter
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from gpurent.core.formats import date_text, decimal_text, duration_text, duration_words, usd_text
from gpurent.core.idempotency.request import FORM_FIELD
from gpurent.core.money import Usd
from gpurent.core.pagination import page_query

register = template.Library()


@register.filter
def usd(value: Usd | int | None) -> str:
    """Format a `Usd` (or integer cents) for the active language: "$1,234.50", "1.234,50 US$"."""
    if value is None:
        return ""
    amount = value if isinstance(value, Usd) else Usd(int(value))
    return usd_text(amount)


@register.filter
def usd_short(value: Usd | int | None) -> str:
    """Like `usd`, without ".00" on whole dollars."""
    if value is None:
        return ""
    amount = value if isinstance(value, Usd) else Usd(int(value))
    return usd_text(amount, short=True)


@register.filter
def decimal(value: str | None) -> str:
    """A machine decimal string ("370.000000", a crypto amount) written for the reader: "370", "0,0015",
    "1.234,5" (decision 0400). What is copied into a wallet stays the machine string."""
    if value in (None, ""):
        return ""
    return decimal_text(str(value))


@register.filter
def number(value: float | int | None, places: int = 0) -> str:
    """A count or a measure written for the reader with exactly `places` decimals, grouped as the language groups
    (decision 0400): "4,096", "4.096", "300.000.000", "7,4". Not floatformat's "g": Django's own number formats
    group Spanish with a space and Vietnamese not at all, unlike every other figure of the shop."""
    if value is None or value == "":
        return ""
    rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-int(places)))
    return decimal_text(str(rounded), places=int(places))


@register.filter
def day(value: date | datetime | None, parts: str = "") -> str:
    """A date as the reader's language writes it (decision 0401): `{{ when|day }}` "5 dic 2026";
    `{{ when|day:"time" }}` "5 dic 2026, 14:00"; words in `parts` add "time", "seconds", "tz" (" UTC"),
    "noyear" (drops the year) or "long" (the month's name, as prose: "5 de diciembre de 2026")."""
    words = set(parts.split())
    return date_text(
        value,
        time="time" in words or "seconds" in words,
        seconds="seconds" in words,
        zone="tz" in words,
        year="noyear" not in words,
        long="long" in words,
    )


@register.filter
def time_left(value: datetime | None) -> str:
    """The time from now until `value` in the reader's words, as the countdown script writes it (decision 0442):
    "6 días y 23 horas", "2 tiếng 5 phút", "29:59"; empty once it has passed."""
    if value is None:
        return ""
    return duration_text(int((value - timezone.now()).total_seconds()))


@register.simple_tag
def countdown_words() -> str:
    """The words of a countdown in the page's language, as JSON for its `data-words` attribute (escaped there)."""
    return json.dumps(duration_words(), ensure_ascii=False, separators=(",", ":"))


@register.filter(is_safe=True)
@stringfilter
def sentence_case(value: str) -> str:
    """The first letter upper-cased as the page's language writes it: Django's `capfirst` gives Turkish
    "Istek" for "istek" (`str.upper` maps i to I); Turkish and Azerbaijani write "İstek"."""
    if not value:
        return value
    if value[0] == "i" and (get_language() or "").split("-")[0] in ("tr", "az"):
        return "İ" + value[1:]
    return value[0].upper() + value[1:]


@register.filter
def unbroken_span(value: object) -> SafeString:
    """`value` (escaped) in a `.unbroken` span: it moves to the next line whole instead of breaking at a hyphen
    (decision 0435). For a reference inside a translated sentence, such as a heading "Order R-8H2K-HT56"."""
    return format_html('<span class="unbroken">{}</span>', value)


@register.simple_tag
def idempotency_key_field() -> SafeString:
    """A hidden field with a fresh idempotency key, made when the page renders (DESIGN §5).

    A double click or a browser retry submits the same key, so the action takes effect once.
    """
    return format_html('<input type="hidden" name="{}" value="{}">', FORM_FIELD, uuid.uuid4())


@register.simple_tag(takes_context=True)
def csrf_token_if_used(context: template.Context) -> str:
    """The CSRF field, only when this response already carries the token (a form above rendered one, or the
    visitor is signed in): it then costs nothing more. Elsewhere the form gets it from core/csrf.js on submit,
    so a page without a form that needs the token sets no CSRF cookie (decision 0183)."""
    request = context.get("request")
    if request is None or not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request))


@register.simple_tag(takes_context=True)
def page_href(context: template.Context, cursor: str | None, param: str = "cursor") -> str:
    """The pager's link (`?…`): this page's query with only this list's cursor changed, so a page that shows
    several lists (the balance page) keeps the others where they are."""
    return page_query(context["request"], cursor, param or "cursor")
