"""Production settings: Django's deployment checks pass, and the settings refuse to start half-configured."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
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
