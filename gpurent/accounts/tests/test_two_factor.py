"""Customers' two-factor login (TOTP with django-otp, recovery codes): enrolment, the whole login over HTTP,
recovery codes once each, turning it off with a code, django-axes counting wrong codes, the API's tokens."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.accounts.models import User
from gpurent.accounts.services import api_token_create
from gpurent.accounts.two_factor import RECOVERY_CODE_COUNT, two_factor_enabled

from .conftest import PASSWORD
from .otp_helpers import OtpClock, wrong_code

pytestmark = pytest.mark.django_db

_CODE = re.compile(r"<li><code>([a-z2-7]{8})</code></li>")


@pytest.fixture
def no_otp_throttle(settings):
    """django-otp makes a device wait 1 s, 2 s, 4 s … after wrong codes; tests that follow a wrong code with a
    right one at once turn that delay off (one test below checks it)."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    settings.OTP_STATIC_THROTTLE_FACTOR = 0


def _enrol(client: Client, user: User, clock: OtpClock) -> list[str]:
    """Turn two-factor login on through the pages; returns the recovery codes the page showed."""
    client.force_login(user)
    assert client.post(reverse("accounts:two_factor_setup"))["Location"] == reverse("accounts:two_factor_setup")
    device = TOTPDevice.objects.get(user=user)
    response = client.post(reverse("accounts:two_factor_confirm"), {"code": clock.code(device)})
    assert response.status_code == 200
    codes = _CODE.findall(response.content.decode())
    clock.next_step()
    client.logout()
    user.refresh_from_db()  # turning it on raised the session generation: a later force_login must use the new one
    return codes


def _password(client: Client, password: str = PASSWORD, next_url: str = ""):
    data = {"username": "ana@example.com", "password": password} | ({"next": next_url} if next_url else {})
    return client.post(reverse("accounts:login"), data)


def _code(client: Client, code: str, next_url: str = ""):
    return client.post(reverse("accounts:login_code"), {"code": code} | ({"next": next_url} if next_url else {}))


def _logged_in(client: Client) -> bool:
    return client.get(reverse("accounts:account")).status_code == 200


def test_enrolment_shows_a_qr_code_needs_a_right_code_and_shows_recovery_codes_once(
    client, user, otp_clock, no_otp_throttle
):
    client.force_login(user)
    page = client.get(reverse("accounts:account")).content.decode()
    assert "Turn on two-factor login" in page
    client.post(reverse("accounts:two_factor_setup"))
    setup = client.get(reverse("accounts:two_factor_setup"))
    html = setup.content.decode()
    assert "no-store" in setup["Cache-Control"]
    assert re.search(r'<svg [^>]*class="totp-qr"', html)
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    shown = re.search(r'data-testid="totp-secret">([A-Z2-7 ]+)<', html)
    assert shown is not None
    secret = shown.group(1).replace(" ", "")
    assert device.config_url.startswith("otpauth://totp/")
    assert f"secret={secret}" in device.config_url
    assert not two_factor_enabled(user)

    wrong = client.post(reverse("accounts:two_factor_confirm"), {"code": wrong_code(otp_clock.code(device))})
    assert wrong.status_code == 422
    assert "That code is not correct." in wrong.content.decode()
    assert not two_factor_enabled(user)

    otp_clock.next_step()
    right = client.post(reverse("accounts:two_factor_confirm"), {"code": otp_clock.code(device)})
    codes = _CODE.findall(right.content.decode())
    assert len(codes) == len(set(codes)) == RECOVERY_CODE_COUNT
    assert "no-store" in right["Cache-Control"]
    assert two_factor_enabled(user)
    account = client.get(reverse("accounts:account")).content.decode()
    assert "You have 10 unused recovery codes." in account
    assert not any(code in account for code in codes)


def test_the_whole_login_asks_for_the_code_after_the_password(client, user, otp_clock, no_otp_throttle):
    _enrol(Client(), user, otp_clock)
    device = TOTPDevice.objects.get(user=user)
    response = _password(client, next_url="/account/#tokens")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login_code"))
    assert not _logged_in(client)

    page = client.get(response["Location"]).content.decode()
    assert 'autocomplete="one-time-code"' in page
    wrong = _code(client, wrong_code(otp_clock.code(device)), "/account/#tokens")
    assert "That code is not correct." in wrong.content.decode()
    assert not _logged_in(client)

    done = _code(client, otp_clock.code(device), "/account/#tokens")
    assert done["Location"] == "/account/#tokens"
    assert _logged_in(client)
    assert client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id  # django-otp: this session is verified


def test_a_code_alone_or_an_old_half_login_gets_nothing(client, user, otp_clock):
    _enrol(Client(), user, otp_clock)
    device = TOTPDevice.objects.get(user=user)
    assert _code(client, otp_clock.code(device))["Location"] == reverse("accounts:login")
    assert not _logged_in(client)
    _password(client)
    session = client.session
    session["two_factor_pending"]["at"] -= settings.TWO_FACTOR_LOGIN_SECONDS + 1
    session.save()
    assert _code(client, otp_clock.code(device))["Location"] == reverse("accounts:login")
    assert not _logged_in(client)


