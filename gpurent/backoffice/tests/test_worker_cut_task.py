"""A task cut by a lost connection inside its own transaction: django-tasks-db records it FAILED on the next
connection, and the worker queues it again once (issue 32, decision 0384: `core.tasks.task_release_cut`)."""

import logging

import pytest
from django.db import OperationalError
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.management.commands.worker import ShopWorker
from gpurent.core.tests.test_tasks_reclaim import dead_task, status

pytestmark = pytest.mark.django_db


@task()
def cut_off() -> None:
    """A task whose own query was cut by a lost connection (the next one reconnects by itself)."""
    raise OperationalError("server closed the connection unexpectedly")


@task()
def broken() -> None:
    raise ValueError("a bug, not a lost connection")


def run_claimed(path, worker_ids, settings):
    """Claim a task as `worker_ids[-1]` and run it in a `manage.py worker`, as its loop does."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    result = dead_task(settings, worker_ids)
    DBTaskResult.objects.filter(pk=result.pk).update(task_path=path, args_kwargs={"args": [], "kwargs": {}})
    result.refresh_from_db()
    worker = ShopWorker(
        queue_names=["default"],
        interval=1,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_ids[-1],
        excluded_queue_names=[],
    )
    worker.run_task(result)
    return status(result)


def test_a_task_cut_inside_its_transaction_is_queued_again_once_by_its_worker(settings, caplog):
    # django-tasks-db records the failure on the next connection: without the worker's release it stays FAILED.
    with caplog.at_level(logging.WARNING, logger="gpurent.core.tasks"):
        assert run_claimed(f"{__name__}.cut_off", ["worker-1"], settings) == "READY"
    assert "cut off by a lost database connection: queued again" in caplog.text
    assert run_claimed(f"{__name__}.cut_off", ["worker-1", "worker-2"], settings) == "FAILED"  # its second attempt
    assert run_claimed(f"{__name__}.broken", ["worker-1"], settings) == "FAILED"  # another error is a failure
