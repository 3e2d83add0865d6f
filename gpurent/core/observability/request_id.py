"""The id that ties together every log line of one request, and of the background work it started.

A request's id is its `X-Request-ID` header when that is well formed (1 to 128 letters, digits, `.`, `_`, `:`
or `-`: what a proxy such as nginx's `$request_id` or a client's UUID looks like, and nothing that could forge a
log line), else a new random one; it is sent back in the response's `X-Request-ID` header
(`gpurent.core.observability.middleware.ObservabilityMiddleware`). While the request runs it is held in a context
variable that the log filter reads (`gpurent.core.observability.logs`), so every line logged on its behalf carries
it, whichever module logs. A task enqueued during the request stores it in its row
(`gpurent.core.observability.task_backend`), and the worker binds it again while the task runs, so the task's
lines, an e-mail's send included, carry the same id. A task also binds its own id (`task_id`), so lines of a task
that no request started can still be told apart.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["bound", "current_request_id", "current_task_id", "incoming_or_new", "new_request_id", "well_formed"]

HEADER = "X-Request-ID"
_WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,128}")

_REQUEST_ID: ContextVar[str | None] = ContextVar("gpurent_request_id", default=None)
_TASK_ID: ContextVar[str | None] = ContextVar("gpurent_task_id", default=None)


def well_formed(value: str | None) -> bool:
    """Whether `value` may be used as a request id as it came (see the module docstring)."""
    return value is not None and _WELL_FORMED.fullmatch(value) is not None


def new_request_id() -> str:
    """A fresh id: 32 hexadecimal digits (128 random bits), the shape of nginx's `$request_id`."""
    return uuid.uuid4().hex


def incoming_or_new(value: str | None) -> str:
    """The incoming header's value when it is well formed, else a new id."""
    return value if value is not None and well_formed(value) else new_request_id()


def current_request_id() -> str | None:
    """The id of the request (or of the request that enqueued the running task); None outside of one."""
    return _REQUEST_ID.get()


def current_task_id() -> str | None:
    """The id of the background task this code runs in; None outside of one."""
    return _TASK_ID.get()


@contextmanager
def bound(request_id: str | None, *, task_id: str | None = None) -> Iterator[None]:
    """Hold `request_id` (and `task_id`) as the current ones inside the block; the previous ones after it.

    A task's `request_id` is None when no request enqueued it (the sweep, a command): its lines then carry
    no request id, and never the one of an earlier task of the same worker.
    """
    request_token = _REQUEST_ID.set(request_id)
    task_token = _TASK_ID.set(task_id) if task_id is not None else None
    try:
        yield
    finally:
        if task_token is not None:
            _TASK_ID.reset(task_token)
        _REQUEST_ID.reset(request_token)
