"""Each long-running command outlives the loss of its database connection (issue 32, decision 0385).

`manage.py sweep --loop` used to exit on `OperationalError: terminating connection due to administrator
command` and stay dead, leaving tasks RUNNING and emails unsent until a person ran it. Here PostgreSQL's
`pg_terminate_backend` closes the connections of one process (found by its `application_name`) while it runs,
as a database restart or a network cut would, and the process must carry on: the sweep and the chain watcher
with their next rounds, the worker with its next tasks, and a task whose own query was cut runs again at once.
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.tests.processes import (
    paid_order,
    postgres_only,
    provisioning_command,
    start,
    stop,
    terminate_connections,
    wait_for,
)
from gpurent.backoffice.tests.test_worker_crash import provisioning_task, task_status
from gpurent.chains.watchers import watch_chains_task

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def rounds_after(log: Path, said: str, count: int) -> Callable[[], bool]:
    return lambda: log.read_text().count(said) >= count


def succeeded(task_id: str) -> Callable[[], bool]:
    return lambda: DBTaskResult.objects.get(pk=task_id).status == TaskResultStatus.SUCCESSFUL


@pytest.mark.parametrize(
    ("args", "said"),
    [(["sweep", "--loop", "1"], "sweep:"), (["watch_chains"], "bitcoin:")],
    ids=["sweep", "watch_chains"],
)
def test_a_loop_whose_connection_is_terminated_goes_on_with_its_next_rounds(tmp_path, args, said):
    # A node that refuses connections: each round of the watcher leases the network in the database, then
    # reports the node down.
    env = {"CHAIN_WATCH_BITCOIN_URL": "http://127.0.0.1:9", "CHAIN_WATCH_INTERVAL_SECONDS": "1"}
    name = f"gpurent-{args[0]}"
    log = tmp_path / "loop.log"
    process = start(args, log, name=name, env=env)
    try:
        for _ in range(3):
            wait_for(lambda: said in log.read_text(), "a round")
            wait_for(lambda: terminate_connections(name), "its connection was terminated")
            wait_for(rounds_after(log, said, log.read_text().count(said) + 2), "two more rounds")
        assert process.poll() is None, log.read_text()
    finally:
        stop(process)


def test_worker_whose_connection_is_terminated_between_tasks_runs_the_next_ones(settings, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    log = tmp_path / "worker.log"
    process = start(["worker", "--interval", "0.1"], log, name="gpurent-worker")
    try:
        for _ in range(3):
            wait_for(succeeded(watch_chains_task.enqueue().id), "a task ran")
            wait_for(lambda: terminate_connections("gpurent-worker"), "its connections were terminated")
        wait_for(succeeded(watch_chains_task.enqueue().id), "a later task ran")
        assert process.poll() is None, log.read_text()
    finally:
        stop(process)


def test_worker_whose_connection_is_terminated_in_the_middle_of_a_task_runs_it_again_at_once(settings, gpu, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    log = tmp_path / "worker.log"
    env = provisioning_command(tmp_path, blocking=1)
    process = start(["worker", "--interval", "0.1"], log, name="gpurent-worker", env=env)
    try:
        order = paid_order(gpu)
        wait_for(lambda: (tmp_path / "runs").exists(), "the provisioning command started")
        # While the command runs, the worker's connection is closed under it; when the command ends, the task's
        # next query fails and so does the worker's record of the failure.
        assert terminate_connections("gpurent-worker")
        (tmp_path / "gate").touch()
        # No sweep: the worker itself queues the task again, and runs it (the order's second run succeeds).
        wait_for(lambda: task_status() == TaskResultStatus.SUCCESSFUL, "the task ran again and succeeded")
        order.refresh_from_db()
        assert order.provisioning_status == "ready"
        runs = (tmp_path / "runs").read_text().split()
        assert runs == [str(process.pid), str(process.pid)]  # the same worker, still alive
        assert provisioning_task().worker_ids[0] == provisioning_task().worker_ids[1]
        assert process.poll() is None
        text = log.read_text()
        assert "the database connection failed (OperationalError" in text
        assert "was cut off by its worker's lost database connection: queued again" in text
    finally:
        stop(process)
