"""Background tasks whose worker died: reclaimed after a timeout and retried exactly once.

django-tasks-db marks a task RUNNING when a worker claims it and never looks at it again: if the worker is
killed (SIGKILL, OOM, a lost machine) or exits because its database connection was severed, the task stays
RUNNING forever. `tasks_reclaim`, run by the sweep, finds tasks RUNNING for longer than
`TASKS_RECLAIM_AFTER_SECONDS` (longer than any task may legitimately run: the provisioner's own timeout plus a
margin) and puts them back in the queue once; a task whose second attempt died too is marked failed and
logged for operators. The worker appends its id to `worker_ids` on every claim, so the number of attempts
is read from the row itself. Every task is written to be run again safely (see `deliver_email` and
`provision_paid_order`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

__all__ = ["MAX_ATTEMPTS", "WorkerDied", "tasks_reclaim"]

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 2  # the first run and one retry


class WorkerDied(Exception):
    """Recorded as the `exception_class_path` of a task whose worker died in every attempt; never raised.

    django-tasks imports that path when a result's `exception_class` is read, so it must name a class."""


def tasks_reclaim(*, now: datetime) -> int:
    """Requeue (once) or fail the tasks left RUNNING by a dead worker; returns how many were reclaimed."""
    cutoff = now - timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)
    stale = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, started_at__lt=cutoff)
    return sum(_reclaim(result, now) for result in stale)


def _reclaim(result: DBTaskResult, now: datetime) -> int:
    # Conditional on the row being unchanged, so two sweeps at once reclaim it once.
    unchanged = DBTaskResult.objects.filter(pk=result.pk, status=TaskResultStatus.RUNNING, started_at=result.started_at)
    if len(result.worker_ids) < MAX_ATTEMPTS:
        reclaimed = unchanged.update(status=TaskResultStatus.READY, started_at=None)
        if reclaimed:  # the sweep that lost a race to another says nothing: one line per reclaim
            logger.warning("task %s (%s) was left running by a dead worker: queued again", result.pk, result.task_path)
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
