"""Whole pages (and the public catalog API's JSON) for anonymous visitors, from the cache (decision 0200).

A public page (the catalog, a GPU page, the guide index) is the same response for every visitor who sends the
same request with no session, no messages and no credentials: it
depends only on the rows it shows, the path and query, the language, the brand, the static files and the
code. `page_key` names all of them; the caller adds the version of the rows (`catalog_version()`: every GPU
on sale's id, `updated_at` and stock), so a change makes a new key and the old page is never served again
(decision 0182: nothing is deleted).

`GET /api/v1/catalog` goes further (`public_key`, decision 0255): its JSON shows nothing of the caller (no
header, no messages, no token; the endpoint does not even authenticate), so a call with a personal token or a
session cookie is served from, and stored into, the same entry as an anonymous one.

What is never cached or served from the cache:
- a request with a session cookie (a signed-in customer or a guest: their header, their messages, their
  token), an `Authorization` header, a signed-in user by any other means, or pending messages;
- an htmx request (it asks for a partial, or for the same page with other headers) and anything but GET;
- a response that is not a plain 200, sets a cookie, rendered a CSRF token or changed the session.

So a cached page cannot carry one visitor's data to another, and it carries no secret (decision 0184: the
anonymous page is the one the gzip middleware may compress).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.contrib.messages import get_messages
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache as default_cache
from django.http import HttpRequest, HttpResponse

from .cache import TIMEOUT_SECONDS, fragment_key

__all__ = ["cached_page", "page_key", "public_key", "store_page"]


@cache
def _static_version() -> str:
    """The static files' manifest (hashed names of the CSS and scripts a page links): a deploy that only
    changes the stylesheet must not serve pages that link the old one. Empty without a manifest (tests)."""
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "")
    return str(manifest_hash or hashlib.sha256(staticfiles_storage.url("css/shop.css").encode()).hexdigest()[:16])


def page_key(request: HttpRequest, namespace: str, version: Callable[[], object]) -> str | None:
    """The key of this whole page for an anonymous GET, or None when the page must be rendered for this
    visitor (see the module docstring). `version()` names the rows the page shows; it is called (a query,
    usually) only when the page may come from the cache."""
    if request.method != "GET" or "HTTP_HX_REQUEST" in request.META or "HTTP_AUTHORIZATION" in request.META:
        return None
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated or len(get_messages(request)):
        return None
    return fragment_key(f"page-{namespace}", request.get_full_path(), settings.BRAND_NAME, _static_version(), version())


def public_key(request: HttpRequest, namespace: str, version: Callable[[], object]) -> str | None:
    """The key of a GET whose answer shows nothing of the caller, whoever asks (a token, a session, or nobody):
    `page_key` without the checks of who is asking. Only for an answer that names no user, session, message or
    token and links no static file (the public catalog API's JSON, decision 0255); an htmx request or another
    method is never cached."""
    if request.method != "GET" or "HTTP_HX_REQUEST" in request.META:
        return None
    return fragment_key(f"public-{namespace}", request.get_full_path(), settings.BRAND_NAME, version())


# What may be stored: pages, and the public API's JSON (`GET /api/v1/catalog`).
_CONTENT_TYPES = {"text/html; charset=utf-8", "application/json; charset=utf-8"}


def cached_page(key: str | None) -> HttpResponse | None:
    """The stored page under `key` as a response, or None."""
    if key is None:
        return None
    stored = default_cache.get(key)
    if stored is None:
        return None
    content_type, content = stored
    return HttpResponse(content, content_type=content_type)


def store_page(request: HttpRequest, key: str | None, response: HttpResponse) -> HttpResponse:
    """Store `response` under `key` when it is the anonymous page (see the module docstring); returns it."""
    session = getattr(request, "session", None)
    if (
        key is None
        or response.status_code != 200
        or response.streaming
        or response.cookies
        or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        or (session is not None and session.modified)
        or response.get("Content-Type", "") not in _CONTENT_TYPES
        or b"csrfmiddlewaretoken" in response.content
    ):
        return response
    default_cache.set(key, (response["Content-Type"], response.content), TIMEOUT_SECONDS)
    return response
