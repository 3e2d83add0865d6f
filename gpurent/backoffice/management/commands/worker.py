"""`python manage.py worker`: the background worker (django-tasks-db's, run in this process), which outlives a
lost database connection, beats while it lives, and stops within seconds of SIGTERM (decision 0384).

- Lost database connection (a restart, a failover, `pg_terminate_backend`): logged, closed, and the loop
  carries on with a new one after a pause (1 s, doubling up to 30 s while the database does not answer). A
  task the loss cut off could not record how it ended: it is handed back to the queue (`tasks_release`) and
  runs again once; one cut inside its own transaction, which django-tasks-db records FAILED on the next
  connection, is queued again once too (`task_release_cut`).
- Heartbeat: a thread writes this worker's `WorkerHeartbeat` every `TASKS_HEARTBEAT_SECONDS`, also while a long
  task runs, and then reclaims the tasks of workers that stopped beating (`tasks_reclaim`): a dead worker's task
  is retried within about a minute, and a task is never taken from a worker that is alive.
- SIGTERM, SIGINT: the handler only clears a flag (`running`, read by the loop between tasks); Python's C-level
  handler also writes the signal to a pipe (`signal.set_wakeup_fd`) that the heartbeat thread reads. A handler
  that takes a lock (`threading.Event.set()`) deadlocks when the signal lands while the main thread holds it.
  No task is claimed after the signal; a task in progress may finish for `STOP_GRACE_SECONDS`, then the process
  exits without it (another worker retries it once this one's beats stop). A second signal, a second or more
  after the first, exits at once.
- A worker that dies anyway is started again by its supervisor: systemd (deploy/systemd/gpurent-worker.service,
  `Restart=always`) or `make run` (scripts/respawn.sh).
"""

from __future__ import annotations

import logging
import os
import select
import signal
import threading
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections, connection
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks_db.compat import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from gpurent.core.observability.task_backend import task_context
from gpurent.core.reconnect import DATABASE_LOST, connection_lost
from gpurent.core.tasks import MISSED_BEATS, task_release_cut, tasks_reclaim, tasks_release, worker_beat

logger = logging.getLogger(__name__)

STOP_GRACE_SECONDS = 10
STOP_SIGNALS = {signal.SIGTERM.value, signal.SIGINT.value}
MAX_PAUSE_SECONDS = 30


