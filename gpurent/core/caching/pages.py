"""Whole pages from the cache, for every visitor, with their own parts filled in per request (decisions 0200,
0425), and the public catalog API's JSON.

A shared page (the catalog, a GPU page, the guide index) is rendered once per version of the rows it shows,
path and query, language, brand, static files, code, and kind of visitor (signed in or not), and stored as a
*skeleton*: its HTML cut at the holes that differ per request. Each request then fills them:
- `csrf`: every CSRF field of the page (the header's logout form, the language switch) gets the visitor's
  own token, as `{% csrf_token %}` would have written it;
- the caller's holes, written by its templates as `<!--hole:KIND:ARG-->` (replaced by what its filler
  returns) or `<!--if:KIND:ARG-->…<!--/if-->` (kept or dropped): the catalog's stock, read live on every
  request, so an order changes no page (`catalog/stock_parts.py`).

So a signed-in customer's page costs the version query, a cache read and the holes, like an anonymous one. It
is rendered for no customer in particular: while rendering, `request.user` is a stand-in (signed in, no
name, no email, no permission) or an anonymous user, so a skeleton cannot hold one customer's data for another.
Its key names the version the caller read *before* rendering: a page whose rows changed meanwhile is stored
under a version that is never read again (decision 0425: versions are random, never reused).

What is never cached or served from the cache: anything but a GET (HEAD is answered as a GET, decision 0426),
an htmx request, a request with an `Authorization` header or with messages to show; a response that is not a
plain 200 HTML page, sets a cookie, changed the session or holds an idempotency key (a key must be new each
time a form is shown).

`GET /api/v1/catalog` is cached whole (`public_key`, `cached_page`, `store_page`, decision 0255): its JSON shows
nothing of the caller, so a call with a personal token or a session cookie is served from, and stored into, the
same entry as an anonymous one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache as default_cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.html import format_html

from ..idempotency.request import FORM_FIELD
from .fragments import TIMEOUT_SECONDS, fragment_key

__all__ = ["Hole", "SharedPage", "cached_page", "filled", "public_key", "render_filled", "shared_page", "store_page"]


@cache
def _static_version() -> str:
    """The static files' manifest (hashed names of the CSS and scripts a page links): a deploy that only
    changes the stylesheet must not serve pages that link the old one. Empty without a manifest (tests)."""
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "")
    return str(manifest_hash or hashlib.sha256(staticfiles_storage.url("css/shop.css").encode()).hexdigest()[:16])


class Hole(NamedTuple):
    """A part of a shared page written per request: `kind` names its filler, `arg` what it fills (a GPU's id),
    `content` the HTML of an `if` block (kept or dropped by the filler), None for a plain hole. A named tuple, not
    a dataclass: every cached page is unpickled on every request, and a tuple unpickles several times faster."""

    kind: str
    arg: str
    content: str | None = None


Parts = tuple[str | Hole, ...]
Fillers = Mapping[str, Callable[[Hole], str]]

_HOLES = re.compile(
    r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">'
    r"|<!--hole:(?P<kind>[a-z-]+):(?P<arg>[^>]*?)-->"
    r"|<!--if:(?P<if_kind>[a-z-]+):(?P<if_arg>[^>]*?)-->(?P<content>.*?)<!--/if-->",
    re.DOTALL,
)


def _parts(html: str) -> Parts:
    """`html` cut at its holes (and CSRF fields, which become `csrf` holes)."""
    parts: list[str | Hole] = []
    at = 0
    for match in _HOLES.finditer(html):
        parts.append(html[at : match.start()])
        if match["kind"]:
            parts.append(Hole(match["kind"], match["arg"]))
        elif match["if_kind"]:
            parts.append(Hole(match["if_kind"], match["if_arg"], match["content"]))
        else:
            parts.append(Hole("csrf", ""))
        at = match.end()
    parts.append(html[at:])
    return tuple(part for part in parts if part != "")


def _fill(request: HttpRequest, parts: Parts, fillers: Fillers) -> str:
    token_field = ""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part.kind == "csrf":
            # One masked token for the page's fields, as the template's own `{% csrf_token %}` calls would give.
            token_field = token_field or format_html(
                '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
            )
            out.append(token_field)
        else:
            out.append(fillers[part.kind](part))
    return "".join(out)


def filled(request: HttpRequest, html: str, fillers: Fillers) -> str:
    """`html` (a fragment rendered with holes, as an htmx partial) with its holes filled for this request."""
    return _fill(request, _parts(html), fillers)


class _SignedIn(AnonymousUser):
    """Who a shared page is rendered for when the visitor is signed in: someone, with no name, no email and no
    permission, so that the header shows a customer's links and nothing of any customer."""

    @property
    def is_anonymous(self) -> bool:  # type: ignore[override]
        return False

    @property
    def is_authenticated(self) -> bool:  # type: ignore[override]
        return True


class VersionedState(Protocol):
    """What the caller reads on every request: `version` names every row the page shows (but what holes show)."""

    @property
    def version(self) -> str: ...


S = TypeVar("S", bound=VersionedState)

# The ids whose live state each page's holes need (stock of the GPUs it shows), per page and language, remembered
# by this process so that one statement reads the version and that state together. A hint only: the stored
# page says which ids it needs, and a wrong or missing hint costs a second statement.
_IDS: dict[tuple[str, str], tuple[int, ...]] = {}
_IDS_KEPT = 4096


@dataclass
class SharedPage(Generic[S]):
    """One request's shared page: the state read for it, and the stored skeleton when there is one."""

    request: HttpRequest
    key: str | None
    state: S
    parts: Parts | None
    _hint: tuple[str, str] | None

    def response(self, fillers: Fillers) -> HttpResponse:
        """The stored page, its holes filled for this request."""
        if self.parts is None:
            raise ValueError("no stored page: render it")
        return HttpResponse(_fill(self.request, self.parts, fillers), content_type="text/html; charset=utf-8")

    def render(
        self, template: str, context: dict[str, Any], *, ids: Sequence[int] = (), fillers: Fillers | None = None
    ) -> HttpResponse:
        """Render `template` for no visitor in particular (`shared_page` set in its context), store it when it
        may be shared (see the module docstring), and answer it with this request's holes filled. `ids` are
        those whose live state the holes need, for the next request's one statement."""
        response, parts = _render_shared(self.request, template, context)
        if self.key is not None and _may_store(self.request, response):
            default_cache.set(self.key, (parts, tuple(ids)), TIMEOUT_SECONDS)
            if self._hint is not None:
                _remember(self._hint, tuple(ids))
        response.content = _fill(self.request, parts, fillers or {}).encode()
        return response


def render_filled(request: HttpRequest, template: str, context: dict[str, Any], *, fillers: Fillers) -> HttpResponse:
    """`template` rendered as a shared page is, its holes filled for this request, and stored nowhere: for a page
    about what its holes show (the catalog filtered to what is in stock)."""
    response, parts = _render_shared(request, template, context)
    response.content = _fill(request, parts, fillers).encode()
    return response


def _render_shared(request: HttpRequest, template: str, context: dict[str, Any]) -> tuple[HttpResponse, Parts]:
    """`template` rendered for no visitor in particular (see the module docstring), and its parts."""
    user = getattr(request, "user", None)
    request.user = _SignedIn() if user is not None and user.is_authenticated else AnonymousUser()
    try:
        response = render(request, template, {**context, "shared_page": True})
    finally:
        if user is not None:
            request.user = user
    return response, _parts(response.content.decode())


def _remember(hint: tuple[str, str], ids: tuple[int, ...]) -> None:
    if len(_IDS) >= _IDS_KEPT:
        _IDS.clear()
    _IDS[hint] = ids


def _shareable(request: HttpRequest) -> bool:
    if request.method != "GET" or "HTTP_HX_REQUEST" in request.META or "HTTP_AUTHORIZATION" in request.META:
        return False
    return getattr(request, "user", None) is not None and not len(get_messages(request))


def shared_page(request: HttpRequest, namespace: str, read_state: Callable[[Sequence[int]], S]) -> SharedPage[S]:
    """This request's page in `namespace`: the state `read_state(ids)` gives (called once, or twice when this
    process did not know the ids the stored page needs), and the stored skeleton for that state's version, if
    any (then `response(fillers)`; otherwise `render(...)`)."""
    if not _shareable(request):
        return SharedPage(request, None, read_state(()), None, None)
    user = request.user
    visitor = "signed-in" if user.is_authenticated else "visitor"
    path = request.get_full_path()
    hint = (f"{namespace}|{visitor}|{path}", str(getattr(request, "LANGUAGE_CODE", "")))
    known = _IDS.get(hint, ())
    state = read_state(known)

    def key_of(version: str) -> str:
        return fragment_key(f"page-{namespace}", visitor, path, settings.BRAND_NAME, _static_version(), version)

    key = key_of(state.version)
    stored = default_cache.get(key)
    if stored is None:
        return SharedPage(request, key, state, None, hint)
    parts, ids = stored
    if ids != known:  # another process stored it, or the page now shows other GPUs
        _remember(hint, ids)
        again = read_state(ids)
        if again.version != state.version:  # changed in between: render it anew
            key = fragment_key(
                f"page-{namespace}", visitor, path, settings.BRAND_NAME, _static_version(), again.version
            )
            return SharedPage(request, key, again, None, hint)
        state = again
    return SharedPage(request, key, state, parts, hint)


def _may_store(request: HttpRequest, response: HttpResponse) -> bool:
    session = getattr(request, "session", None)
    return not (
        response.status_code != 200
        or response.streaming
        or response.cookies
        or (session is not None and session.modified)
        or response.get("Content-Type", "") != "text/html; charset=utf-8"
        or f'name="{FORM_FIELD}"'.encode() in response.content
    )


def public_key(request: HttpRequest, namespace: str, version: Callable[[], object]) -> str | None:
    """The key of a GET whose answer shows nothing of the caller, whoever asks (a token, a session, or nobody).
    Only for an answer that names no user, session, message or token and links no static file (the public
    catalog API's JSON, decision 0255); an htmx request or another method is never cached."""
    if request.method != "GET" or "HTTP_HX_REQUEST" in request.META:
        return None
    return fragment_key(f"public-{namespace}", request.get_full_path(), settings.BRAND_NAME, version())


def cached_page(key: str | None) -> HttpResponse | None:
    """The stored answer under `key` (from `store_page`) as a response, or None."""
    if key is None:
        return None
    stored = default_cache.get(key)
    if stored is None:
        return None
    content_type, content = stored
    return HttpResponse(content, content_type=content_type)


def store_page(request: HttpRequest, key: str | None, response: HttpResponse) -> HttpResponse:
    """Store `response` under `key` (from `public_key`) when it is a plain 200 JSON answer; returns it."""
    if key is None or response.status_code != 200 or response.streaming or response.cookies:
        return response
    if response.get("Content-Type", "") != "application/json; charset=utf-8":
        return response
    default_cache.set(key, (response["Content-Type"], response.content), TIMEOUT_SECONDS)
    return response
