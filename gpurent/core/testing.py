"""Helpers for tests of more than one package (an app's tests and the cross-app tests/ folder import them from
here, never from one another's test modules). Used by tests only; nothing in the shop imports this module."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from django.db import connection, connections

__all__ = ["PauseBefore", "Request", "public_key", "retry_while_the_first_runs", "someone_waits_on_a_lock"]


def public_key(comment: str) -> str:
    """A fresh OpenSSH ed25519 public key with `comment` as its comment (a distinct key on every call)."""
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode() + f" {comment}"


class PauseBefore:
    """An execute wrapper that holds its connection's request just before the statement starting with `prefix`
    (inside the request's transaction) until `release` is set."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith(self.prefix):
            self.reached.set()
            self.release.wait()
        return execute(sql, params, many, context)


class Request(threading.Thread):
    """`send()` in a thread of its own (its own database connection), optionally paused by `pause`."""

    def __init__(self, send: Callable[[], Any], pause: PauseBefore | None = None) -> None:
        super().__init__()
        self.send, self.pause = send, pause
        self.response: Any = None

    def run(self) -> None:
        try:
            if self.pause is None:
                self.response = self.send()
            else:
                with connection.execute_wrapper(self.pause):
                    self.response = self.send()
        finally:
            connections.close_all()


def someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock')"
        )
        return bool(cursor.fetchone()[0])


def retry_while_the_first_runs(send_first: Callable[[], Any], send_retry: Callable[[], Any], before: str) -> tuple:
    """Hold the first request before the statement `before`, send the retry, and return (first's response, the
    retry's response, whether the retry finished without any session waiting on a lock)."""
    pause = PauseBefore(before)
    first = Request(send_first, pause)
    retry = Request(send_retry)
    first.start()
    try:
        while not pause.reached.is_set():
            if not first.is_alive():
                raise AssertionError("the first request ended before the statement it is held at")
            pause.reached.wait(0.01)
        retry.start()
        waited = False
        while retry.is_alive() and not waited:
            waited = someone_waits_on_a_lock()
            retry.join(0.005)
    finally:
        pause.release.set()
        first.join()
        if retry.ident is not None:  # started
            retry.join()
    return first.response, retry.response, not waited
