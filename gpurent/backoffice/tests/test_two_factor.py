"""Staff two-factor authentication: required in production settings; a staff user without a verified TOTP
device cannot use the back office when it is on."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django_otp.admin import OTPAdminSite

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.django_db


def test_production_settings_require_staff_two_factor():
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "x" * 64,
        "ALLOWED_HOSTS": "shop.example.com",
        "DATABASE_URL": "postgres://u:p@db.internal:5432/shop",
    }
    code = (
        "import django; django.setup(); from django.conf import settings; from django.contrib import admin; "
        "import config.urls; print(settings.STAFF_REQUIRE_2FA, admin.site.__class__.__name__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.stdout.strip() == "True OTPAdminSite", result.stderr


def test_staff_without_a_verified_device_is_refused_when_two_factor_is_on(client, django_user_model, monkeypatch):
    operator = django_user_model.objects.create_superuser(
        "op@shop.example", "passphrase 12", first_name="O", last_name="P"
    )
    client.force_login(operator)
    assert client.get("/backoffice/").status_code == 200
    monkeypatch.setattr(admin.site, "__class__", OTPAdminSite)
    response = client.get("/backoffice/")
    assert response.status_code == 302
    assert "/backoffice/login/" in response["Location"]
