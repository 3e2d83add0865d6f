"""The help page (FAQ), and the privacy and terms pages an operator completes from settings."""

from __future__ import annotations

from babel import Locale
from babel.lists import format_list
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from gpurent.payments.assets import PAIRS

from .faq import SECTIONS


def _methods() -> str:
    """Every accepted pair's label in the active language, as one list ("BTC on Bitcoin, …, and LTC on
    Litecoin"; "… y LTC en Litecoin")."""
    locale = Locale.parse(translation.to_locale(translation.get_language() or settings.LANGUAGE_CODE))
    return format_list([pair.display_label for pair in PAIRS], locale=locale)


@require_GET
def help_index(request: HttpRequest) -> HttpResponse:
    values = {"brand": settings.BRAND_NAME, "methods": _methods()}
    sections = [
        {
            "slug": section.slug,
            "title": section.title,
            "answers": [
                {"slug": a.slug, "question": a.question, "paragraphs": [str(p) % values for p in a.paragraphs]}
                for a in section.answers
            ],
        }
        for section in SECTIONS
    ]
    return render(request, "pages/help.html", {"sections": sections})


def _operator() -> dict[str, object]:
    """What the operator set in settings (README lists the variables)."""
    return {
        "operator": settings.SHOP_OPERATOR,
        "contact_email": settings.SHOP_CONTACT_EMAIL,
        "postal_address": settings.SHOP_POSTAL_ADDRESS,
        "records_years": settings.RETENTION_RECORDS_YEARS,
        "support_days": settings.RETENTION_SUPPORT_DAYS,
        "logs_days": settings.RETENTION_LOGS_DAYS,
        "home_days": settings.HOSTS_WIPE_AFTER_DAYS,
        "payment_window_hours": settings.ORDER_PAYMENT_WINDOW_HOURS,
        "intent_minutes": settings.PAYMENTS_INTENT_TTL_MINUTES,
    }


@require_GET
def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/privacy.html", _operator())


@require_GET
def terms(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/terms.html", _operator())
