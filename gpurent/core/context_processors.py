from django.conf import settings
from django.http import HttpRequest


def brand(request: HttpRequest) -> dict[str, str]:
    """The shop's brand name (`BRAND_NAME`), for every template."""
    return {"brand_name": settings.BRAND_NAME}
