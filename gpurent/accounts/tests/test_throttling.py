"""Login throttling (django-axes): a locked-out pair gets exactly what a wrong password gets."""

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse

from gpurent.accounts.views import lockout_response

from .conftest import PASSWORD, without_csrf

pytestmark = pytest.mark.django_db

GENERIC = "The email or password is incorrect."


def _login(client: Client, email: str, password: str):
    return client.post(reverse("accounts:login"), {"username": email, "password": password})


def _fail_until_locked(client: Client, emails: list[str] | None = None) -> None:
    for email in emails or ["ana@example.com"] * settings.AXES_FAILURE_LIMIT:
        _login(client, email, "not the password")


def test_login_locked_out_pair_gets_the_same_response_as_a_wrong_password(client, user):
    # The navigation is rendered once per process and page (`{% site_nav %}`): the first page this process shows
    # would list its template where the second does not, whichever tests ran before in it.
    client.get(reverse("accounts:login"))
    wrong = _login(client, "ana@example.com", "not the password")
    _fail_until_locked(Client())
    locked = _login(client, "ana@example.com", PASSWORD)
    assert locked.status_code == wrong.status_code == 200
    assert [t.name for t in locked.templates] == [t.name for t in wrong.templates]
    assert without_csrf(locked.content) == without_csrf(wrong.content)
    assert GENERIC in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_unknown_email_gets_the_same_response_as_a_wrong_password(client, user):
    wrong = _login(client, "ana@example.com", "not the password")
    unknown = _login(client, "zed@example.com", "not the password")
    assert unknown.status_code == wrong.status_code == 200
    assert without_csrf(unknown.content).replace("zed@example.com", "ana@example.com") == without_csrf(wrong.content)


def test_login_failures_in_any_capitalisation_count_for_one_account(client, user):
    _fail_until_locked(
        client, ["ANA@example.com", "Ana@example.com", "ana@EXAMPLE.com", "aNa@example.com", "ana@example.com"]
    )
    response = _login(client, "ana@example.com", PASSWORD)
    assert GENERIC in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_lockout_is_per_address_so_the_owner_elsewhere_still_logs_in(client, user):
    _fail_until_locked(client)
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert _login(elsewhere, "ana@example.com", PASSWORD).status_code == 302


def test_api_tokens_locked_out_pair_gets_invalid_credentials_like_a_wrong_password(client, user):
    def ask(password: str):
        return client.post(
            "/api/v1/auth/tokens", {"email": "ana@example.com", "password": password}, content_type="application/json"
        )

    wrong = ask("not the password")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        ask("not the password")
    locked = ask(PASSWORD)
    assert locked.status_code == wrong.status_code == 401
    assert locked.json() == wrong.json() == {"error": {"code": "invalid_credentials", "message": GENERIC}}


def test_lockout_response_without_an_original_response_renders_the_login_page_with_the_generic_error(db):
    request = RequestFactory().post("/account/login/", {"username": "ana@example.com", "password": "x"})
    response = lockout_response(request, None, {"username": "ana@example.com"})
    html = response.content.decode()
    assert response.status_code == 200
    assert GENERIC in html
    assert 'value="ana@example.com"' in html


# --- The back office's login says that a login is locked (QA walk of the back office, defect 30) ----------------

ADMIN_LOGIN = "/backoffice/login/"
LOCKED = "locked out after too many failed logins from your network"


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_user(
        "op@shop.example", PASSWORD, first_name="O", last_name="P", is_staff=True
    )


def _admin_login(client: Client, email: str, password: str):
    return client.post(ADMIN_LOGIN, {"username": email, "password": password, "next": "/backoffice/"})


@pytest.mark.parametrize("email", ["op@shop.example", "nobody@shop.example"])
def test_the_back_office_login_says_a_locked_login_is_locked(client, operator, email):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert LOCKED not in _admin_login(client, email, "not the password").content.decode()
    fifth = _admin_login(client, email, "not the password")
    assert fifth.status_code == 200
    assert LOCKED in fifth.content.decode()
    right = _admin_login(client, email, PASSWORD)
    page = right.content.decode()
    assert right.status_code == 200
    assert LOCKED in page
    assert "an hour has passed since the last try" in page
    assert "Please enter the correct email" not in page
    assert f'value="{email}"' in page  # the same form, the address kept
    assert "_auth_user_id" not in client.session


def test_a_customer_locked_out_still_gets_the_generic_answer_on_the_shops_login(client, user):
    _fail_until_locked(client)
    locked = _login(client, "ana@example.com", PASSWORD).content.decode()
    assert GENERIC in locked
    assert LOCKED not in locked
