"""A worker SIGKILLed in the middle of a task: its supervisor starts it again, a live worker reclaims the task
once the dead one's heartbeat stops, and the work completes exactly once; a task whose worker dies twice is
marked failed and never run a third time; a long task is never taken from a worker that is alive (issues 15
and 32, decisions 0112 and 0384).

Real processes against the test database (SQLite or PostgreSQL, whichever the suite runs on): `manage.py
worker` under `scripts/respawn.sh` (the supervisor of `make run`), and an operator's provisioning command that
blocks until its worker is gone. Workers beat every second here (`TASKS_HEARTBEAT_SECONDS=1`), so a dead one is
noticed after four seconds instead of forty. The test waits on conditions (rows, lines in a file), never on
guessed sleeps.
"""

import os
import signal
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.backoffice.tests.processes import paid_order, provisioning_command, start, stop, wait_for
from gpurent.chains.watchers import watch_chains_task
from gpurent.core.models import WorkerHeartbeat
from gpurent.orders.models import Order, OrderAccess, OrderStatusChange, ProvisioningRun
from gpurent.orders.provisioning import DIED_NOTE


@dataclass
class Shop:
    """Running workers and the provisioning command's record of its runs."""

    workdir: Path
    order: Order

    @property
    def runs(self) -> list[int]:
        """The pid of the worker of each provisioning run so far, in order."""
        path = self.workdir / "runs"
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_worker_in_run(self, number: int) -> None:
        """Wait for provisioning run `number` (1-based) and SIGKILL its worker."""
        wait_for(lambda: len(self.runs) >= number, f"provisioning run {number} started")
        os.kill(self.runs[number - 1], signal.SIGKILL)

    def log(self) -> str:
        return "".join(path.read_text() for path in sorted(self.workdir.glob("worker*.log")))


@pytest.fixture
def shop_factory(settings, gpu, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    started = []

    def start_shop(*, blocking: int, seconds: int = 0, workers: int = 1) -> Shop:
        env = {**provisioning_command(tmp_path, blocking=blocking, seconds=seconds), "TASKS_HEARTBEAT_SECONDS": "1"}
        for number in range(workers):
            log = tmp_path / f"worker{number}.log"
            started.append(start(["respawn", "worker", "--interval", "0.1"], log, name="gpurent-worker", env=env))
        # A worker picks up the provisioning task and runs the command.
        return Shop(tmp_path, paid_order(gpu))

    yield start_shop
    for process in started:
        stop(process)


def provisioning_task() -> DBTaskResult:
    return DBTaskResult.objects.get(task_path__endswith="provision_paid_order")


def task_status() -> str:
    return provisioning_task().status


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_task_is_restarted_and_its_task_completes_exactly_once(shop_factory):
    shop = shop_factory(blocking=1)
    shop.kill_worker_in_run(1)
    assert task_status() == TaskResultStatus.RUNNING  # what a dead worker leaves behind
    # The sweep leaves the tasks of workers that beat to the workers (only they can tell a dead one).
    assert sweep_once()["tasks reclaimed"] == 0

    wait_for(lambda: "starting it again" in shop.log(), "the supervisor started the worker again")
    wait_for(lambda: task_status() == TaskResultStatus.SUCCESSFUL, "the reclaimed task succeeded")
    assert "was left running by a dead worker: queued again" in shop.log()
    # A later sweep does not run the finished work again.
    sweep_once(now=timezone.now() + timedelta(days=1))
    assert task_status() == TaskResultStatus.SUCCESSFUL

    order = shop.order
    order.refresh_from_db()
    assert order.provisioning_status == "ready"
    assert len(shop.runs) == 2  # the command ran twice: killed once, then completed
    assert shop.runs[0] != shop.runs[1]
    assert OrderAccess.objects.filter(order=order).count() == 1
    assert OrderStatusChange.objects.filter(order=order, to_status="ready").count() == 1
    died, completed = ProvisioningRun.objects.filter(order=order).order_by("started_at", "pk")
    assert (died.exit_code, died.output) == (None, DIED_NOTE)
    assert completed.exit_code == 0
    assert len(provisioning_task().worker_ids) == 2


@pytest.mark.django_db(transaction=True)
def test_worker_killed_in_both_attempts_marks_the_task_failed_and_never_runs_it_again(shop_factory):
    shop = shop_factory(blocking=2)
    shop.kill_worker_in_run(1)
    shop.kill_worker_in_run(2)  # the restarted worker took the retry, and is killed in it too
    assert shop.runs[0] != shop.runs[1]
    wait_for(lambda: task_status() == TaskResultStatus.FAILED, "the task was marked failed")
    assert "died in every attempt: marked failed" in shop.log()  # operators hear of it
    assert provisioning_task().exception_class_path == "gpurent.core.tasks.WorkerDied"

    # The worker is back and working: a task queued after the failure runs, the failed one does not.
    later = watch_chains_task.enqueue()
    wait_for(lambda: DBTaskResult.objects.get(pk=later.id).status == TaskResultStatus.SUCCESSFUL, "a later task ran")
    assert sweep_once(now=timezone.now() + timedelta(days=1))["tasks reclaimed"] == 0
    assert task_status() == TaskResultStatus.FAILED
    assert len(shop.runs) == 2  # never a third run

    order = shop.order
    order.refresh_from_db()
    assert order.provisioning_status == "preparing"  # it waits at the provisioning desk for an operator
    assert not OrderAccess.objects.filter(order=order).exists()
    # The first run was marked died by the retry; the second by the sweep a day later (no task runs it).
    runs = ProvisioningRun.objects.filter(order=order).order_by("started_at", "pk")
    assert [(run.exit_code, run.output) for run in runs] == [(None, DIED_NOTE), (None, DIED_NOTE)]


@pytest.mark.django_db(transaction=True)
def test_a_long_task_is_not_taken_from_a_worker_that_is_alive(shop_factory):
    # Two workers beat every second; the provisioning command takes 8 s, twice the time after which a worker
    # that stopped beating is dead. The other worker reclaims nothing: the command runs once.
    shop = shop_factory(blocking=0, seconds=8, workers=2)
    wait_for(lambda: WorkerHeartbeat.objects.count() == 2, "both workers beat")
    wait_for(lambda: task_status() == TaskResultStatus.SUCCESSFUL, "the long task succeeded")
    assert len(shop.runs) == 1
    assert len(provisioning_task().worker_ids) == 1
    assert "queued again" not in shop.log()
