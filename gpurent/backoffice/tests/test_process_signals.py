"""SIGTERM ends each long-running command within seconds, whatever it is doing when the signal lands (issue 32).

`manage.py worker` used to hang for ever on SIGTERM: its handler called `threading.Event.set()`, which deadlocks
when the signal lands while the main thread holds the event's lock, and it waited for `db_worker`, which waited
for its task. Its handler now only clears a flag, and a task in progress gets a few seconds before the process
exits without it. The sweep loop and the chain watcher install no handler: SIGTERM's default action ends them.
Each test sends SIGTERM at several moments and asserts that the process exits; the wait is generous (a minute)
and is not a measure of speed.
"""

import signal
import subprocess
import time

import pytest
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.tests.processes import paid_order, provisioning_command, start, stop, wait_for
from gpurent.backoffice.tests.test_worker_crash import provisioning_task, task_status
from gpurent.chains.watchers import watch_chains_task

EXITS_WITHIN = 60
MOMENTS = (0.0, 0.05, 0.2, 0.6, 1.5)  # seconds after the command said it started


def signalled_at(process: subprocess.Popen[bytes], log, ready: str, delay: float) -> int | None:
    """Wait until `ready` is in the log, SIGTERM the process `delay` seconds later; its exit status, or None when
    it was still running a minute later. The process is stopped in any case, also when the wait fails (a worker
    left running would hold the test database)."""
    try:
        wait_for(lambda: ready in log.read_text(), f"{ready!r} in the log")
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        return process.wait(timeout=EXITS_WITHIN)
    except subprocess.TimeoutExpired:
        return None
    finally:
        stop(process)


@pytest.mark.django_db(transaction=True)
def test_worker_stops_on_sigterm_whatever_it_is_doing(settings, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    for moment in MOMENTS:
        # A queue of short tasks: the signal lands while the worker claims, runs or records one, or polls.
        for _ in range(40):
            watch_chains_task.enqueue()
        log = tmp_path / f"worker-{moment}.log"
        process = start(["worker", "--interval", "0.01"], log, name="gpurent-worker")
        assert signalled_at(process, log, "started", moment) == 0, (moment, log.read_text())


@pytest.mark.django_db(transaction=True)
def test_worker_stops_on_sigterm_in_the_middle_of_a_task_that_would_never_end(settings, gpu, tmp_path):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    log = tmp_path / "worker.log"
    env = provisioning_command(tmp_path, blocking=1)
    process = start(["worker", "--interval", "0.1"], log, name="gpurent-worker", env=env)
    try:
        paid_order(gpu)
        # The command blocks until its worker is gone: the worker cannot wait for the task to end.
        wait_for(lambda: (tmp_path / "runs").exists(), "the provisioning command started")
    except BaseException:
        stop(process)
        raise
    assert signalled_at(process, log, "started", 0.0) == 1, log.read_text()
    assert "stopped before its task finished" in log.read_text()
    # Left to be run again by a live worker once this one's heartbeat is old (test_worker_crash.py).
    assert task_status() == TaskResultStatus.RUNNING
    assert len(provisioning_task().worker_ids) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("args", "ready"),
    [(["sweep", "--loop", "1"], "sweep:"), (["watch_chains"], "bitcoin:")],
    ids=["sweep", "watch_chains"],
)
def test_sweep_loop_and_chain_watcher_stop_on_sigterm_whatever_they_are_doing(tmp_path, args, ready):
    # A node that refuses connections: the watcher leases the network, fails to read it and says so.
    env = {"CHAIN_WATCH_BITCOIN_URL": "http://127.0.0.1:9", "CHAIN_WATCH_INTERVAL_SECONDS": "1"}
    for moment in MOMENTS[::2]:  # no handler of ours to catch at a bad moment: fewer moments
        log = tmp_path / f"{args[0]}-{moment}.log"
        process = start(args, log, name=f"gpurent-{args[0]}", env=env)
        assert signalled_at(process, log, ready, moment) is not None, (moment, log.read_text())
    assert DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count() == 0
