"""Changing the account's email: a link to the new address, the change only on confirmation, the old address
told, no hint whether another account uses the new address, throttled."""

import re
import time
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client
from django.urls import reverse

from gpurent.accounts.email_change import email_change_token
from gpurent.accounts.models import User
from gpurent.core.models import OutboundEmail

from .conftest import NEW_PASSWORD, PASSWORD

pytestmark = pytest.mark.django_db

_LINK = re.compile(r"https?://\S+/account/email/confirm/[^/\s]+/")


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _ask(client: Client, new_email: str, password: str = PASSWORD):
    return client.post(reverse("accounts:email_change"), {"new_email": new_email, "password": password}, follow=True)


def _link_sent_to(address: str) -> str:
    email = OutboundEmail.objects.get(to=address)
    match = _LINK.search(email.text)
    assert match, email.text
    assert match.group(0) in email.html
    return urlsplit(match.group(0)).path


def test_the_change_happens_only_when_the_link_is_confirmed_and_the_old_address_is_told(
    ana_client, user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _ask(ana_client, "Ana.New@Example.org")
    assert "We sent a link to ana.new@example.org." in response.content.decode()
    user.refresh_from_db()
    assert user.email == "ana@example.com"
    email = OutboundEmail.objects.get(to="ana.new@example.org")
    assert email.subject == "Confirm your new email address"
    link = _link_sent_to("ana.new@example.org")

    # Opening the link (as a mail scanner would) changes nothing: it shows a button.
    page = ana_client.get(link)
    assert page.status_code == 200
    assert "ana.new@example.org" in page.content.decode()
    user.refresh_from_db()
    assert user.email == "ana@example.com"

    with django_capture_on_commit_callbacks(execute=True):
        done = ana_client.post(link, follow=True)
    assert "Your email is now ana.new@example.org." in done.content.decode()
    user.refresh_from_db()
    assert user.email == "ana.new@example.org"
    notice = OutboundEmail.objects.get(to="ana@example.com", key__startswith="email-changed:")
    assert notice.subject == "The email of your account was changed"
    assert "from ana@example.com to ana.new@example.org" in notice.text
    # The session survives the change; the new address logs in, the old one no longer does.
    assert ana_client.get(reverse("accounts:account")).status_code == 200
    old = Client().post(reverse("accounts:login"), {"username": "ana@example.com", "password": PASSWORD})
    assert old.status_code == 200
    new = Client().post(reverse("accounts:login"), {"username": "ana.new@example.org", "password": PASSWORD})
    assert new.status_code == 302


def test_a_link_works_once(ana_client, user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _ask(ana_client, "first@example.org")
        _ask(ana_client, "second@example.org")
    first, second = _link_sent_to("first@example.org"), _link_sent_to("second@example.org")
    assert ana_client.post(first).status_code == 302
    again = ana_client.post(first)
    assert again.status_code == 422
    assert "invalid, has expired or was already used" in again.content.decode()
    # Confirming one address retires every other pending link.
    assert ana_client.post(second).status_code == 422
    user.refresh_from_db()
    assert user.email == "first@example.org"


def test_an_expired_link_is_refused(ana_client, user, monkeypatch, settings):
    settings.EMAIL_CHANGE_LINK_HOURS = 24
    monkeypatch.setattr(
        signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(int(time.time()) - 24 * 3600 - 5)
    )
    token = email_change_token(user, "late@example.org")
    monkeypatch.undo()
    response = ana_client.post(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 422
    user.refresh_from_db()
    assert user.email == "ana@example.com"


def test_a_link_is_refused_to_another_account_tampered_or_after_a_password_change(client, user, other_user):
    token = email_change_token(user, "ana.new@example.org")
    client.force_login(other_user)
    assert client.post(reverse("accounts:email_confirm", args=[token])).status_code == 422
    client.force_login(user)
    assert client.post(reverse("accounts:email_confirm", args=[token[:-2] + "xy"])).status_code == 422
    forged = signing.dumps([user.pk, "evil@example.org", "0" * 32], salt="gpurent.accounts.email-change")
    assert client.post(reverse("accounts:email_confirm", args=[forged])).status_code == 422
    user.set_password(NEW_PASSWORD)
    user.save()
    client.force_login(user)
    assert client.post(reverse("accounts:email_confirm", args=[token])).status_code == 422
    user.refresh_from_db()
    assert user.email == "ana@example.com"


def test_the_link_needs_a_login(client, user):
    token = email_change_token(user, "ana.new@example.org")
    response = client.post(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]
    user.refresh_from_db()
    assert user.email == "ana@example.com"


def test_an_address_of_another_account_gets_the_same_answer_and_no_link(
    ana_client, user, other_user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        taken = _ask(ana_client, "BO@example.com")
        free = _ask(ana_client, "nobody@example.org")
    message = "We sent a link to {}. Open it while logged in to confirm the change"
    assert message.format("bo@example.com") in taken.content.decode()
    assert message.format("nobody@example.org") in free.content.decode()
    assert taken.status_code == free.status_code == 200
    notice = OutboundEmail.objects.get(to="bo@example.com")
    assert notice.subject == "Someone tried to move an account to this address"
    assert not _LINK.search(notice.text)
    user.refresh_from_db()
    other_user.refresh_from_db()
    assert (user.email, other_user.email) == ("ana@example.com", "bo@example.com")


def test_an_address_taken_between_request_and_confirmation_is_refused(
    ana_client, user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _ask(ana_client, "cy@example.org")
    link = _link_sent_to("cy@example.org")
    User.objects.create_user("cy@example.org", PASSWORD, first_name="Cy", last_name="Ko")
    assert ana_client.post(link).status_code == 422
    user.refresh_from_db()
    assert user.email == "ana@example.com"


@pytest.mark.parametrize(
    ("new_email", "password", "message"),
    [
        ("ana.new@example.org", "wrong password here", "Your current password is not correct."),
        ("ANA@example.com", PASSWORD, "This is already the email of your account."),
        ("not-an-address", PASSWORD, "Enter a valid email address."),
    ],
)
def test_bad_requests_show_an_error_and_send_nothing(ana_client, new_email, password, message):
    response = _ask(ana_client, new_email, password)
    assert response.status_code == 422  # the form again, with what is wrong
    assert message in response.content.decode()
    assert not OutboundEmail.objects.exists()


def test_requests_are_throttled_per_account_whatever_the_address(ana_client, other_user, settings):
    settings.EMAIL_CHANGE_RATE_LIMITS = [(3600, 3)]
    for address in ("a1@example.org", "bo@example.com", "a3@example.org"):
        assert "We sent a link" in _ask(ana_client, address).content.decode()
    refused = _ask(ana_client, "a4@example.org")
    assert "You asked for too many email changes recently." in refused.content.decode()
    assert OutboundEmail.objects.filter(key__startswith="email-change:").count() == 3  # one link or notice each
    assert OutboundEmail.objects.filter(to="ana@example.com").count() == 3  # and a warning to the current address
    # Another account is not held back by Ana's requests.
    ana_client.force_login(other_user)
    assert "We sent a link" in _ask(ana_client, "bo.new@example.org").content.decode()


def test_the_emails_go_out_in_the_account_language(ana_client, user, django_capture_on_commit_callbacks):
    user.language = "es"
    user.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        _ask(ana_client, "ana.new@example.org")
    email = OutboundEmail.objects.get(to="ana.new@example.org")
    assert email.subject == "Confirme su nueva dirección de correo electrónico"


def test_a_request_warns_the_current_address_the_same_whether_the_new_one_is_taken(
    ana_client, user, other_user, django_capture_on_commit_callbacks
):
    # QA2 #12: the current address heard of the change only once it was done.
    with django_capture_on_commit_callbacks(execute=True):
        _ask(ana_client, "bo@example.com")
        _ask(ana_client, "ana.new@example.org")
    taken, free = OutboundEmail.objects.filter(to="ana@example.com").order_by("pk")
    assert taken.subject == free.subject == "A change of your account's email was requested"
    assert (
        f"Someone asked to change the email address of your account at {settings.BRAND_NAME} from ana@example.com "
        "to ana.new@example.org. Nothing changes until the request is confirmed from the new address."
    ) in " ".join(free.text.split())
    assert taken.text.replace("bo@example.com", "ana.new@example.org") == free.text
    assert not _LINK.search(free.text)  # the link goes to the new address only
    user.refresh_from_db()
    assert user.email == "ana@example.com"


def test_the_warning_to_the_current_address_is_in_the_account_language(ana_client, user):
    user.language = "vi"
    user.save(update_fields=["language"])
    _ask(ana_client, "ana.new@example.org")
    assert OutboundEmail.objects.get(to="ana@example.com").language == "vi"
