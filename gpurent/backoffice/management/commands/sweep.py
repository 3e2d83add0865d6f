"""`python manage.py sweep`: the periodic housekeeping, idempotent and safe on several machines at once.

Expires payment instructions and unpaid orders past their deadlines (their lots return to stock), ends the
terms that are over (access closes, lots return), reminds customers 24 hours before their term ends, and
deletes what is past the retention periods the privacy page states (support requests, log-in records;
orders, payments and the ledger are commercial records and are never deleted here, decision 0165) and the
files prepared for download a day after they were ready (`gpurent.exports`, decision 0430), and
recovers the work of dead workers: tasks left RUNNING by a worker that never beat are queued again once
(`core.tasks`; the workers reclaim each other's by their heartbeats), provisioning runs left unfinished are
marked as died, emails no worker sent are queued again (`core.emails`).
When GPU hosts are registered, it queues one round of host work for the background worker
(`gpurent.hosts.work`): host checks, accounts to make, revoke (terms that ended), move or wipe.
When chain nodes are configured (CHAIN_WATCH_URLS), it also queues one scan of them for the background worker
(`gpurent.chains.watchers.watch_chains_task`), so payments confirm themselves on the sweep's schedule.
With `--loop SECONDS` it repeats until stopped: that is how `make run` and the systemd unit
(deploy/systemd/gpurent-sweep.service) run it; cron every minute does the same. A round whose database
connection is lost is logged and the next round reconnects (`gpurent.core.reconnect`); every step is its own
transaction, so the next round does what the lost one did not. SIGTERM ends it at once (no handler: the
default action), whatever it is doing: a transaction cut short rolls back.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from gpurent.accounts.retention import login_records_purge
from gpurent.chains.watchers import watch_chains_task
from gpurent.core.emails import emails_requeue_unsent
from gpurent.core.reconnect import DATABASE_LOST, connection_lost
from gpurent.core.tasks import tasks_reclaim
from gpurent.exports.services import exports_purge
from gpurent.hosts.work import hosts_work_enqueue
from gpurent.orders.provisioning import provisioning_runs_reclaim
from gpurent.orders.rental import orders_end_terms, orders_remind_term_end
from gpurent.orders.services import orders_expire_due
from gpurent.payments.received.verification import intents_expire_due
from gpurent.support.retention import support_requests_purge


def sweep_once(now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {
        "intents expired": intents_expire_due(now=now),
        "unpaid orders expired": orders_expire_due(now=now),
        "terms ended": orders_end_terms(now=now),
        "reminders": orders_remind_term_end(now=now),
        "tasks reclaimed": tasks_reclaim(now=now),
        "provisioning runs reclaimed": provisioning_runs_reclaim(now=now),
        "emails requeued": emails_requeue_unsent(now=now),
        "support requests past retention deleted": support_requests_purge(now=now),
        "log-in records past retention deleted": login_records_purge(now=now),
        "prepared downloads deleted": exports_purge(now=now),
    }
    if hosts_work_enqueue(now=now):
        counts["host work queued"] = 1
    if settings.CHAIN_WATCH_URLS:
        watch_chains_task.enqueue()
        counts["chain scans queued"] = 1
    return counts


class Command(BaseCommand):
    help = (
        "Expire intents and unpaid orders, end terms, send term-end reminders, delete what is past retention, "
        "reclaim the work of dead workers, and queue a chain scan when nodes are configured."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--loop", type=int, default=0, metavar="SECONDS", help="repeat every SECONDS until stopped")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            try:
                counts = sweep_once()
            except DATABASE_LOST as error:
                if not options["loop"]:
                    raise  # run once (cron): exit non-zero, the next run reconnects
                connection_lost(error, "sweep")
            else:
                self.stdout.write("sweep: " + ", ".join(f"{count} {what}" for what, count in counts.items()) + ".")
                self.stdout.flush()
            if not options["loop"]:
                return
            # As between two requests: the next round's first query checks the connection, so one that dies
            # while this sleeps is replaced, not used.
            close_old_connections()
            time.sleep(options["loop"])
