"""The shop's long-running commands (worker, sweep loop, chain watcher) as real processes against the test
database, and what a database restart does to them: their connections closed under them (PostgreSQL's
`pg_terminate_backend`, on the connections of one process only, found by their `application_name`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance

ROOT = Path(__file__).resolve().parents[3]

# An operator's provisioning command. Each run records its worker's pid (our parent). The first {blocking} runs
# block until that worker is gone (or the file {gate} exists); a later run takes {seconds} seconds, then succeeds.
PROVISIONING_SCRIPT = """#!/bin/sh
echo "$PPID" >> "{runs}"
if [ "$(wc -l < "{runs}")" -le {blocking} ]; then
  while kill -0 "$PPID" 2>/dev/null && [ ! -e "{gate}" ]; do sleep 0.05; done
  exit 1
fi
sleep {seconds}
echo '{{"host": "10.0.0.9", "port": 22, "user": "ubuntu", "public_key": "{key}"}}'
"""
# A real public key: the installed key is checked as the account page checks one (QA walk 3, defect 24).
INSTALLED_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo test"

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="only a database server's connections can be terminated"
)


def database_url(application_name: str = "") -> str:
    """The test database's URL, for a process the test starts; on PostgreSQL its connections carry
    `application_name`, so that the test can terminate them and no other."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    query = f"?application_name={application_name}" if application_name else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{db['USER']}{password}@{host}/{db['NAME']}{query}"


def start(args: list[str], log: Path, *, name: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`python manage.py ARGS` (or `scripts/respawn.sh …` when ARGS starts with "respawn") in a process group of
    its own, against the test database with the real task queue; its output goes to `log`. Connections are kept
    between rounds, as in production, so that a test can terminate one."""
    command = [sys.executable, "manage.py", *args]
    if args[0] == "respawn":
        command = ["bash", str(ROOT / "scripts" / "respawn.sh"), sys.executable, "manage.py", *args[1:]]
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(name),
        "DATABASE_CONN_MAX_AGE": "60",
        "GPURENT_TEST_TASKS": "database",
        **(env or {}),
    }
    with log.open("ab") as output:
        return subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a process group the test started (SIGKILL: the test is over, its behaviour is not under test)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)


def wait_for(condition: Callable[[], object], what: str, seconds: float = 120) -> None:
    """Poll `condition` every 0.05 s. The bound (two minutes: the suite may share a busy machine) only turns a
    hang into a failure; it is not a measure of speed."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.05)


def terminate_connections(application_name: str) -> int:
    """`pg_terminate_backend` on every connection of the processes started with `application_name`; returns how
    many there were (a process may hold none at the moment)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [application_name],
        )
        return int(cursor.fetchone()[0])


def connections_of(application_name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
            [application_name],
        )
        return int(cursor.fetchone()[0])


def provisioning_command(workdir: Path, *, blocking: int, seconds: int = 0) -> dict[str, str]:
    """The environment of a worker whose provisioning command is `PROVISIONING_SCRIPT` (its runs: workdir/runs;
    creating workdir/gate ends the blocking runs)."""
    script = workdir / "provision.sh"
    text = PROVISIONING_SCRIPT.format(
        runs=workdir / "runs", gate=workdir / "gate", blocking=blocking, seconds=seconds, key=INSTALLED_KEY
    )
    script.write_text(text)
    script.chmod(0o755)
    return {"PROVISIONER": "command", "PROVISIONER_COMMAND": str(script)}


def paid_order(gpu: GpuModel) -> Order:
    """A customer's order, paid from their balance: its provisioning task is queued after the commit."""
    customer = get_user_model().objects.create_user("c@example.com", "passphrase 12", first_name="C")
    transfer_post(
        reference="deposit:T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(100_000),
    )
    contact = Contact("C", "U", "c@example.com")
    order = order_place(owner=customer, gpu_slug=gpu.slug, term_days=7, lots=1, environment="ubuntu", contact=contact)
    order_pay_from_balance(order=order, owner=customer)
    return order
