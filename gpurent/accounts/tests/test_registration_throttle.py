"""Registration attempts are throttled per client address, so "email taken" is no unlimited account-lookup oracle."""

import pytest
from django.test import Client
from django.urls import reverse

from gpurent.accounts.models import User

from .conftest import REGISTRATION

pytestmark = pytest.mark.django_db

LIMITS = [(3600, 3)]


@pytest.fixture(autouse=True)
def limits(settings):
    settings.REGISTRATION_RATE_LIMITS = LIMITS


def _api(address: str, email: str):
    return Client(REMOTE_ADDR=address).post(
        "/api/v1/auth/register", {**REGISTRATION, "email": email}, content_type="application/json"
    )


def test_api_registration_attempts_past_the_limit_are_429_whatever_the_email(user):
    for _ in range(3):  # probing a taken address: 409 each time, until the limit
        assert _api("203.0.113.7", "ana@example.com").status_code == 409
    for email in ["ana@example.com", "someone.new@example.com"]:  # then the same answer for taken and free
        response = _api("203.0.113.7", email)
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "rate_limited"
    assert not User.objects.filter(email="someone.new@example.com").exists()
    assert _api("198.51.100.2", "ana@example.com").status_code == 409  # another address is counted apart


def test_html_registration_attempts_past_the_limit_get_a_message_and_create_nothing(user):
    browser = Client(REMOTE_ADDR="203.0.113.8")
    for _ in range(3):
        page = browser.post(reverse("accounts:register"), {**REGISTRATION, "email": "ana@example.com"})
        assert "already" in page.content.decode()
    page = browser.post(reverse("accounts:register"), {**REGISTRATION, "email": "new.one@example.com"})
    assert page.status_code == 429
    assert "Too many registration attempts" in page.content.decode()
    assert not User.objects.filter(email="new.one@example.com").exists()


def test_the_limit_counts_per_window(user, settings):
    settings.REGISTRATION_RATE_LIMITS = [(3600, 1)]
    assert _api("203.0.113.9", "ana@example.com").status_code == 409
    assert _api("203.0.113.9", "ana@example.com").status_code == 429
    settings.REGISTRATION_RATE_LIMITS = [(3600, 100)]  # a new limit is a new window
    assert _api("203.0.113.9", "ana@example.com").status_code == 409
