"""Turn domain errors raised in HTML views into the right page, refuse a path no view can look up, and keep
every answer to a signed-in customer, a guest or a token out of shared and browser caches."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _

from .errors import ApplicationError, NotFound, error_body
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


class HeadAsGetMiddleware:
    """`HEAD` is answered wherever `GET` is, with the `GET` answer's status and headers and no body (RFC 9110
    §9.3.2; issue 30, decision 0426).

    Views that take only `GET` say so with `require_GET` (which refuses `HEAD` with a 405: `HEAD /` did) and
    django-ninja routes `GET` only; one rule here, rather than `require_safe` on every view and a second method on
    every API route, which a new view or route could forget. The view sees a `GET` (so the page cache serves it);
    the request is `HEAD` again for the middleware outside this one (the log line says `HEAD`). A streamed answer
    (a download) is closed without being read, so a `HEAD` never produces a large export.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        try:
            response = self.get_response(request)
        finally:
            request.method = "HEAD"
        if isinstance(response, StreamingHttpResponse):
            response.streaming_content = iter(())  # the generator is dropped unread (and closed with it)
        elif isinstance(response, HttpResponse):
            # `Content-Length` stays what the GET answer's would be (set by CommonMiddleware, inside this one).
            response.content = b""
        return response


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


class ApiMethodNotAllowedMiddleware:
    """A method an API route does not take is the JSON `method_not_allowed` 405, with its `Allow` header, as
    every API error is JSON: django-ninja answers it with a plain-text "Method not allowed"."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or not request.path.startswith("/api/"):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        answer = JsonResponse(error_body("method_not_allowed", _("This HTTP method is not allowed here.")), status=405)
        answer["Allow"] = response.get("Allow", "")
        return answer


def answers_someone(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether `response` answers a visitor the shop knows: the request carries a session cookie (a signed-in
    customer, a guest, an operator) or an `Authorization` header (an API token), or the response starts a
    session (a login, a guest's first saved estimate). Such an answer may show that visitor's own data."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META:
        return True
    return settings.SESSION_COOKIE_NAME in response.cookies


class PrivateResponseMiddleware:
    """Every answer to a visitor the shop knows (`answers_someone`) is sent with Django's `never_cache` headers
    (`Cache-Control: max-age=0, no-cache, no-store, must-revalidate, private`), as the account page always was:
    a shared browser or a proxy keeps no copy of a statement, a receipt, a support thread or an API answer once
    the customer has left (ASVS 14.3.2; issue 32, decision 0376).

    One rule for every page, download and API answer, rather than a decorator per view that a new view could
    forget. An anonymous request (no cookie, no token) is left alone: the public pages it gets are the same for
    every visitor and stay cacheable (the whole-page cache, `caching/pages.py`, fills a known visitor's own token
    into the page it serves them, so that answer is private too).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if answers_someone(request, response):
            add_never_cache_headers(response)
        return response
