"""Caching what is the same for every visitor, keyed by the versions of what it shows (decision 0182).

Nothing is ever deleted to invalidate an entry: a key names everything the value depends on (the rows'
versions, the language, the code and templates that produced it), so a change makes a new key and the old
entry is never read again and expires on its own. That holds across processes and machines with any backend
of `CACHE_URL` (docs/decisions/0181-cache-from-url.md), where a "delete on save" would miss the other
processes' local memory.

What goes in must not depend on who asks: fragments are rendered without the request (no user, no CSRF
token, no session), so a cached fragment cannot carry one visitor's data to another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache as default_cache
from django.utils.translation import get_language

__all__ = ["TIMEOUT_SECONDS", "cached", "code_version", "fragment_key", "rows_version"]

T = TypeVar("T")

# Versioned keys never go stale; the timeout only bounds how long an unused entry takes room.
TIMEOUT_SECONDS = 24 * 3600

_ROOT = Path(__file__).resolve().parents[2]
_CODE_SUFFIXES = {".py", ".html", ".mo", ".json"}


@cache
def code_version() -> str:
    """A digest of the code, templates and compiled translations this process runs (computed once).

    Part of every key, so a deploy never serves, from a cache shared with the previous release, a fragment its
    old templates rendered or an object its old code computed.
    """
    digest = hashlib.sha256()
    folders = [_ROOT / "gpurent", _ROOT / "vramcalc", _ROOT / "templates", *map(Path, settings.LOCALE_PATHS)]
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in _CODE_SUFFIXES and path.is_file() and "tests" not in path.parts:
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def rows_version(rows: Iterable[Any], *, stock: bool = True) -> str:
    """A digest of (id, updated_at, stock) of catalog-like rows: changes when any row is edited, added,
    removed, reordered, or its stock moves (stock changes by UPDATE without touching `updated_at`). Without
    `stock`, only (id, updated_at): for what shows stock through holes filled per request (decision 0425)."""
    digest = hashlib.sha256()
    for row in rows:
        level = getattr(row, "stock_lots", "") if stock else ""
        digest.update(f"{row.pk}|{row.updated_at.isoformat()}|{level};".encode())
    return digest.hexdigest()[:24]


def fragment_key(namespace: str, *parts: object) -> str:
    """`namespace:` + a digest of the parts, the active language and the code version."""
    raw = "|".join([code_version(), get_language() or settings.LANGUAGE_CODE, *map(str, parts)])
    return f"{namespace}:{hashlib.sha256(raw.encode()).hexdigest()[:32]}"


def cached(key: str, compute: Callable[[], T]) -> T:
    """The value stored under `key`, computed and stored first when it is not there."""
    value = default_cache.get(key)
    if value is None:
        value = compute()
        default_cache.set(key, value, TIMEOUT_SECONDS)
    return value
