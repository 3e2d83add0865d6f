"""Compressed responses that cannot leak a secret through their size (BREACH; decision 0184).

BREACH recovers a secret from a compressed HTTPS response when the same response also reflects text the
attacker chose: the size shrinks when a guess matches the secret. So a response is compressed only when it
carries no secret of the visitor:

- the request has no session cookie and no Authorization header: an anonymous visitor with no account and
  no guest session, whose pages show nothing of their own (the catalog, GPU pages, guides, glossary, help,
  the public API);
- the response renders no CSRF token and starts no session: it sets neither cookie (the CSRF middleware
  sets its cookie on every response that used the token).

Pages of a signed-in customer or a guest (API tokens shown once, one-time passwords, access details, their
orders) and every form with a token go uncompressed. Static files are compressed ahead of time by
WhiteNoise and hold no secret.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

__all__ = ["PublicGZipMiddleware", "may_compress"]


def may_compress(request: HttpRequest, response: HttpResponseBase) -> bool:
    """True when `response` carries no secret of the visitor (see the module docstring). A response that
    rendered a CSRF token sets the CSRF cookie (the CSRF middleware does so whenever the token was used)."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "HTTP_AUTHORIZATION" in request.META:
        return False
    return not {settings.CSRF_COOKIE_NAME, settings.SESSION_COOKIE_NAME} & set(response.cookies)


class PublicGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware, for the responses `may_compress` allows."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not may_compress(request, response):
            return response
        return super().process_response(request, response)
