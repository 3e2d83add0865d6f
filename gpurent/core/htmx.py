"""htmx helpers: the request type that django-htmx's middleware fills in."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

__all__ = ["HtmxHttpRequest"]


class HtmxHttpRequest(HttpRequest):
    """A request seen by `django_htmx.middleware.HtmxMiddleware`: `request.htmx` is truthy for htmx calls."""

    htmx: HtmxDetails
