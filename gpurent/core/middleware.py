"""Turn domain errors raised in HTML views into the right page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest

from .errors import ApplicationError, NotFound


class ApplicationErrorMiddleware:
    """A `NotFound` from a selector becomes the 404 page; any other `ApplicationError` a 4xx with its message.

    API views never reach this: django-ninja maps their errors to JSON first (`gpurent.core.api`).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, NotFound):
            raise Http404(exception.message) from exception
        if isinstance(exception, ApplicationError):
            response = HttpResponseBadRequest(exception.message, content_type="text/plain; charset=utf-8")
            response.status_code = exception.status
            return response
        return None
