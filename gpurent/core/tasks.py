"""Background tasks whose worker died: retried exactly once, about a minute after the worker stopped beating.

django-tasks-db marks a task RUNNING when a worker claims it and never looks at it again: if the worker is
killed (SIGKILL, OOM, a lost machine), the task stays RUNNING forever. `manage.py worker` therefore writes a
heartbeat (`WorkerHeartbeat`) every `TASKS_HEARTBEAT_SECONDS`, from a thread of its own, also while a long task
runs. Every worker, once its own beats have gone through for `MISSED_BEATS` beats in a row, runs
`tasks_reclaim(by_heartbeat=True)` after each beat: the tasks RUNNING under a worker that missed `MISSED_BEATS`
beats are put back in the queue once; a task whose second attempt died too is marked failed and logged for
operators. (Only a worker that has seen the database answer all along can tell a dead worker from one that was
cut off with it: after a database outage every beat is late.) A task whose worker never beat (`db_worker`
started by hand) is judged by its age instead, also by the sweep: RUNNING for longer than
`TASKS_RECLAIM_AFTER_SECONDS`, longer than any task may run.
A worker that lost its database connection in the middle of a task lives on, so it hands the task back itself
(`tasks_release`) once it has reconnected. When the cut happened inside the task's own transaction, the next
query reconnects by itself and django-tasks-db records the task FAILED with Django's `OperationalError` (or
`InterfaceError`): the worker then queues it again once (`task_release_cut`). The worker appends its id to
`worker_ids` on every claim, so the number of attempts is read from the row itself. Every task is written to be
run again safely (see `deliver_email` and `provision_paid_order`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from .models import WorkerHeartbeat
from .reconnect import DATABASE_LOST

__all__ = [
    "MAX_ATTEMPTS",
    "MISSED_BEATS",
    "WorkerDied",
    "task_release_cut",
    "tasks_reclaim",
    "tasks_release",
    "worker_beat",
]

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2  # the first run and one retry
# A worker that missed this many beats is dead: enough to ride out a slow database (SQLite waits up to 20 s for
# its write lock), few enough that its task is retried within about a minute (4 × 10 s, plus the next check).
MISSED_BEATS = 4
# A heartbeat this old belongs to a worker long gone: its row is deleted (its tasks were reclaimed long before).
FORGET_WORKERS_AFTER = timedelta(days=1)


class WorkerDied(Exception):
    """Recorded as the `exception_class_path` of a task whose worker died in every attempt; never raised.

    django-tasks imports that path when a result's `exception_class` is read, so it must name a class."""


def worker_beat(worker_id: str, *, now: datetime | None = None) -> None:
    """Record that the worker `worker_id` is alive (one row per worker, written in place)."""
    WorkerHeartbeat.objects.update_or_create(worker_id=worker_id, defaults={"beat_at": now or timezone.now()})


def tasks_reclaim(*, now: datetime, by_heartbeat: bool = False) -> int:
    """Requeue (once) or fail the tasks left RUNNING by a dead worker; returns how many were reclaimed.

    A worker that never beat is dead once its task is older than `TASKS_RECLAIM_AFTER_SECONDS`. With
    `by_heartbeat` (only for a caller whose own beats went through for the last `MISSED_BEATS` beats), so is a
    worker whose last beat is older than `MISSED_BEATS` beats.
    """
    dead_before = now - timedelta(seconds=MISSED_BEATS * settings.TASKS_HEARTBEAT_SECONDS)
    unbeaten_before = now - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)
    running = list(
        DBTaskResult.objects.filter(
            status=TaskResultStatus.RUNNING, started_at__lt=dead_before if by_heartbeat else unbeaten_before
        )
    )
    beats = dict(
        WorkerHeartbeat.objects.filter(worker_id__in={_worker(result) for result in running}).values_list(
            "worker_id", "beat_at"
        )
    )
    reclaimed = 0
    for result in running:
        beat = beats.get(_worker(result))
        if beat is None:  # a worker that never beat: judged by how long the task has run
            dead = result.started_at is not None and result.started_at < unbeaten_before
        else:
            dead = by_heartbeat and beat < dead_before
        if dead:
            reclaimed += _reclaim(result, now, "was left running by a dead worker")
    WorkerHeartbeat.objects.filter(beat_at__lt=now - FORGET_WORKERS_AFTER).delete()
    return reclaimed


def tasks_release(*, worker_id: str, now: datetime) -> int:
    """Requeue (once) or fail the tasks RUNNING under `worker_id`, a live worker that lost its database connection
    in the middle of them and could not record how they ended; returns how many."""
    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    return sum(
        _reclaim(result, now, "was cut off by its worker's lost database connection")
        for result in running
        if _worker(result) == worker_id
    )


# How django-tasks-db names the error of a task whose own query was cut by a lost connection.
_CUT_OFF = frozenset(f"{error.__module__}.{error.__qualname__}" for error in DATABASE_LOST)


def task_release_cut(result: DBTaskResult) -> int:
    """Queue again (once) a task its worker has just recorded FAILED with a lost connection's error: cut inside its
    own transaction, it could not finish, and the record was written on the next connection, so `tasks_release`
    never sees it RUNNING. Returns 1 when it was queued again; a second attempt cut the same way stays FAILED."""
    if (
        result.status != TaskResultStatus.FAILED
        or result.exception_class_path not in _CUT_OFF
        or len(result.worker_ids) >= MAX_ATTEMPTS
    ):
        return 0
    failed = DBTaskResult.objects.filter(pk=result.pk, status=TaskResultStatus.FAILED, finished_at=result.finished_at)
    queued = failed.update(
        status=TaskResultStatus.READY, started_at=None, finished_at=None, exception_class_path="", traceback=""
    )
    if queued:
        logger.warning(
            "task %s (%s) was cut off by a lost database connection: queued again", result.pk, result.task_path
        )
    return queued


def _worker(result: DBTaskResult) -> str:
    """The worker that claimed the task last (the one running it)."""
    return str(result.worker_ids[-1]) if result.worker_ids else ""


def _reclaim(result: DBTaskResult, now: datetime, why: str) -> int:
    # Conditional on the row being unchanged, so two sweeps at once reclaim it once.
    unchanged = DBTaskResult.objects.filter(pk=result.pk, status=TaskResultStatus.RUNNING, started_at=result.started_at)
    if len(result.worker_ids) < MAX_ATTEMPTS:
        reclaimed = unchanged.update(status=TaskResultStatus.READY, started_at=None)
        if reclaimed:  # the sweep that lost a race to another says nothing: one line per reclaim
            logger.warning("task %s (%s) %s: queued again", result.pk, result.task_path, why)
        return reclaimed
    reclaimed = unchanged.update(
        status=TaskResultStatus.FAILED,
        finished_at=now,
        exception_class_path="gpurent.core.tasks.WorkerDied",
        traceback=f"The worker died during each of {len(result.worker_ids)} attempts.",
    )
    if reclaimed:
        logger.error("task %s (%s) died in every attempt: marked failed", result.pk, result.task_path)
    return reclaimed
