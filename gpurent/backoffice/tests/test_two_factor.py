"""Staff two-factor authentication: required in production settings; a staff user without a verified TOTP
device cannot use the back office when it is on."""

import html
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django_otp.admin import OTPAdminSite
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.accounts.roles import ROLE_DESCRIPTIONS
from gpurent.accounts.tests.otp_helpers import install_otp_clock
from gpurent.backoffice.site import TwoFactorBackOfficeSite

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
        "from django_otp.admin import OTPAdminSite; import config.urls; "
        "print(settings.STAFF_REQUIRE_2FA, isinstance(admin.site, OTPAdminSite))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.stdout.strip() == "True True", result.stderr


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


# --- QA walk of the back office, defect 10: a new operator is told how to get past the two-factor login ---------

PASSPHRASE = "passphrase 12"


@pytest.fixture
def two_factor_site(monkeypatch):
    monkeypatch.setattr(admin.site, "__class__", TwoFactorBackOfficeSite)


@pytest.fixture
def pia(django_user_model):
    user = django_user_model.objects.create_user(
        "pia@shop.example", PASSPHRASE, first_name="Pia", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payments"))
    return user


def test_the_two_factor_login_says_how_to_get_an_authenticator(client, two_factor_site):
    page = client.get("/backoffice/login/").content.decode()
    hint = page.split('data-testid="no-authenticator"', 1)[1].split("</p>", 1)[0]
    assert "Ask an administrator to add a TOTP device" in hint
    assert 'href="/account/two-factor/"' in hint
    assert "Code from your authenticator app" in page
    assert "OTP Device" not in page
    assert "Get OTP Challenge" not in page


def test_an_operator_without_a_device_is_told_what_to_do_not_asked_for_a_token(client, two_factor_site, pia):
    response = client.post("/backoffice/login/", {"username": pia.email, "password": PASSPHRASE, "otp_token": ""})
    page = response.content.decode()
    assert response.status_code == 200
    error = page.split('data-testid="login-error"', 1)[1].split("</p>", 1)[0]
    assert "Your account has no authenticator yet" in error
    assert "/account/two-factor/" in error
    assert "Please enter your OTP token." not in page
    assert "_auth_user_id" not in client.session


def test_a_wrong_password_says_nothing_of_devices(client, two_factor_site, pia):
    page = client.post("/backoffice/login/", {"username": pia.email, "password": "wrong one", "otp_token": ""})
    assert "authenticator yet" not in page.content.decode().split('id="login-form"', 1)[0]


def test_an_operator_with_a_device_logs_in_with_its_code_and_lands_on_the_home_page(
    client, two_factor_site, pia, monkeypatch
):
    clock = install_otp_clock(monkeypatch)
    device = TOTPDevice.objects.create(user=pia, name="phone", confirmed=True)
    posted = {"username": pia.email, "password": PASSPHRASE, "otp_token": clock.code(device), "next": "/backoffice/"}
    response = client.post("/backoffice/login/", posted, follow=True)
    assert response.redirect_chain == [("/backoffice/", 302)]
    assert 'data-testid="home-work"' in response.content.decode()


def test_the_users_page_links_to_adding_a_totp_device_for_them(client, pia, django_user_model, settings):
    settings.STAFF_REQUIRE_2FA = True
    admin_user = django_user_model.objects.create_superuser("root@shop.example", PASSPHRASE)
    client.force_login(admin_user)
    page = client.get(f"/backoffice/accounts/user/{pia.pk}/change/").content.decode()
    assert f'href="/backoffice/otp_totp/totpdevice/add/?user={pia.pk}&amp;name=Authenticator"' in page
    assert "Add a TOTP device for this user" in page
    assert "No authenticator: cannot log in to the back office until one is added" in page
    add = client.get(f"/backoffice/otp_totp/totpdevice/add/?user={pia.pk}&name=Authenticator").content.decode()
    assert f'name="user" value="{pia.pk}"' in add  # the form opens with the operator chosen
    TOTPDevice.objects.create(user=pia, name="phone", confirmed=True)
    assert "1 authenticator app ·" in client.get(f"/backoffice/accounts/user/{pia.pk}/change/").content.decode()
    theirs = client.get(f"/backoffice/otp_totp/totpdevice/?user__id__exact={pia.pk}")
    assert theirs.status_code == 200
    assert "1 TOTP device" in theirs.content.decode()


def test_each_role_has_a_description_shown_where_groups_are_chosen(client, pia, django_user_model):
    made_by_migrations = set(Group.objects.values_list("name", flat=True))
    assert made_by_migrations == set(ROLE_DESCRIPTIONS)
    assert all(len(line) < 200 and "\n" not in line for line in ROLE_DESCRIPTIONS.values())
    client.force_login(django_user_model.objects.create_superuser("root@shop.example", PASSPHRASE))
    page = html.unescape(client.get(f"/backoffice/accounts/user/{pia.pk}/change/").content.decode())
    for name, line in ROLE_DESCRIPTIONS.items():
        assert f"<li><strong>{name}</strong>: {line}</li>" in page
    groups = html.unescape(client.get("/backoffice/auth/group/").content.decode())
    assert ROLE_DESCRIPTIONS["payouts"] in groups


def test_a_recovery_code_logs_in_too_without_choosing_a_device(client, two_factor_site, pia):
    TOTPDevice.objects.create(user=pia, name="phone", confirmed=True)
    codes = StaticDevice.objects.create(user=pia, name="recovery codes", confirmed=True)
    codes.token_set.create(token="q7xk2mfa")
    posted = {"username": pia.email, "password": PASSPHRASE, "otp_token": "q7xk2mfa", "next": "/backoffice/"}
    assert client.post("/backoffice/login/", posted)["Location"] == "/backoffice/"
    assert not codes.token_set.exists()  # used once
