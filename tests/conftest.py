"""Fixtures of the cross-app tests: a real multi-process server for the concurrency tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def _gunicorn(extra_env: dict[str, str]) -> Iterator[str]:
    """gunicorn with 4 worker processes on 127.0.0.1 against the test database; yields its base URL."""
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "DATABASE_URL": _database_url(), **extra_env}
    # The server's log goes to a file, not a pipe: tracebacks of failing requests would fill an unread pipe and
    # block the workers (the test would then time out instead of showing the failure).
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "4", "--threads", "4"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):  # up to ~20 s for the workers to boot
                try:
                    with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    time.sleep(0.2)
            else:
                log.seek(0)
                pytest.fail("gunicorn did not start: " + log.read(4000).decode(errors="replace"))
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)


@pytest.fixture
def gunicorn_server() -> Callable[..., AbstractContextManager[str]]:
    """`with gunicorn_server(EXTRA_ENV="x") as base_url:` a live multi-process server for one test."""
    return lambda **extra_env: _gunicorn(extra_env)
