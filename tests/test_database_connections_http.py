"""Database connections of real servers (issue 32, decisions 0385 and 0386).

- `runserver` answers each request in a new thread and never closes a finished thread's connection: with the
  connection age forced to 60 s, the idle connections of a browsing session exhausted PostgreSQL's limit after
  about 25 minutes ("too many clients"). The local settings now keep none between requests; the age is
  `DATABASE_CONN_MAX_AGE`, 60 s by default elsewhere (gunicorn's threads are a bounded pool).
- Under gunicorn with persistent connections (`DATABASE_CONN_MAX_AGE=60`), connections killed while idle are
  replaced at the next request's first query (`CONN_HEALTH_CHECKS`): every request still answers 200.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="connections to a database server")


def database_url(application_name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{db['USER']}{password}@{host}/{db['NAME']}?application_name={application_name}"


def connections_of(application_name: str, *, terminate: bool = False) -> int:
    """How many connections the server's processes hold (terminating them with `terminate`)."""
    counted = "pg_terminate_backend(pid)" if terminate else "*"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count({counted}) FROM pg_stat_activity"  # noqa: S608 (one of two literals above)
            " WHERE datname = current_database() AND application_name = %s",
            [application_name],
        )
        return int(cursor.fetchone()[0])


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize(
    ("settings_module", "variable", "kept"),
    [
        ("config.settings.local", None, 0),
        ("config.settings.local", "30", 30),
        ("config.settings.production", None, 60),
        ("config.settings.production", "0", 0),
    ],
)
def test_the_connection_age_comes_from_the_environment_with_a_default_per_settings(settings_module, variable, kept):
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_CONN_MAX_AGE"}
    env |= {
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DATABASE_URL": "postgres://shop@db.internal:5432/shop",
        "SECRET_KEY": "k" * 64,
        "ALLOWED_HOSTS": "shop.example",
    }
    if variable is not None:
        env["DATABASE_CONN_MAX_AGE"] = variable
    read = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    done = subprocess.run([sys.executable, "-c", read], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert int(done.stdout) == kept


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_runserver_keeps_no_database_connection_after_its_requests(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_CONN_MAX_AGE"}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings.local", "DATABASE_URL": database_url("gpurent-runserver")}
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if status_of(f"http://127.0.0.1:{port}/healthz") == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "runserver did not start"
                time.sleep(0.2)
            # Each request on its own connection, so in its own thread of runserver; each reads the database.
            assert [status_of(f"http://127.0.0.1:{port}/healthz") for _ in range(20)] == [200] * 20
            # The last response is sent before its request's connection is closed: wait (generously, on a busy
            # machine) for the count to reach 0; with connections kept it stays at 20.
            deadline = time.monotonic() + 60
            while connections_of("gpurent-runserver"):
                assert time.monotonic() < deadline, "runserver kept its requests' database connections"
                time.sleep(0.1)
        finally:
            server.terminate()
            server.wait(timeout=30)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_connections_killed_while_idle_are_replaced_before_the_next_requests(gunicorn_server):
    name = "gpurent-gunicorn"
    with gunicorn_server(DATABASE_URL=database_url(name), DATABASE_CONN_MAX_AGE="60") as base:
        # Every worker thread opens its connection and keeps it.
        assert {status_of(f"{base}/api/v1/catalog") for _ in range(40)} == {200}
        assert connections_of(name) > 0
        connections_of(name, terminate=True)
        deadline = time.monotonic() + 60
        while connections_of(name):
            assert time.monotonic() < deadline, "the connections were not terminated"
            time.sleep(0.05)
        assert [status_of(f"{base}/api/v1/catalog") for _ in range(40)] == [200] * 40
