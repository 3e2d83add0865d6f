"""Turn domain errors raised in HTML views into the right page, and refuse a path no view can look up."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .errors import ApplicationError, NotFound
from .notices import notify_operators


class ApplicationErrorMiddleware:
    """A `NotFound` from a selector becomes the 404 page; any other `ApplicationError` the error page (its
    message and code) with its 4xx status, never a bare text response.

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
            notify_operators(exception)
            context = {"message": exception.message, "code": exception.code}
            return render(request, "error.html", context, status=exception.status)
        return None


class NulInPathMiddleware:
    """A NUL character in the URL's path is a 404 (the JSON `not_found` on the API, `handler404`) before any
    view looks it up: no reference, slug or id contains one, and PostgreSQL cannot compare a text column with
    one, so the lookup failed in the database driver, a 500 (issue 15). Bodies and query strings have their
    own rule (`core/schemas.py`, Django's form fields)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            raise Http404("A NUL character in the path.")
        return self.get_response(request)