def test_a_recovery_code_logs_in_once(client, user, otp_clock):
    codes = _enrol(Client(), user, otp_clock)
    _password(client)
    # Typed in capitals with a dash, as people copy codes: still the code.
    assert _code(client, codes[0].upper()[:4] + "-" + codes[0][4:])["Location"] == reverse("orders:rentals")
    assert _logged_in(client)
    client.logout()
    _password(client)
    assert "That code is not correct." in _code(client, codes[0]).content.decode()
    assert not _logged_in(client)
    assert StaticToken.objects.filter(device__user=user).count() == RECOVERY_CODE_COUNT - 1


def test_wrong_codes_count_as_failed_logins_for_axes(client, user, otp_clock, no_otp_throttle):
    _enrol(Client(), user, otp_clock)
    device = TOTPDevice.objects.get(user=user)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _password(client, "not the password")
    assert _password(client)["Location"].startswith(reverse("accounts:login_code"))
    # The fifth failure of this (email, IP) pair is a wrong code: the pair is now locked out ...
    _code(client, wrong_code(otp_clock.code(device)))
    # ... so even the right code is refused, with the same answer as a wrong one,
    refused = _code(client, otp_clock.code(device))
    assert "That code is not correct." in refused.content.decode()
    assert not _logged_in(client)
    # and so is the right password (the generic error of the login page).
    again = Client()
    assert (
        again.post(reverse("accounts:login"), {"username": "ana@example.com", "password": PASSWORD}).status_code == 200
    )


def test_five_wrong_codes_send_the_visitor_back_to_the_password(client, user, otp_clock, no_otp_throttle, settings):
    settings.AXES_FAILURE_LIMIT = 50  # this test is about the half-done login's own limit
    _enrol(Client(), user, otp_clock)
    device = TOTPDevice.objects.get(user=user)
    _password(client)
    for _ in range(4):
        assert _code(client, wrong_code(otp_clock.code(device))).status_code == 200
    assert _code(client, wrong_code(otp_clock.code(device)))["Location"] == reverse("accounts:login")
    assert _code(client, otp_clock.code(device))["Location"] == reverse("accounts:login")
    assert not _logged_in(client)


def test_the_device_is_throttled_after_a_wrong_code(client, user, otp_clock, settings):
    _enrol(Client(), user, otp_clock)
    settings.OTP_TOTP_THROTTLE_FACTOR = 3600  # the wait after one wrong code: an hour
    device = TOTPDevice.objects.get(user=user)
    _password(client)
    _code(client, wrong_code(otp_clock.code(device)))
    assert "That code is not correct." in _code(client, otp_clock.code(device)).content.decode()
    assert not _logged_in(client)


def test_turning_it_off_needs_a_code(client, user, otp_clock, no_otp_throttle):
    _enrol(client, user, otp_clock)
    device = TOTPDevice.objects.get(user=user)
    client.force_login(user)
    refused = client.post(reverse("accounts:two_factor_disable"), {"code": "000000"})
    assert "That code is not correct." in refused.content.decode()
    assert two_factor_enabled(user)
    done = client.post(reverse("accounts:two_factor_disable"), {"code": otp_clock.code(device)}, follow=True)
    assert "Two-factor login is off." in done.content.decode()
    assert not two_factor_enabled(user)
    assert not StaticToken.objects.filter(device__user=user).exists()
    client.logout()
    assert _password(client)["Location"] == reverse("orders:rentals")


def test_new_recovery_codes_cancel_the_old_ones(client, user, otp_clock, no_otp_throttle):
    old = _enrol(client, user, otp_clock)
    client.force_login(user)
    page = client.post(reverse("accounts:recovery_codes_renew"), {"code": old[0]})
    new = _CODE.findall(page.content.decode())
    assert len(new) == RECOVERY_CODE_COUNT
    assert not set(new) & set(old)
    client.logout()
    _password(client)
    assert "That code is not correct." in _code(client, old[1]).content.decode()
    assert _code(client, new[0]).status_code == 302


def test_api_tokens_need_the_code_and_existing_tokens_keep_working(client, user, otp_clock, no_otp_throttle):
    _, existing = api_token_create(user=user, name="cluster")
    _enrol(Client(), user, otp_clock)
    device = TOTPDevice.objects.get(user=user)

    def ask(**extra):
        body = {"email": "ana@example.com", "password": PASSWORD, **extra}
        return client.post("/api/v1/auth/tokens", body, content_type="application/json")

    missing = ask()
    assert missing.status_code == 401
    assert missing.json()["error"]["code"] == "otp_required"
    wrong = ask(otp_code=wrong_code(otp_clock.code(device)))
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "invalid_credentials"
    assert ask(otp_code=otp_clock.code(device)).status_code == 201
    # A token is the credential of its own: a script that has one needs no code.
    assert client.get("/api/v1/orders", HTTP_AUTHORIZATION=f"Bearer {existing}").status_code == 200


def test_the_setup_page_does_not_mention_recovery_codes_before_they_exist(client, user):
    client.force_login(user)
    client.post(reverse("accounts:two_factor_setup"))
    page = client.get(reverse("accounts:two_factor_setup")).content.decode()
    assert "authenticator app shows now" in page
    assert "recovery code" not in page.lower()
