"""A worker SIGKILLed in the middle of a task: `manage.py worker` restarts it, the sweep reclaims the task once
its timeout has passed, and the work completes exactly once; a task whose worker dies twice is marked failed
and never run a third time; a worker whose database connection is severed comes back (issue 15, decision 0112).

Real processes against the test database (SQLite or PostgreSQL, whichever the suite runs on): `manage.py
worker` (which runs `db_worker`), and an operator's provisioning command that blocks until its worker is
gone. The sweep runs in the test with an explicit `now`, so the reclaim timeout is checked without waiting
for it. The test waits on conditions (rows, lines in a file), never on guessed sleeps.
"""

import logging
import os
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.chains.watchers import watch_chains_task
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order, OrderAccess, OrderStatusChange, ProvisioningRun
from gpurent.orders.provisioning import DIED_NOTE
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

ROOT = Path(__file__).resolve().parents[3]

# Each run records its worker's pid (our parent). The first {blocking} runs block until that worker is gone;
# a later run succeeds.
SCRIPT = """#!/bin/sh
echo "$PPID" >> "{runs}"
if [ "$(wc -l < "{runs}")" -le {blocking} ]; then
  while kill -0 "$PPID" 2>/dev/null; do sleep 0.05; done
  exit 1
fi
echo '{{"host": "10.0.0.9", "port": 22, "user": "ubuntu", "public_key": "ssh-ed25519 AAAA test"}}'
"""


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_for(condition, what, attempts=3000):
    # A bound on attempts only so that a broken build fails with a message instead of hanging CI.
    for _ in range(attempts):
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"never happened: {what}")


@dataclass
class Shop:
    """A running `manage.py worker` and the provisioning command's record of its runs."""

    workdir: Path
    order: Order

    @property
    def runs(self) -> list[int]:
        """The pid of the worker of each provisioning run so far, in order."""
        path = self.workdir / "runs"
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_worker_in_run(self, number: int) -> datetime:
        """Wait for provisioning run `number` (1-based), SIGKILL its worker; returns when it was killed."""
        wait_for(lambda: len(self.runs) >= number, f"provisioning run {number} started")
        os.kill(self.runs[number - 1], signal.SIGKILL)
        return timezone.now()

    def restarts(self) -> int:
        return (self.workdir / "worker.log").read_text().count("restarting")


def start_shop(settings, gpu, django_user_model, workdir: Path, blocking: int):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    script = workdir / "provision.sh"
    script.write_text(SCRIPT.format(runs=workdir / "runs", blocking=blocking))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(),
        "GPURENT_TEST_TASKS": "database",
        "PROVISIONER": "command",
        "PROVISIONER_COMMAND": str(script),
    }
    log = (workdir / "worker.log").open("w")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--interval", "0.1"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C")
    transfer_post(
        reference="deposit:T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="ubuntu",
        contact=Contact("C", "U", "c@example.com"),
    )
    # Paying enqueues the provisioning task after commit; the worker picks it up and runs the command.
    order_pay_from_balance(order=order, owner=customer)
    return Shop(workdir, order), worker, log


@pytest.fixture
def shop_factory(settings, gpu, django_user_model, tmp_path):
    started = []

    def start(*, blocking: int) -> Shop:
        shop, worker, log = start_shop(settings, gpu, django_user_model, tmp_path, blocking)
        started.append((worker, log))
        return shop

    yield start
    for worker, log in started:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        log.close()


def provisioning_task() -> DBTaskResult:
    return DBTaskResult.objects.get(task_path__endswith="provision_paid_order")


def sweep_after_timeout(settings, killed_at) -> int:
    """The sweep just before and just after the reclaim timeout has passed since the kill; returns how many
    tasks the second one reclaimed (the first must reclaim none: the task may still be running)."""
    timeout = timedelta(seconds=settings.TASKS_RECLAIM_AFTER_SECONDS)
    assert sweep_once(now=killed_at + timeout - timedelta(seconds=5))["tasks reclaimed"] == 0
    # The cutoff is the kill: a task the restarted worker claims after it (an email, say) is left alone.
    return sweep_once(now=killed_at + timeout)["tasks reclaimed"]


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_task_is_restarted_and_the_task_completes_exactly_once(settings, shop_factory):
    shop = shop_factory(blocking=1)
    killed_at = shop.kill_worker_in_run(1)
    assert provisioning_task().status == TaskResultStatus.RUNNING  # what a dead worker leaves behind
    wait_for(lambda: shop.restarts() >= 1, "the worker was restarted")

    assert sweep_after_timeout(settings, killed_at) == 1
    task = provisioning_task()
    wait_for(lambda: provisioning_task().status == TaskResultStatus.SUCCESSFUL, "the reclaimed task succeeded")
    # A later sweep does not run the finished work again.
    sweep_once(now=timezone.now() + timedelta(days=1))
    assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.SUCCESSFUL

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
    assert len(DBTaskResult.objects.get(pk=task.pk).worker_ids) == 2


@pytest.mark.django_db(transaction=True)
def test_worker_killed_in_both_attempts_marks_the_task_failed_and_never_runs_it_again(settings, shop_factory, caplog):
    shop = shop_factory(blocking=2)
    assert sweep_after_timeout(settings, shop.kill_worker_in_run(1)) == 1
    killed_again_at = shop.kill_worker_in_run(2)
    assert shop.runs[0] != shop.runs[1]  # the restarted worker took the retry
    with caplog.at_level(logging.ERROR, logger="gpurent.core.tasks"):
        assert sweep_after_timeout(settings, killed_again_at) == 1
    assert "died in every attempt" in caplog.text  # operators hear of it

    task = provisioning_task()
    assert task.status == TaskResultStatus.FAILED
    assert task.exception_class_path == "gpurent.core.tasks.WorkerDied"
    # The worker is back and working: a task queued after the failure runs, the failed one does not.
    later = watch_chains_task.enqueue()
    wait_for(lambda: DBTaskResult.objects.get(pk=later.id).status == TaskResultStatus.SUCCESSFUL, "a later task ran")
    assert sweep_once(now=timezone.now() + timedelta(days=1))["tasks reclaimed"] == 0
    assert provisioning_task().status == TaskResultStatus.FAILED
    assert len(shop.runs) == 2  # never a third run

    order = shop.order
    order.refresh_from_db()
    assert order.provisioning_status == "preparing"  # it waits at the provisioning desk for an operator
    assert not OrderAccess.objects.filter(order=order).exists()
    runs = ProvisioningRun.objects.filter(order=order).order_by("started_at", "pk")
    assert [(run.exit_code, run.output) for run in runs] == [(None, DIED_NOTE), (None, DIED_NOTE)]


def sever_other_connections() -> bool:
    """What a database restart or a network cut does to the worker: its connection is closed under it. The
    worker may hold no connection at the moment, so this says whether one was severed, and the test repeats it
    until one was."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="only a database server's connection can be severed")
@pytest.mark.django_db(transaction=True)
def test_worker_whose_database_connection_is_severed_comes_back_and_runs_later_tasks(shop_factory):
    shop_factory(blocking=0)
    wait_for(lambda: provisioning_task().status == TaskResultStatus.SUCCESSFUL, "the worker ran the first task")
    wait_for(sever_other_connections, "the worker's database connection was severed")
    # Severed between polls, db_worker reconnects by itself; severed during a query, it exits and `manage.py
    # worker` starts it again (both were seen). Either way a later task must run: that is the property.
    later = watch_chains_task.enqueue()
    wait_for(lambda: DBTaskResult.objects.get(pk=later.id).status == TaskResultStatus.SUCCESSFUL, "a later task ran")
