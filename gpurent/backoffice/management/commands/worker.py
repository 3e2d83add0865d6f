"""`python manage.py worker`: the background worker (`db_worker`), restarted whenever it exits.

django-tasks-db's `db_worker` exits when its database connection is severed, and a killed worker does not
come back by itself. This command runs it as a child process and starts a new one when it exits, after a
short pause that grows while it keeps failing (1 s, 2 s, … up to 30 s; back to 1 s after a minute of
running). SIGTERM or SIGINT stop the child (which finishes or abandons its task, see `sweep`) and then this
command. Tasks a dead worker left RUNNING are reclaimed by the sweep
(`gpurent.core.tasks.tasks_reclaim`, run by `manage.py sweep`).

`make run` uses it; in production use it as the worker's command, or let systemd restart `db_worker`
(`Restart=always`): either way a worker that dies comes back.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand

RUNNING_LONG_ENOUGH_SECONDS = 60
MAX_PAUSE_SECONDS = 30


class Command(BaseCommand):
    help = "Run db_worker and restart it whenever it exits (SIGTERM/SIGINT stop both)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=1.0, help="db_worker's polling interval in seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        stopping = threading.Event()
        child: subprocess.Popen[bytes] | None = None

        def stop(signum: int, frame: FrameType | None) -> None:
            stopping.set()
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        command = [sys.executable, "-m", "django", "db_worker", "--no-reload", "--interval", str(options["interval"])]
        pause = 1.0
        while not stopping.is_set():
            started = time.monotonic()
            child = subprocess.Popen(command)  # noqa: S603 (our own interpreter and command, no shell)
            self.stdout.write(f"worker: started db_worker (pid {child.pid})")
            self.stdout.flush()
            code = child.wait()
            if stopping.is_set():
                break
            pause = (
                1.0 if time.monotonic() - started > RUNNING_LONG_ENOUGH_SECONDS else min(pause * 2, MAX_PAUSE_SECONDS)
            )
            self.stderr.write(f"worker: db_worker exited with {code}; restarting in {pause:.0f} s")
            stopping.wait(pause)
