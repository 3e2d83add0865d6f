"""The account language of an API registration (QA2 #19): the one the script asked for, else none chosen, so
that the customer's language on the site is not overruled by an English the customer never chose."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from gpurent.accounts.models import User

from .conftest import REGISTRATION

pytestmark = pytest.mark.django_db


def _register(headers: dict[str, str] | None = None) -> User:
    response = Client().post(
        "/api/v1/auth/register", REGISTRATION, content_type="application/json", headers=headers or {}
    )
    assert response.status_code == 201
    return User.objects.get()


def test_api_register_without_accept_language_chooses_no_language():
    assert _register().language == ""


@pytest.mark.parametrize(("header", "language"), [("es", "es"), ("vi-VN,vi;q=0.9", "vi"), ("fr, tr;q=0.5", "tr")])
def test_api_register_takes_the_first_shop_language_of_accept_language(header, language):
    assert _register({"Accept-Language": header}).language == language


@pytest.mark.parametrize("header", ["fr", "*", "en-GB"])
def test_api_register_with_a_language_the_shop_does_not_speak_or_english(header):
    assert _register({"Accept-Language": header}).language == ("en" if header == "en-GB" else "")


def test_api_registered_account_keeps_the_language_cookie_at_web_login(client):
    # The tester's first pass: registered by a script, then logged in on a site read in Spanish: pages in English.
    user = _register()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.post(reverse("accounts:login"), {"username": user.email, "password": REGISTRATION["password"]})
    assert response.status_code == 302
    page = client.get(reverse("accounts:account"))
    assert '<html lang="es">' in page.content.decode()
    user.refresh_from_db()
    assert user.language == "es"  # chosen now: e-mails follow it


def test_a_chosen_account_language_still_wins_over_the_cookie_at_login(client):
    user = _register({"Accept-Language": "vi"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    client.post(reverse("accounts:login"), {"username": user.email, "password": REGISTRATION["password"]})
    assert '<html lang="vi">' in client.get(reverse("accounts:account")).content.decode()
