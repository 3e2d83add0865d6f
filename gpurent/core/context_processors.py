from django.conf import settings
from django.http import HttpRequest

from .form_targets import form_page


def brand(request: HttpRequest) -> dict[str, str]:
    """The shop's brand name (`BRAND_NAME`), for every template."""
    return {"brand_name": settings.BRAND_NAME}


def languages(request: HttpRequest) -> dict[str, object]:
    """The languages of the switcher, each named in itself ("Tiếng Việt", never a translation of it), and the
    page it shows again in the chosen one: a page rendered from a form's POST goes back to the page holding the
    form, never to its POST-only address (`form_page`)."""
    return {"shop_languages": settings.LANGUAGES, "language_next": form_page(request)}
