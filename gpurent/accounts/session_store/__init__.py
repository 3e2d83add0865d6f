"""Session engines: Django's `db` and `cached_db` sessions, read from the database with one SQL statement built
once per process instead of an ORM query compiled on every request (issue 30, decision 0429).

Every signed-in request reads its session first; compiling `Session.objects.get(session_key=…,
expire_date__gt=now)` cost about as much CPU as serving a whole cached page. The same table, the same row, the
same checks (this key, not expired) and the same encoding: switching engines keeps every session. Writes,
deletes and the cache of `cached_db` are Django's own.
"""

from __future__ import annotations

from functools import cache

from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connections, router
from django.utils import timezone

__all__ = ["session_row"]


def session_row(store: DbSessionStore) -> AbstractBaseSession | None:
    """The store's session row if its key names one that has not expired, else None (and the store forgets the
    key, as Django's `_get_session_from_db` does)."""
    model = store.model
    alias = router.db_for_read(model)
    ops = connections[alias].ops
    now = ops.adapt_datetimefield_value(timezone.now())  # what the ORM would send for `expire_date__gt=now`
    found = list(model.objects.using(alias).raw(_select(alias, model), [store.session_key, now]))
    if not found:
        store._session_key = None
        return None
    return found[0]


@cache
def _select(alias: str, model: type[AbstractBaseSession]) -> str:
    quote, meta = connections[alias].ops.quote_name, model._meta
    columns = ", ".join(quote(field.column) for field in meta.concrete_fields)
    key, expiry = quote(meta.get_field("session_key").column), quote(meta.get_field("expire_date").column)
    # S608: the names come from the model; the key and the time are parameters.
    return f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {key} = %s AND {expiry} > %s"  # noqa: S608
