"""Turning two-factor login on, changing the e-mail or the password signs out every other session of the account
and keeps the one that made the change, and the page says so (issue 32, decision 0378). Two browsers each. The
password's case is Django's own rule: `test_views.test_password_change_keeps_this_session_and_logs_out_the_others`."""

from __future__ import annotations

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.accounts.email_change import email_change_token
from gpurent.accounts.models import User

pytestmark = pytest.mark.django_db

OTHERS_OUT = "Other devices have been logged out."


def _signed_in(client: Client) -> bool:
    return client.get(reverse("accounts:account")).status_code == 200


@pytest.fixture
def laptop(user) -> Client:
    """The browser the customer makes the change in."""
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def phone(user) -> Client:
    """Another browser, signed in before the change."""
    client = Client()
    client.force_login(user)
    assert _signed_in(client)
    return client


def test_turning_two_factor_on_signs_out_the_other_sessions(user, laptop, phone, otp_clock):
    assert laptop.post(reverse("accounts:two_factor_setup")).status_code == 302
    device = TOTPDevice.objects.get(user=user)
    shown = laptop.post(reverse("accounts:two_factor_confirm"), {"code": otp_clock.code(device)})
    assert shown.status_code == 200
    assert not _signed_in(phone)
    assert _signed_in(laptop)
    assert OTHERS_OUT in shown.content.decode()
    assert phone.get(reverse("accounts:account"))["Location"].startswith(reverse("accounts:login"))


def test_a_wrong_code_changes_nothing(user, laptop, phone, otp_clock):
    laptop.post(reverse("accounts:two_factor_setup"))
    assert laptop.post(reverse("accounts:two_factor_confirm"), {"code": "000000"}).status_code == 422
    assert _signed_in(phone)


def test_changing_the_email_signs_out_the_other_sessions(user, laptop, phone):
    token = email_change_token(user, "ana.new@example.com")
    confirmed = laptop.post(reverse("accounts:email_confirm", args=[token]), follow=True)
    assert confirmed.status_code == 200
    assert User.objects.get(pk=user.pk).email == "ana.new@example.com"
    assert not _signed_in(phone)
    assert _signed_in(laptop)
    assert OTHERS_OUT in confirmed.content.decode()


def test_an_account_that_never_ended_its_sessions_keeps_django_s_hash(user):
    # So deploying this signs nobody out: every existing session's stored hash still matches.
    assert user.session_generation == 0
    assert user.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(user)
