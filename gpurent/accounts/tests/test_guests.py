"""Guest data adoption, one test per rule of DESIGN §3 (a fake adopter stands in for the other apps)."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.guests import SESSION_KEY, guest_session_adopt, guest_session_for, register_guest_adopter
from gpurent.accounts.models import GuestSession, User

from .conftest import PASSWORD, REGISTRATION, FakeAdopter, give_guest_session

pytestmark = pytest.mark.django_db


def _request_with_session(guest_id: object = None):
    request = RequestFactory().get("/")
    from django.contrib.sessions.backends.db import SessionStore

    request.session = SessionStore()
    if guest_id is not None:
        request.session[SESSION_KEY] = str(guest_id)
    return request


def test_guest_session_for_creates_one_and_remembers_it_in_the_session():
    request = _request_with_session()
    guest = guest_session_for(request)
    assert guest is not None
    assert request.session[SESSION_KEY] == str(guest.pk)
    assert guest_session_for(request) == guest
    assert GuestSession.objects.count() == 1


def test_guest_session_for_without_create_and_without_guest_returns_none():
    request = _request_with_session()
    assert guest_session_for(request, create=False) is None
    assert not GuestSession.objects.exists()


def test_guest_session_for_an_adopted_guest_starts_a_new_one(user):
    adopted = GuestSession.objects.create(adopted_by=user, adopted_at=timezone.now())
    request = _request_with_session(adopted.pk)
    assert guest_session_for(request, create=False) is None
    fresh = guest_session_for(request)
    assert fresh is not None
    assert fresh != adopted


def test_register_from_the_guests_session_adopts_its_data(client, adopter):
    guest = give_guest_session(client)
    response = client.post(reverse("accounts:register"), REGISTRATION)
    assert response.status_code == 302
    user = User.objects.get(email="ines@example.com")
    guest.refresh_from_db()
    assert guest.adopted_by == user
    assert guest.adopted_at is not None
    assert adopter.calls == [(guest, user)]
    # The checkout draft is session data: it survives the login that follows registration.
    assert client.session["checkout_draft"] == {"gpu": "a100-80gb", "term_days": 7, "lots": 1}
    assert SESSION_KEY not in client.session


def test_guest_session_adopt_returns_the_rows_every_adopter_moved(user, adopter):
    second = FakeAdopter(rows=3)
    register_guest_adopter(second)
    register_guest_adopter(second)  # registering twice runs it once
    try:
        guest = GuestSession.objects.create()
        assert guest_session_adopt(request=_request_with_session(guest.pk), user=user) == 2 + 3
        assert len(second.calls) == 1
    finally:
        from gpurent.accounts.guests import unregister_guest_adopter

        unregister_guest_adopter(second)


def test_login_to_an_existing_account_adopts_nothing_but_keeps_the_session_data(client, user, adopter):
    guest = give_guest_session(client)
    response = client.post(reverse("accounts:login"), {"username": "ana@example.com", "password": PASSWORD})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.adopted_by is None
    assert adopter.calls == []
    assert client.session["checkout_draft"]["gpu"] == "a100-80gb"


def test_same_email_from_another_browser_recovers_nothing(adopter):
    first_browser, second_browser = Client(), Client()
    guest = give_guest_session(first_browser)
    second_browser.post(reverse("accounts:register"), REGISTRATION)
    assert User.objects.filter(email="ines@example.com").exists()
    guest.refresh_from_db()
    assert guest.adopted_by is None
    assert adopter.calls == []
    # Logging in to that account from the first browser later does not recover the guest data either.
    first_browser.post(
        reverse("accounts:login"), {"username": REGISTRATION["email"], "password": REGISTRATION["password"]}
    )
    guest.refresh_from_db()
    assert guest.adopted_by is None
    assert adopter.calls == []


def test_guest_session_adopt_links_a_guest_at_most_once(user, other_user, adopter):
    guest = GuestSession.objects.create()
    assert guest_session_adopt(request=_request_with_session(guest.pk), user=user) == 2
    # Another request still naming the same guest (a copied cookie, a second tab) gets nothing.
    assert guest_session_adopt(request=_request_with_session(guest.pk), user=other_user) == 0
    guest.refresh_from_db()
    assert guest.adopted_by == user
    assert len(adopter.calls) == 1


def test_guest_session_adopt_claimed_concurrently_by_another_request_does_nothing(user, other_user, adopter):
    guest = GuestSession.objects.create()
    request = _request_with_session(guest.pk)
    # A concurrent registration won the conditional UPDATE between our read of the session and our claim.
    GuestSession.objects.filter(pk=guest.pk).update(adopted_by=other_user, adopted_at=timezone.now())
    assert guest_session_adopt(request=request, user=user) == 0
    assert adopter.calls == []


def test_register_from_an_expired_session_adopts_nothing(client, adopter):
    guest = give_guest_session(client)
    Session.objects.filter(session_key=client.session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    client.post(reverse("accounts:register"), REGISTRATION)
    assert User.objects.filter(email="ines@example.com").exists()
    guest.refresh_from_db()
    assert guest.adopted_by is None
    assert adopter.calls == []


def test_guest_session_adopt_unknown_or_malformed_guest_id_does_nothing(user, adopter):
    assert guest_session_adopt(request=_request_with_session("not-a-uuid"), user=user) == 0
    assert guest_session_adopt(request=_request_with_session("5b0e7c1e-0000-4000-8000-000000000000"), user=user) == 0
    assert guest_session_adopt(request=_request_with_session(), user=user) == 0
    assert adopter.calls == []


def test_guest_session_adopt_failing_adopter_rolls_the_adoption_back(user):
    def broken(guest: GuestSession, user: User) -> int:
        raise RuntimeError("adopter bug")

    register_guest_adopter(broken)
    try:
        guest = GuestSession.objects.create()
        with pytest.raises(RuntimeError):
            guest_session_adopt(request=_request_with_session(guest.pk), user=user)
    finally:
        from gpurent.accounts.guests import unregister_guest_adopter

        unregister_guest_adopter(broken)
    guest.refresh_from_db()
    assert guest.adopted_by is None


def test_api_registration_adopts_nothing(client, adopter):
    give_guest_session(client)
    response = client.post("/api/v1/auth/register", REGISTRATION, content_type="application/json")
    assert response.status_code == 201
    assert adopter.calls == []
