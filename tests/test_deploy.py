"""Production settings: Django's deployment checks pass, and the settings refuse to start half-configured."""

import configparser
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL", "WEB_CONCURRENCY"}
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings.production", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(64),
    "ALLOWED_HOSTS": "shop.example.com",
    "DATABASE_URL": "postgres://shop:pw@db.internal:5432/shop",
    # Several web processes share one cache in production (decision 0405); checks do not connect to it.
    "CACHE_URL": "redis://cache.internal:6379/0",
}


def test_check_deploy_passes_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_refuse_a_missing_secret_key():
    result = run_manage("check", **{**PRODUCTION_ENV, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_refuse_to_run_without_postgresql():
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "DATABASE_URL"}
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert "DATABASE_URL must point at PostgreSQL" in result.stderr


def test_check_deploy_refuses_a_cache_of_each_process_with_several_web_processes():
    result = run_manage("check", "--deploy", **{**PRODUCTION_ENV, "CACHE_URL": "locmem://"})
    assert result.returncode != 0
    assert "core.E001" in result.stderr
    assert "4 web processes" in result.stderr
    single = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV, WEB_CONCURRENCY="1")
    assert single.returncode == 0, single.stdout + single.stderr


def test_gunicorn_refuses_to_start_several_workers_on_a_cache_of_each_process():
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "CACHE_URL"}
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "--workers", "3", "config.wsgi"],
        cwd=ROOT,
        env={"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "config.settings.production", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "core.E001" in result.stderr
    assert "3 web processes" in result.stderr


@pytest.mark.parametrize(
    ("cache_url", "engine"),
    [
        ("redis://cache.internal:6379/0", "django.contrib.sessions.backends.cached_db"),
        ("db://gpurent_cache", "django.contrib.sessions.backends.db"),
        ("locmem://", "django.contrib.sessions.backends.db"),
    ],
)
def test_production_sessions_are_in_postgresql_and_read_through_redis_only(cache_url, engine):
    # Decision 0406: never through a cache of each process (a logout on one would not reach the others).
    code = "from django.conf import settings; print(settings.SESSION_ENGINE)"
    result = run_manage("shell", "-v", "0", "-c", code, **{**PRODUCTION_ENV, "CACHE_URL": cache_url})
    assert result.stdout.strip() == engine, result.stderr


def test_the_environment_file_template_lists_every_setting():
    # deploy/gpurent.env is what an operator fills in: each variable of README's table, set or commented.
    from tests.test_settings_env import readme_variables

    template = (ROOT / "deploy" / "gpurent.env").read_text()
    named = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)[=:]", template, flags=re.M))
    missing = set(readme_variables()) - named - {"DJANGO_SETTINGS_MODULE"}  # set by the units themselves
    assert sorted(missing) == [], "add these variables to deploy/gpurent.env"
    for line in template.splitlines():
        if line and not line.startswith("#"):
            assert re.fullmatch(r'[A-Z][A-Z0-9_]*=("[^"]*"|[^\s"]*)', line), line


def test_the_web_unit_runs_gunicorn_with_the_deploy_config_and_restarts_it():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string((ROOT / "deploy" / "systemd" / "gpurent-web.service").read_text())
    service = parser["Service"]
    # The command tests/test_multinode.py runs, in the unit's working directory.
    assert service["ExecStart"] == "/srv/gpurent/.venv/bin/gunicorn -c deploy/gunicorn.conf.py config.wsgi"
    assert (service["Restart"], service["EnvironmentFile"]) == ("always", "/etc/gpurent/env")
    assert service["Environment"] == "DJANGO_SETTINGS_MODULE=config.settings.production"
    assert service["Type"] == "notify"  # gunicorn's master says when it is ready
