"""Keyset ("cursor") pagination: the one way every list a customer or the API can grow is cut into pages.

A page is at most `size` rows in the order of `key` (newest first for histories), read with
`WHERE key < last shown key ORDER BY key LIMIT size + 1`, so its cost does not depend on how many rows come
before it (unlike OFFSET) nor on how long the customer's history is, as long as an index serves the owner
filter and the key (e.g. `(account, id)` for ledger lines, `(owner, id)` for orders).

The cursor is opaque to clients: the key values of the last row shown, as URL-safe base64 of JSON. It reveals
nothing the client did not already see on the page (ids and times of its own rows), and it is only ever
applied to a query already scoped to the owner, so a forged cursor can at most skip rows of one's own.

- API: `?cursor=…&limit=…`; the response adds `"next"` (the cursor of the following page, or null).
- Pages: `?cursor=…`; the template includes `core/partials/pager.html` for the "Newest" and "Older" links.
- A list stored whole in one row (a saved estimate's catalog table, a JSON list that never changes once written)
  is paged the same way by `list_page`: its key is the position in the stored order.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import Field, Model, Q, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .errors import InvalidRequest

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE_SIZE",
    "InvalidCursor",
    "Page",
    "id_page_from_request",
    "keyset_chunks",
    "keyset_page",
    "list_page",
    "page_from_request",
    "page_link",
    "page_query",
    "release",
]

M = TypeVar("M", bound=Model)
T = TypeVar("T")

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
NEWEST_FIRST = ("-id",)


class InvalidCursor(InvalidRequest):
    default_message = _("The page cursor is not valid. Start again from the first page.")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of rows; `next` is the cursor of the following page (None on the last page)."""

    items: list[T]
    next: str | None
    cursor: str | None = None

    @property
    def is_first(self) -> bool:
        return self.cursor is None


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return value


