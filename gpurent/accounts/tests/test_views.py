import re
from datetime import UTC, datetime

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client
from django.urls import reverse

from gpurent.accounts.guests import SESSION_KEY
from gpurent.accounts.models import ApiToken, GuestSession, User
from gpurent.accounts.services import api_token_create

from .conftest import NEW_PASSWORD, PASSWORD, REGISTRATION, without_csrf

pytestmark = pytest.mark.django_db


def _login(client: Client, email: str = "ana@example.com", password: str = PASSWORD):
    return client.post(reverse("accounts:login"), {"username": email, "password": password})


def test_register_page_has_one_password_field_for_password_managers(client):
    html = client.get(reverse("accounts:register")).content.decode()
    assert html.count('type="password"') == 1
    assert 'autocomplete="new-password"' in html
    assert 'autocomplete="given-name"' in html
    assert "At least 12 characters." in html


def test_register_valid_form_logs_the_new_account_in_with_a_new_session_key(client):
    session = client.session
    session["visited"] = True
    session.save()
    old_key = session.session_key
    response = client.post(reverse("accounts:register"), REGISTRATION)
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:account")
    user = User.objects.get(email="ines@example.com")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.session.session_key != old_key
    assert not Session.objects.filter(session_key=old_key).exists()
    page = client.get(response["Location"]).content.decode()
    assert "Welcome, Ines. Your account is ready." in page


