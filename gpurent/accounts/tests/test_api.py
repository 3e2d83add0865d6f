"""`POST /api/v1/auth/register` and `POST /api/v1/auth/tokens`."""

import pytest
from django.test import Client

from gpurent.accounts.models import ApiToken, User

from .conftest import PASSWORD, REGISTRATION

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    # CSRF enforced as for a browser: these endpoints must still accept a script's JSON.
    return Client(enforce_csrf_checks=True)


def _post(api: Client, path: str, body: dict):
    return api.post(f"/api/v1/auth/{path}", body, content_type="application/json")


def test_api_register_creates_the_account_and_returns_it(api):
    response = _post(api, "register", {**REGISTRATION, "email": "Ines@Example.com"})
    assert response.status_code == 201
    user = User.objects.get()
    assert response.json() == {"id": user.pk, "email": "ines@example.com", "first_name": "Ines", "last_name": "Moreau"}
    assert "password" not in response.json()
    assert "sessionid" not in response.cookies


def test_api_register_taken_email_is_409_email_taken(api, user):
    response = _post(api, "register", {**REGISTRATION, "email": "ANA@example.com"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "email_taken"


def test_api_register_weak_password_is_422_weak_password(api):
    response = _post(api, "register", {**REGISTRATION, "password": "password1234"})
    assert response.status_code == 422
    assert response.json() == {"error": {"code": "weak_password", "message": "This password is too common."}}


@pytest.mark.parametrize(
    "body",
    [
        {k: v for k, v in REGISTRATION.items() if k != "email"},
        {**REGISTRATION, "email": "not-an-email"},
        {**REGISTRATION, "first_name": ""},
        {**REGISTRATION, "password": "x" * 2000},
        {**REGISTRATION, "password": "short"},
        {**REGISTRATION, "last_name": "   "},
    ],
)
def test_api_register_invalid_body_is_422_invalid_request(api, body):
    response = _post(api, "register", body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert not User.objects.exists()


def test_api_tokens_right_credentials_return_a_working_token(api, user):
    response = _post(api, "tokens", {"email": "ana@example.com", "password": PASSWORD, "name": "ci"})
    assert response.status_code == 201
    body = response.json()
    assert body["token"].startswith("gpr_")
    assert body["name"] == "ci"
    assert body["prefix"] == body["token"][:12]
    token = ApiToken.objects.get()
    assert token.digest == ApiToken.digest_of(body["token"])
    assert token.user == user


def test_api_tokens_default_name(api, user):
    response = _post(api, "tokens", {"email": "ana@example.com", "password": PASSWORD})
    assert response.json()["name"] == "API token"


@pytest.mark.parametrize(
    ("account", "header", "name"),
    [("es", "", "Token de API"), ("tr", "es", "API tokenı"), ("", "vi", "Token API"), ("", "", "API token")],
)
def test_api_tokens_default_name_is_in_the_accounts_language_else_the_requests(api, user, account, header, name):
    # QA2 #18: "API token" in English in the Spanish and Turkish token lists (the "API token" of a token's name has
    # its own context in the catalogs).
    User.objects.filter(pk=user.pk).update(language=account)
    headers = {"Accept-Language": header} if header else {}
    body = {"email": "ana@example.com", "password": PASSWORD}
    response = api.post("/api/v1/auth/tokens", body, content_type="application/json", headers=headers)
    assert response.json()["name"] == name
    assert ApiToken.objects.get().name == name


def test_api_tokens_explicit_name_is_kept_whatever_the_language(api, user):
    User.objects.filter(pk=user.pk).update(language="es")
    response = _post(api, "tokens", {"email": "ana@example.com", "password": PASSWORD, "name": "API token"})
    assert response.json()["name"] == "API token"


@pytest.mark.parametrize(
    ("email", "password"), [("ana@example.com", "not the password"), ("nobody@example.com", PASSWORD)]
)
def test_api_tokens_wrong_password_or_unknown_email_is_401_invalid_credentials(api, user, email, password):
    response = _post(api, "tokens", {"email": email, "password": password})
    assert response.status_code == 401
    assert response.json() == {
        "error": {"code": "invalid_credentials", "message": "The email or password is incorrect."}
    }
    assert not ApiToken.objects.exists()


def test_api_register_then_token_is_the_script_journey(api):
    assert _post(api, "register", REGISTRATION).status_code == 201
    response = _post(api, "tokens", {"email": REGISTRATION["email"], "password": REGISTRATION["password"]})
    assert response.status_code == 201


def test_api_openapi_documents_every_status_of_the_auth_operations(api):
    paths = api.get("/api/v1/openapi.json").json()["paths"]
    assert set(paths["/api/v1/auth/register"]["post"]["responses"]) == {"201", "400", "409", "413", "422", "429"}
    assert set(paths["/api/v1/auth/tokens"]["post"]["responses"]) == {"201", "400", "401", "409", "413", "422"}


def test_api_tokens_multipart_content_type_with_a_json_body_is_not_a_server_error(api, user):
    response = api.post(
        "/api/v1/auth/tokens",
        '{"email": "ana@example.com", "password": "not the password"}',
        content_type="multipart/form-data",
    )
    assert response.status_code == 401


def test_api_register_malformed_json_is_400(api):
    response = api.post("/api/v1/auth/register", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"
