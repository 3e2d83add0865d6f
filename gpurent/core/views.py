"""Views that belong to no domain: the health check and the error pages."""

from __future__ import annotations

import logging
import sys

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from django.views.defaults import bad_request as django_bad_request

from .errors import ApplicationError, error_body
from .form_targets import form_page_set
from .reconnect import DATABASE_LOST

logger = logging.getLogger(__name__)

# A lost connection is replaced by the next request's: a few seconds cover a restart or a failover.
RETRY_AFTER_SECONDS = 5


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 with `{"status": "ok", "database": "ok"}` when the database answers, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("health check: the database did not answer")
        return JsonResponse({"status": "error", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok", "vendor": connection.vendor})


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the back office).

    Resolved per request, not at import: production's hashed static names exist only after collectstatic.
    """
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


@never_cache
@require_GET
def csrf_token(request: HttpRequest) -> JsonResponse:
    """The CSRF token, for a page that rendered none and is about to post (the language switcher, htmx):
    `gpurent/core/static/core/csrf.js` asks for it only then. It also sets the CSRF cookie. Another site cannot
    read it: the response has no CORS header (docs/decisions/0183-csrf-token-only-where-a-form-needs-it.md)."""
    return JsonResponse({"token": get_token(request)})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A POST refused for its CSRF token. The language switcher of a page without a token, posted by a browser
    without JavaScript, gets a page that asks again with a token (and now a cookie); anything else gets
    Django's page."""
    if request.method == "POST" and request.path == reverse("set_language"):
        following = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(following, {request.get_host()}, require_https=request.is_secure()):
            following = reverse("catalog:index")
        form_page_set(request, following)  # the footer's switch of this page goes there too, not to the POST's address
        context = {"next": following, "chosen": request.POST.get("language", "")}
        return render(request, "core/language_again.html", context, status=403)
    return django_csrf_failure(request, reason)


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 (a request refused before any view: too many fields, a Host not allowed): on the API, the
    JSON error every other API error has; elsewhere Django's page, which needs nothing from the request."""
    if _wants_json(request):
        return JsonResponse(ApplicationError().as_body(), status=400)
    return django_bad_request(request, exception)


def _api_not_found() -> JsonResponse:
    return JsonResponse(error_body("not_found", _("Not found.")), status=404)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _wants_json(request):
        return _api_not_found()
    return render(request, "404.html", status=404)


@csrf_exempt  # nothing is done here: a POST without a CSRF token gets the same 404 as a GET, not Django's 403 page
def api_not_found(request: HttpRequest) -> JsonResponse:
    """Every path under /api/ that no endpoint matches, whatever the method: the API's JSON `not_found`.

    A route of its own rather than `handler404` alone: under DEBUG (`make run`) Django answers an unmatched path
    with its debug page, HTML listing every URL pattern, before any handler is asked."""
    return _api_not_found()


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500, called for an exception nothing else answered (in a view or a middleware), while it is
    being handled. A lost database connection (the request's own query was cut: a restart, a failover, a killed
    connection; `gpurent.core.reconnect`) is a 503 the client may retry, not a failure of the shop's code."""
    if isinstance(sys.exc_info()[1], DATABASE_LOST):
        return _database_unavailable(request)
    if _wants_json(request):
        return JsonResponse(error_body("server_error", "Something went wrong on our side."), status=500)
    return render(request, "500.html", status=500)


def _database_unavailable(request: HttpRequest) -> HttpResponse:
    # Rendered without the request's context: a context processor could query the database again.
    if _wants_json(request):
        message = _("The shop lost its connection to its database while answering. Please retry in a few seconds.")
        response: HttpResponse = JsonResponse(error_body("database_unavailable", message), status=503)
    else:
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