def test_register_existing_email_shows_a_clear_message_without_crashing(client, user):
    response = client.post(reverse("accounts:register"), {**REGISTRATION, "email": "ANA@example.com"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "An account with this email already exists. Log in, or reset your password if you forgot it." in html
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_register_weak_password_shows_every_reason_next_to_the_field(client):
    response = client.post(reverse("accounts:register"), {**REGISTRATION, "password": "password"})
    html = response.content.decode()
    assert response.status_code == 422
    assert "This password is too short. It must contain at least 12 characters." in html
    assert "This password is too common." in html
    assert 'aria-invalid="true"' in html
    assert not User.objects.exists()


def test_register_redirects_to_a_safe_next_page_only(client):
    response = client.post(reverse("accounts:register") + "?next=/glossary/", {**REGISTRATION, "next": "/glossary/"})
    assert response["Location"] == "/glossary/"
    other = Client()
    response = other.post(
        reverse("accounts:register"),
        {**REGISTRATION, "email": "x@example.com", "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("accounts:account")


def test_register_when_logged_in_goes_to_the_account_page(client, user):
    client.force_login(user)
    assert client.get(reverse("accounts:register"))["Location"] == reverse("accounts:account")


def test_login_right_password_rotates_the_session_key(client, user):
    session = client.session
    session["checkout_draft"] = {"gpu": "a100-80gb"}
    session.save()
    old_key = session.session_key
    response = _login(client)
    assert response.status_code == 302
    assert client.session.session_key != old_key
    assert client.session["checkout_draft"] == {"gpu": "a100-80gb"}
    # Session fixation: the key known before login is dead; a browser presenting it is a stranger.
    stranger = Client()
    stranger.cookies["sessionid"] = old_key
    assert stranger.get(reverse("accounts:account")).status_code == 302


def test_login_email_is_case_insensitive(client, user):
    assert _login(client, email="  ANA@Example.com ").status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_without_next_goes_to_my_rentals(client, user):
    assert _login(client)["Location"] == reverse("orders:rentals")


def test_login_follows_a_safe_next(client, user):
    response = client.post(
        reverse("accounts:login"), {"username": "ana@example.com", "password": PASSWORD, "next": "/glossary/"}
    )
    assert response["Location"] == "/glossary/"


@pytest.mark.parametrize(
    ("email", "password"), [("ana@example.com", "not the password"), ("nobody@example.com", PASSWORD)]
)
def test_login_wrong_password_or_unknown_email_gets_one_generic_message(client, user, email, password):
    response = _login(client, email=email, password=password)
    assert response.status_code == 200
    html = response.content.decode()
    assert "The email or password is incorrect." in html
    assert "_auth_user_id" not in client.session


def test_logout_by_get_is_refused(client, user):
    client.force_login(user)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert "_auth_user_id" in client.session


def test_logout_flushes_the_server_side_session_and_touches_nothing_else(client, user):
    client.force_login(user)
    token, _ = api_token_create(user=user, name="laptop")
    guest = GuestSession.objects.create()
    key = client.session.session_key
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("catalog:index")
    assert not Session.objects.filter(session_key=key).exists()
    # A copy of the old cookie no longer authenticates.
    replay = Client()
    replay.cookies["sessionid"] = key
    assert replay.get(reverse("accounts:account")).status_code == 302
    # Nothing else changed: the account, its tokens and guest data are as they were.
    token.refresh_from_db()
    guest.refresh_from_db()
    assert token.revoked_at is None
    assert guest.adopted_by is None
    assert User.objects.get(pk=user.pk).is_active


def test_logout_csrf_token_is_required():
    client = Client(enforce_csrf_checks=True)
    user = User.objects.create_user("cs@example.com", PASSWORD, first_name="C", last_name="S")
    client.force_login(user)
    assert client.post(reverse("accounts:logout")).status_code == 403
    assert "_auth_user_id" in client.session


def test_nav_shows_account_links_by_login_state(client, user):
    html = client.get("/").content.decode()
    assert f'href="{reverse("accounts:login")}"' in html
    assert f'href="{reverse("accounts:register")}"' in html
    client.force_login(user)
    html = client.get("/").content.decode()
    assert f'href="{reverse("accounts:account")}"' in html
    assert f'action="{reverse("accounts:logout")}"' in html
    assert f'href="{reverse("accounts:login")}"' not in html


def test_account_page_needs_login(client):
    response = client.get(reverse("accounts:account"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={reverse('accounts:account')}"


def test_account_page_shows_profile_and_is_not_cached(client, user):
    client.force_login(user)
    response = client.get(reverse("accounts:account"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ana Souza · ana@example.com" in html
    assert "You have no API tokens yet." in html
    assert "no-store" in response["Cache-Control"]


def test_profile_edit_saves_the_name(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"first_name": "Ana Maria", "last_name": "Souza"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.first_name == "Ana Maria"
    assert "Your name is saved." in client.get(reverse("accounts:account")).content.decode()


def test_profile_edit_empty_name_shows_the_error(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {"first_name": "", "last_name": "Souza"})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    user.refresh_from_db()
    assert user.first_name == "Ana"


def test_password_change_wrong_current_password_changes_nothing(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:password_change"), {"old_password": "nope", "new_password": NEW_PASSWORD})
    assert response.status_code == 200
    assert "Your current password is not correct." in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_password_change_weak_new_password_is_refused(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:password_change"), {"old_password": PASSWORD, "new_password": "short"})
    assert "This password is too short." in response.content.decode()


def test_password_change_keeps_this_session_and_logs_out_the_others(client, user):
    other_device = Client()
    other_device.force_login(user)
    client.force_login(user)
    response = client.post(
        reverse("accounts:password_change"), {"old_password": PASSWORD, "new_password": NEW_PASSWORD}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.get(reverse("accounts:account")).status_code == 200
    assert other_device.get(reverse("accounts:account")).status_code == 302


NEUTRAL_RESET = "If an account uses that address, we have sent it a link to choose a new password."


def test_password_reset_known_and_unknown_email_get_the_same_answer(client, user):
    known = client.post(reverse("accounts:password_reset"), {"email": "Ana@example.com"}, follow=True)
    assert len(mail.outbox) == 1
    unknown = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"}, follow=True)
    assert len(mail.outbox) == 1
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("accounts:password_reset_done"), 302)]
    assert NEUTRAL_RESET in known.content.decode()
    assert without_csrf(known.content) == without_csrf(unknown.content)


def test_password_reset_link_sets_a_new_password_once(client, user):
    client.post(reverse("accounts:password_reset"), {"email": "ana@example.com"})
    message = mail.outbox[0]
    assert message.to == ["ana@example.com"]
    assert message.subject == "Reset your IteraGPU password"
    assert str(message.body).startswith("Hello Ana,\n")  # it read "Hello ,": blocktranslate took no attribute
    link = re.search(r"http://testserver(/account/password/reset/\S+/)", str(message.body))
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password": NEW_PASSWORD})
    assert response["Location"] == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # The link is spent: the token depended on the old password.
    again = Client().get(link.group(1), follow=True)
    assert "This link no longer works" in again.content.decode()


def test_password_reset_confirm_weak_password_is_refused(client, user):
    client.post(reverse("accounts:password_reset"), {"email": "ana@example.com"})
    link = re.search(r"http://testserver(/account/password/reset/\S+/)", str(mail.outbox[0].body))
    assert link is not None
    set_url = client.get(link.group(1), follow=True).redirect_chain[-1][0]
    response = client.post(set_url, {"new_password": "password1234"})
    assert "This password is too common." in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_token_list_is_a_stack_table_with_named_cells(client, user):
    # On a phone its rows are cards; as a sideways table "Last used" sat past the right edge.
    api_token_create(user=user, name="laptop")
    client.force_login(user)
    html = client.get(reverse("accounts:account")).content.decode()
    tokens = html.split('<table class="data-table stack-table">', 1)[1].split("</table>", 1)[0]
    for label in ["Token", "Created", "Last used"]:
        assert f'data-label="{label}"' in tokens, label


def test_token_revoke_of_another_users_token_is_404(client, user, other_user):
    token, _ = api_token_create(user=other_user, name="theirs")
    client.force_login(user)
    response = client.post(reverse("accounts:token_revoke", args=[token.pk]), {"idempotency_key": "k-theirs"})
    assert response.status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_guest_id_is_not_in_a_logged_in_session_after_registration(client):
    client.post(reverse("accounts:register"), REGISTRATION)
    assert SESSION_KEY not in client.session
    assert ApiToken.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "since"),
    [("en", "Member since 6 Dec 2026."), ("es", "6 dic 2026"), ("tr", "6 Ara 2026 tarihinden beri üye.")],
)
def test_account_page_writes_the_join_date_as_every_other_date(client, user, language, since):
    """The short month, as on the rental and balance pages ("6 Ara 2026"), not the month's full name."""
    User.objects.filter(pk=user.pk).update(date_joined=datetime(2026, 12, 6, 9, 0, tzinfo=UTC))
    client.force_login(user)
    page = client.get(reverse("accounts:account"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert since in page
    assert not {"Aralık", "diciembre", "December"} & set(re.findall(r"\w+", page))


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_password_reset_email_has_the_shops_html_layout_with_the_same_link(client, user, language):
    client.post(reverse("accounts:password_reset"), {"email": "ana@example.com"}, HTTP_ACCEPT_LANGUAGE=language)
    message = mail.outbox[0]
    assert isinstance(message, EmailMultiAlternatives)
    content, kind = message.alternatives[0]
    assert kind == "text/html"
    html = str(content)
    link = re.search(r"http://testserver/account/password/reset/\S+/", str(message.body))
    assert link is not None
    assert f'<a href="{link.group(0)}">' in html
    assert "IteraGPU" in html
    assert "<p>" in html
    assert "{%" not in html
    greeting = {"en": "Hello Ana,", "es": "Hola, Ana:"}[language]
    assert str(message.body).startswith(greeting)
    assert greeting in html