def _encode(values: list[Any]) -> str:
    raw = json.dumps([_plain(value) for value in values], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _values(cursor: str, length: int) -> list[Any]:
    """The `length` key values a cursor holds, as JSON decoded them."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise InvalidCursor() from None
    if not isinstance(values, list) or len(values) != length:
        raise InvalidCursor()
    return values


def _decode(model: type[Model], key: tuple[str, ...], cursor: str) -> list[Any]:
    values = _values(cursor, len(key))
    decoded = []
    for name, value in zip(key, values, strict=True):
        field = model._meta.get_field(name.lstrip("-"))
        if not isinstance(field, Field) or value is None or isinstance(value, (dict, list)):
            raise InvalidCursor()
        try:
            decoded.append(field.to_python(value))
        except (ValidationError, TypeError, ValueError, OverflowError):
            raise InvalidCursor() from None
    return decoded


def _after(key: tuple[str, ...], values: list[Any]) -> Q:
    """Rows strictly after `values` in the order of `key` (lexicographic over the key's fields)."""
    condition = Q()
    for position in reversed(range(len(key))):
        name = key[position].lstrip("-")
        lookup = "lt" if key[position].startswith("-") else "gt"
        step = Q(**{f"{name}__{lookup}": values[position]})
        if position < len(key) - 1:
            step |= Q(**{name: values[position]}) & condition
        condition = step
    return condition


def keyset_page(
    queryset: QuerySet[M],
    cursor: str | None = None,
    *,
    size: int = DEFAULT_PAGE_SIZE,
    key: tuple[str, ...] = NEWEST_FIRST,
) -> Page[M]:
    """The page of `queryset` after `cursor` in the order of `key` (its last field must be unique, e.g. id).

    Raises:
        InvalidCursor: the cursor was not made by this function for this key.
    """
    size = max(1, min(size, MAX_PAGE_SIZE))
    rows = queryset.order_by(*key)
    if cursor:
        rows = rows.filter(_after(key, _decode(queryset.model, key, cursor)))
    items = list(rows[: size + 1])
    following = None
    if len(items) > size:
        items = items[:size]
        last = items[-1]
        following = _encode([getattr(last, name.lstrip("-")) for name in key])
    return Page(items=items, next=following, cursor=cursor or None)


def list_page(rows: Sequence[T], cursor: str | None = None, *, size: int = DEFAULT_PAGE_SIZE) -> Page[T]:
    """The page of `rows` after `cursor`, in their order, for a list stored whole that never changes once written
    (e.g. a saved estimate's catalog table): the cursor holds the position of the last row shown, so each row is
    on exactly one page.

    Raises:
        InvalidCursor: the cursor does not name a position of `rows`.
    """
    size = max(1, min(size, MAX_PAGE_SIZE))
    start = 0
    if cursor:
        (last,) = _values(cursor, 1)
        if type(last) is not int or not 0 <= last < len(rows):
            raise InvalidCursor()
        start = last + 1
    end = start + size
    following = _encode([end - 1]) if end < len(rows) else None
    return Page(items=list(rows[start:end]), next=following, cursor=cursor or None)


def release(rows: Iterable[Model]) -> None:
    """Drop what Django cached on `rows` and on the objects cached on them: prefetched lists and related objects.

    A prefetched row sits in reference cycles (an entry's prefetch cache holds its runs and a queryset that points
    back at the entry; each run caches its entry, each measurement its run), which only a full garbage collection
    frees. Without its caches a row no longer referenced is freed at once (decision 0325). A released row still
    works: what it cached is read again from the database if it is asked for."""
    pending = list(rows)
    seen: set[int] = set()
    while pending:
        row = pending.pop()
        if id(row) in seen:
            continue
        seen.add(id(row))
        for cached in row.__dict__.pop("_prefetched_objects_cache", {}).values():
            pending.extend(getattr(cached, "_result_cache", None) or [])
        related = row._state.fields_cache
        pending.extend(value for value in related.values() if isinstance(value, Model))
        related.clear()


def keyset_chunks(queryset: QuerySet[M], *, key: tuple[str, ...] = NEWEST_FIRST) -> Iterator[list[M]]:
    """Every row of `queryset`, one keyset page of `MAX_PAGE_SIZE` rows at a time, for a download of a whole
    history: memory stays one page whatever the history's length, and each page is one indexed query.

    A page's rows are `release`d when the next page is asked for, so they are freed as soon as the caller drops
    them: write a page before asking for the next, and keep no row of it."""
    cursor: str | None = None
    while True:
        page = keyset_page(queryset, cursor, size=MAX_PAGE_SIZE, key=key)
        rows, cursor = page.items, page.next
        del page
        if rows:
            yield rows
            release(rows)
        if cursor is None:
            return
        del rows  # not held while the next page is read


def page_from_request(
    request: HttpRequest,
    queryset: QuerySet[M],
    *,
    size: int = DEFAULT_PAGE_SIZE,
    key: tuple[str, ...] = NEWEST_FIRST,
    param: str = "cursor",
) -> Page[M]:
    """For HTML views: the page named by `?cursor=` (or `param`, when a page shows several lists; the template
    passes the same `param` to the pager); a cursor that is not valid shows the first page."""
    try:
        return keyset_page(queryset, request.GET.get(param), size=size, key=key)
    except InvalidCursor:
        return keyset_page(queryset, None, size=size, key=key)


def id_page_from_request(
    request: HttpRequest, queryset: QuerySet[M], *, size: int = DEFAULT_PAGE_SIZE, param: str = "cursor"
) -> Page[int]:
    """`page_from_request` newest first, of the rows' ids only (one column read, no model instances): for a list
    whose rows never change once written, rendered once per page of ids (the balance page's ledger, decision
    0428). Its cursors are those of `page_from_request` with the default key; one that is not valid shows the
    first page."""
    size = max(1, min(size, MAX_PAGE_SIZE))
    cursor = request.GET.get(param) or None
    rows = queryset.order_by(*NEWEST_FIRST)
    if cursor:
        try:
            (last,) = _values(cursor, 1)
        except InvalidCursor:
            last = cursor = None
        if type(last) is int:
            rows = rows.filter(id__lt=last)
        else:
            cursor = None
    ids = list(rows.values_list("id", flat=True)[: size + 1])
    following = _encode([ids[size - 1]]) if len(ids) > size else None
    return Page(items=ids[:size], next=following, cursor=cursor)


def page_query(request: HttpRequest, cursor: str | None, param: str = "cursor") -> str:
    """This page's query string (`?…`: filters, sort, the other lists' cursors), with `param` (the list's cursor
    parameter) on the page after `cursor` (first page: None). What a pager links to."""
    query = request.GET.copy()
    query.pop(param, None)
    if cursor:
        query[param] = cursor
    return f"?{query.urlencode()}"


def page_link(request: HttpRequest, cursor: str | None) -> str:
    """This page's address with the same query (filters, sort), on the page after `cursor` (first page: None)."""
    query = page_query(request, cursor)
    return f"{request.path}{query}" if query != "?" else request.path
