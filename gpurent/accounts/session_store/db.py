"""`SESSION_ENGINE = "gpurent.accounts.session_store.db"`: Django's database sessions, read in one statement built
once per process (see the package's docstring)."""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.base_session import AbstractBaseSession

from . import session_row


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> AbstractBaseSession | None:
        return session_row(self)
