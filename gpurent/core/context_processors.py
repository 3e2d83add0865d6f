from django.conf import settings
from django.http import HttpRequest


def brand(request: HttpRequest) -> dict[str, str]:
    """The shop's brand name (`BRAND_NAME`), for every template."""
    return {"brand_name": settings.BRAND_NAME}


def languages(request: HttpRequest) -> dict[str, object]:
    """The languages of the switcher, each named in itself ("Tiếng Việt", never a translation of it)."""
    return {"shop_languages": settings.LANGUAGES}
