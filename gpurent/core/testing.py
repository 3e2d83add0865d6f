"""Helpers for tests of more than one package (an app's tests and the cross-app tests/ folder import them from
here, never from one another's test modules). Used by tests only; nothing in the shop imports this module."""

from __future__ import annotations

import io
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from django.db import connection, connections

__all__ = [
    "POSTGRES_BURST",
    "PauseBefore",
    "Request",
    "bearer_posts",
    "logged_lines",
    "post_all",
    "public_key",
    "retry_while_the_first_runs",
    "run_concurrently",
    "someone_waits_on_a_lock",
    "tally",
]

Post = tuple[str, bytes, dict[str, str]]
"""One request of a burst: (path, body, headers); a JSON content type is sent unless headers name another."""

Answer = tuple[int, str, dict[str, Any]]
"""One answer of a burst: (HTTP status, the JSON error's code or '' , the JSON body of a success or {})."""

POSTGRES_BURST = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]
"""The marks of a burst test: committed rows (a server in other processes reads them), and PostgreSQL only
(SQLite serializes writers, so a race there proves nothing)."""


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


def run_concurrently(count: int, target: Callable[[int], Any]) -> list[Any]:
    """Run `target(index)` in `count` threads released together; each result, or the name of what it raised.

    Each thread closes its database connections when done (PostgreSQL tests: a thread is a client of its own).
    """
    barrier = threading.Barrier(count)
    results: list[Any] = []

    def worker(index: int) -> None:
        try:
            barrier.wait()
            results.append(target(index))
        except Exception as error:  # noqa: BLE001 (the test inspects every outcome)
            results.append(type(error).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


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


def bearer_posts(path: str, bodies: Sequence[bytes], *, token: str, key: str) -> list[Post]:
    """One POST to `path` per body, as the API token's owner, with the idempotency key `{key}-{index}`: distinct
    keys, so the idempotency rows never serialize the burst and every request reaches the rule under test."""
    return [
        (path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": f"{key}-{index}"})
        for index, body in enumerate(bodies)
    ]


def tally(answers: Sequence[Answer]) -> Counter[tuple[int, str]]:
    """How many answers of each (status, error code) a burst got: what a limit test compares in one assertion."""
    return Counter((status, code) for status, code, _ in answers)


def _answer(request: urllib.request.Request, timeout: float) -> Answer:
    """The (status, code, body) of one request; a 4xx/5xx that is not the API's JSON error keeps its start as code."""
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (our own 127.0.0.1 server)
            payload = response.read()
            try:
                return response.status, "", json.loads(payload)
            except ValueError:  # an HTML page (a desk's redirect target): only the status matters
                return response.status, "", {}
    except urllib.error.HTTPError as error:
        payload = error.read()
        try:
            return error.code, json.loads(payload)["error"]["code"], {}
        except (ValueError, KeyError, TypeError):  # not our JSON error (a 500 page): show its start
            return error.code, payload[:300].decode(errors="replace"), {}


def post_all(server: str, requests: Sequence[Post], *, socket_timeout: float = 60) -> list[Answer]:
    """POST every (path, body, headers) at once, from one thread each, released together by a barrier; return
    the answers in the order of `requests`.

    `socket_timeout` only keeps a hung server from hanging the suite; requests that all queue on one row need a
    larger one (they are served one after the other).

    Raises AssertionError when the burst did not overlap: a test of a race passes trivially if its requests in
    fact went one after the other, so at least half of them (and at least two) must have been sent before the
    first answer came back. In practice all of them are (measured: 120 of 120 on a loaded 2-core machine); half
    leaves room for a slow thread wake-up without letting a sequential burst pass.
    """
    barrier = threading.Barrier(len(requests), timeout=socket_timeout)
    sent: list[float] = []
    answered: list[float] = []

    def send(item: Post) -> Answer:
        path, body, headers = item
        request = urllib.request.Request(  # noqa: S310 (our own 127.0.0.1 server)
            f"{server}{path}", data=body, method="POST", headers={"Content-Type": "application/json", **headers}
        )
        barrier.wait()
        sent.append(time.monotonic())  # list.append is atomic: no lock needed
        try:
            return _answer(request, socket_timeout)
        finally:
            answered.append(time.monotonic())

    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        answers = list(pool.map(send, requests))
    in_flight = sum(1 for moment in sent if moment < min(answered))
    if len(requests) > 1 and in_flight < max(2, (len(requests) + 1) // 2):
        raise AssertionError(f"the burst did not overlap: {in_flight} of {len(requests)} sent before the first answer")
    return answers


@contextmanager
def logged_lines(level: int = logging.DEBUG) -> Iterator[list[dict[str, Any]]]:
    """Every line logged inside the block, at `level` and above, as the production handler writes it (the
    shop's filter and JSON formatter, gpurent/core/observability/logs.py), each parsed back into a dict; filled on
    exit."""
    from gpurent.core.observability.logs import ContextFilter, JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", "django", "django.request", "django_tasks")}
    root.addHandler(handler)
    for name in levels:
        logging.getLogger(name).setLevel(level)
    lines: list[dict[str, Any]] = []
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        for name, previous in levels.items():
            logging.getLogger(name).setLevel(previous)
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())
