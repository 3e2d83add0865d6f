"""`SESSION_ENGINE = "gpurent.accounts.session_store.cached_db"`: Django's cached database sessions (read through
the cache, written to both; decision 0406), read from the database in one statement built once per process
when the cache does not have them (see the package's docstring)."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.base_session import AbstractBaseSession

from . import session_row


class SessionStore(cached_db.SessionStore):
    def _get_session_from_db(self) -> AbstractBaseSession | None:
        return session_row(self)