class ShopWorker(Worker):
    """django-tasks-db's `Worker` with the shop's signal handling, reconnection and heartbeat (module docstring)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._wakeup_read, self._wakeup_write = os.pipe()
        os.set_blocking(self._wakeup_read, False)
        os.set_blocking(self._wakeup_write, False)
        self._finished = threading.Event()  # set by the main thread, never by a signal handler

    def configure_signals(self) -> None:
        signal.set_wakeup_fd(self._wakeup_write, warn_on_full_buffer=False)
        signal.signal(signal.SIGTERM, self.shutdown)
        # Started in the background by a shell without job control, SIGINT is ignored: leave it so.
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, self.shutdown)

    def shutdown(self, signum: int, frame: FrameType | None) -> None:
        # One attribute write, nothing that takes a lock, logs or raises: the signal may land anywhere, also while
        # this thread holds a lock. The heartbeat thread learns of the signal from the wakeup pipe.
        self.running = False

    def run_task(self, db_task_result: DBTaskResult) -> None:
        # The task's log lines carry the id of the request that enqueued it, and its own
        # (core/observability/task_backend.py).
        with task_context(db_task_result):
            super().run_task(db_task_result)  # records the outcome, a failure included
        task_release_cut(db_task_result)

    def run(self) -> None:
        # The first beat before the first claim: every task this worker runs is judged by its beats.
        beating = self._beat(None, float(settings.TASKS_HEARTBEAT_SECONDS))
        heartbeat = threading.Thread(target=self._heartbeat, args=(beating,), name="worker-heartbeat", daemon=True)
        heartbeat.start()
        try:
            self._run_reconnecting()
        finally:
            self._finished.set()
            os.write(self._wakeup_write, b"\0")  # wakes the heartbeat thread, which sees `_finished` and ends
            heartbeat.join(timeout=STOP_GRACE_SECONDS)

    def _run_reconnecting(self) -> None:
        pause = 1.0
        while self.running:
            try:
                super().run()  # returns once `running` is cleared
                return
            except DATABASE_LOST as error:
                connection_lost(error, f"worker {self.worker_id}")
            self.startup_delay = False
            self._pause(pause)
            try:
                tasks_release(worker_id=self.worker_id, now=timezone.now())  # logs each task it queues again
            except DATABASE_LOST as error:
                connection_lost(error, f"worker {self.worker_id}")
                pause = min(pause * 2, MAX_PAUSE_SECONDS)
                continue
            pause = 1.0

    def _pause(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.running and time.monotonic() < deadline:
            time.sleep(0.1)

    def _heartbeat(self, beating: tuple[float, float] | None) -> None:
        """Beat every `TASKS_HEARTBEAT_SECONDS` and reclaim dead workers' tasks; after a signal, end the process if
        the main thread has not stopped within `STOP_GRACE_SECONDS` (at once on a second signal). `beating`: the
        first and last of the beats that went through in a row (see `_beat`)."""
        interval = float(settings.TASKS_HEARTBEAT_SECONDS)
        next_beat = time.monotonic() + interval
        stop_by: float | None = None
        try:
            while True:
                wake_at = next_beat if stop_by is None else stop_by
                readable = select.select([self._wakeup_read], [], [], max(0.0, wake_at - time.monotonic()))[0]
                if self._finished.is_set():
                    return
                # Each byte is a signal's number (any signal with a Python handler): only SIGTERM and SIGINT stop.
                if readable and STOP_SIGNALS & set(os.read(self._wakeup_read, 64)):
                    if stop_by is None:
                        stop_by = time.monotonic() + STOP_GRACE_SECONDS
                    elif time.monotonic() > stop_by - STOP_GRACE_SECONDS + 1:
                        # A second signal, a second or more after the first (one stop often signals the process
                        # twice at once: `make run` signals the whole group and scripts/respawn.sh forwards it).
                        os._exit(1)
                elif stop_by is not None and time.monotonic() >= stop_by:
                    logger.warning("worker %s: stopped before its task finished; it runs again", self.worker_id)
                    os._exit(1)
                elif stop_by is None and time.monotonic() >= next_beat:
                    beating = self._beat(beating, interval)
                    next_beat = time.monotonic() + interval
        finally:
            connection.close()  # this thread's own connection

    def _beat(self, beating: tuple[float, float] | None, interval: float) -> tuple[float, float] | None:
        """One beat, then the reclaim of dead workers' tasks once this worker's own beats have gone through, no
        more than two intervals apart, for `MISSED_BEATS` intervals: only then is a late beat a dead worker's and
        not a database outage that held every worker back. Returns the new run of beats (None after a failure)."""
        now = timezone.now()
        try:
            close_old_connections()
            worker_beat(self.worker_id, now=now)
            beat = time.monotonic()
            first = beating[0] if beating is not None and beat - beating[1] <= 2 * interval else beat
            if beat - first >= MISSED_BEATS * interval:
                tasks_reclaim(now=now, by_heartbeat=True)
            return first, beat
        except DATABASE_LOST as error:
            connection_lost(error, f"worker {self.worker_id} heartbeat")
            return None
        except Exception:
            logger.exception("worker %s: the heartbeat's reclaim failed", self.worker_id)
            return beating


class Command(BaseCommand):
    help = "Run the background worker: it reconnects after a lost database connection, beats, and stops on SIGTERM."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between polls of an empty queue")

    def handle(self, *args: Any, **options: Any) -> None:
        worker = ShopWorker(
            queue_names=[DEFAULT_TASK_QUEUE_NAME],
            interval=options["interval"],
            batch=False,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=True,
            max_tasks=None,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        )
        worker.configure_signals()
        logger.info("worker %s: started (pid %d)", worker.worker_id, os.getpid())
        worker.run()
