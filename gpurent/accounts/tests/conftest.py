"""Fixtures of the accounts tests: an account, a guest session in a browser, a fake guest-data adopter."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client

from gpurent.accounts.guests import SESSION_KEY, register_guest_adopter, unregister_guest_adopter
from gpurent.accounts.models import GuestSession, User

from .otp_helpers import OtpClock, install_otp_clock

PASSWORD = "plum orbit ferry lantern"
NEW_PASSWORD = "granite tulip meadow sixty"


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="Souza")


@pytest.fixture
def otp_clock(monkeypatch: pytest.MonkeyPatch) -> OtpClock:
    """The clock of django-otp's TOTP checks, and the codes an authenticator app shows at it."""
    return install_otp_clock(monkeypatch)


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bo@example.com", PASSWORD, first_name="Bo", last_name="Lind")


def give_guest_session(client: Client) -> GuestSession:
    """Make `client`'s browser session a guest session, as the first guest action of another app would."""
    guest = GuestSession.objects.create()
    session = client.session
    session[SESSION_KEY] = str(guest.pk)
    session["checkout_draft"] = {"gpu": "a100-80gb", "term_days": 7, "lots": 1}
    session.save()
    return guest


class FakeAdopter:
    """An adopter as another app would register: records its calls and says it moved `rows` rows."""

    def __init__(self, rows: int = 2) -> None:
        self.rows = rows
        self.calls: list[tuple[GuestSession, User]] = []

    def __call__(self, guest: GuestSession, user: User) -> int:
        self.calls.append((guest, user))
        return self.rows


@pytest.fixture
def adopter() -> Iterator[FakeAdopter]:
    fake = FakeAdopter()
    register_guest_adopter(fake)
    yield fake
    unregister_guest_adopter(fake)


REGISTRATION = {
    "first_name": "Ines",
    "last_name": "Moreau",
    "email": "ines@example.com",
    "password": "velvet harbour cobalt ninety",
}


_CSRF_VALUES = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]*')


def without_csrf(content: bytes) -> str:
    """A page's HTML with its CSRF tokens blanked: they are masked afresh on every response by design."""
    return _CSRF_VALUES.sub(r"\1", content.decode())
