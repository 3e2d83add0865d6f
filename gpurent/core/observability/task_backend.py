"""django-tasks-db's backend, storing the id of the request that enqueues a task in the task's row.

The id (`core.observability.request_id`) is written beside the arguments, in the row's `args_kwargs` JSON
(`{"args": [...], "kwargs": {...}, "request_id": "..."}`), in the one INSERT that enqueues the task: no
column, no second query, and the task's own arguments and signature are unchanged (django-tasks-db reads only
`args` and `kwargs`). `manage.py worker` binds it again while it runs the task (`task_context`), so the task's
log lines carry the request's id. A task enqueued outside a request (the sweep, a command) stores none, and so
does `aenqueue`, which the shop never calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.compat import normalize_json
from django_tasks_db.models import DBTaskResult

from .request_id import bound, current_request_id

__all__ = ["RequestIdDatabaseBackend", "task_context", "task_request_id"]

REQUEST_ID_KEY = "request_id"


class RequestIdDatabaseBackend(DatabaseBackend):
    """`django_tasks_db.DatabaseBackend` whose rows also hold the enqueuing request's id (module docstring)."""

    def _task_to_db_task(self, task: Any, args: Any, kwargs: Any) -> DBTaskResult:
        # django-tasks-db's own INSERT (backend.py), with the request id beside the arguments.
        stored: dict[str, Any] = {"args": args, "kwargs": kwargs}
        if (request_id := current_request_id()) is not None:
            stored[REQUEST_ID_KEY] = request_id
        return DBTaskResult.objects.create(
            id=self._get_id(),
            args_kwargs=normalize_json(stored),
            priority=task.priority,
            task_path=task.module_path,
            queue_name=task.queue_name,
            run_after=task.run_after,
            backend_name=self.alias,
        )


def task_request_id(result: DBTaskResult) -> str | None:
    """The id of the request that enqueued the task of `result`; None when none did (or it is not a string)."""
    value = result.args_kwargs.get(REQUEST_ID_KEY) if isinstance(result.args_kwargs, dict) else None
    return value if isinstance(value, str) else None


@contextmanager
def task_context(result: DBTaskResult) -> Iterator[None]:
    """Bind the enqueuing request's id and the task's own id while the worker runs the task of `result`."""
    with bound(task_request_id(result), task_id=str(result.pk)):
        yield
