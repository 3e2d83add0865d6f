"""A worker SIGKILLed in the middle of a task: `manage.py worker` restarts it, the sweep reclaims the task,
and the work completes exactly once (issue 15).

Real processes against the test database: `manage.py worker` (which runs `db_worker`), and an operator's
provisioning command that blocks on its first run until its worker is gone. The test waits on conditions
(rows, lines in a file), never on guessed sleeps.
"""

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import OrderAccess, OrderStatusChange, ProvisioningRun
from gpurent.orders.provisioning import DIED_NOTE
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

ROOT = Path(__file__).resolve().parents[3]

# First run: record the worker's pid (our parent), then block until that worker is gone. Second run: succeed.
SCRIPT = """#!/bin/sh
echo "$PPID" >> "{runs}"
if [ "$(wc -l < "{runs}")" -eq 1 ]; then
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


@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_task_is_restarted_and_the_task_completes_exactly_once(settings, gpu, django_user_model):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
    workdir = Path(tempfile.mkdtemp())
    runs = workdir / "runs"
    script = workdir / "provision.sh"
    script.write_text(SCRIPT.format(runs=runs))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": _database_url(),
        "GPURENT_TEST_TASKS": "database",
        "PROVISIONER": "command",
        "PROVISIONER_COMMAND": str(script),
    }
    log = (workdir / "worker.log").open("w+")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--interval", "0.1"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
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

        wait_for(lambda: runs.exists() and runs.read_text().strip(), "the first provisioning run started")
        first_worker_pid = int(runs.read_text().split()[0])
        os.kill(first_worker_pid, signal.SIGKILL)
        task = DBTaskResult.objects.get(task_path__endswith="provision_paid_order")
        assert task.status == TaskResultStatus.RUNNING  # what a dead worker leaves behind

        wait_for(lambda: "restarting" in (workdir / "worker.log").read_text(), "the worker was restarted")
        settings.TASKS_RECLAIM_AFTER_SECONDS = 0
        # A zero timeout reclaims whatever is running now: the dead task, perhaps an email being sent too.
        assert sweep_once(now=timezone.now())["tasks reclaimed"] >= 1

        wait_for(
            lambda: DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.SUCCESSFUL,
            "the reclaimed task succeeded",
        )
        # A later sweep does not run the finished work again.
        sweep_once(now=timezone.now())
        assert DBTaskResult.objects.get(pk=task.pk).status == TaskResultStatus.SUCCESSFUL
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=60)
        log.close()

    order.refresh_from_db()
    assert order.provisioning_status == "ready"
    assert len(runs.read_text().split()) == 2  # the command ran twice: killed once, then completed
    assert first_worker_pid != int(runs.read_text().split()[1])
    assert OrderAccess.objects.filter(order=order).count() == 1
    assert OrderStatusChange.objects.filter(order=order, to_status="ready").count() == 1
    died, completed = ProvisioningRun.objects.filter(order=order).order_by("started_at", "pk")
    assert (died.exit_code, died.output) == (None, DIED_NOTE)
    assert completed.exit_code == 0
    assert len(DBTaskResult.objects.get(pk=task.pk).worker_ids) == 2
