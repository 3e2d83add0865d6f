import re

import pytest
from django.contrib.auth.hashers import identify_hasher
from django.test import RequestFactory, override_settings

from gpurent.accounts.errors import EmailTaken, InvalidCredentials, WeakPassword
from gpurent.accounts.models import ApiToken, User
from gpurent.accounts.services import (
    api_token_create,
    api_token_issue,
    api_token_mark_used,
    api_token_revoke,
    profile_update,
    user_register,
)
from gpurent.core.errors import InvalidRequest, NotFound

from .conftest import PASSWORD, REGISTRATION

pytestmark = pytest.mark.django_db


def test_user_register_without_request_creates_the_account_in_lower_case():
    user = user_register(request=None, **{**REGISTRATION, "email": "  Ines@Example.COM "})
    assert user.email == "ines@example.com"
    assert (user.first_name, user.last_name) == ("Ines", "Moreau")
    assert user.check_password(REGISTRATION["password"])
    assert not user.is_staff


@pytest.mark.parametrize("email", ["ana@example.com", "ANA@example.com", "Ana@Example.Com"])
def test_user_register_taken_email_in_any_case_raises_email_taken(user, email):
    with pytest.raises(EmailTaken) as caught:
        user_register(request=None, **{**REGISTRATION, "email": email})
    assert (
        caught.value.message
        == "An account with this email already exists. Log in, or reset your password if you forgot it."
    )
    assert caught.value.status == 409
    assert isinstance(caught.value, InvalidRequest)
    assert User.objects.count() == 1


def test_user_register_short_password_raises_weak_password_with_the_reason():
    with pytest.raises(WeakPassword) as caught:
        user_register(request=None, **{**REGISTRATION, "password": "Ab3$xyz"})
    assert "This password is too short. It must contain at least 12 characters." in caught.value.message
    assert caught.value.code == "weak_password"
    assert not User.objects.exists()


@pytest.mark.parametrize("password", ["password1234", "qwertyuiop123"])
def test_user_register_common_password_is_refused(password):
    with pytest.raises(WeakPassword, match=re.escape("This password is too common.")):
        user_register(request=None, **{**REGISTRATION, "password": password})


def test_user_register_password_like_the_email_is_refused():
    with pytest.raises(WeakPassword, match="too similar to your email address"):
        user_register(request=None, **{**REGISTRATION, "email": "lanternfish@example.com", "password": "lanternfish"})


def test_user_register_several_failures_are_joined_in_one_message():
    with pytest.raises(WeakPassword) as caught:
        user_register(request=None, **{**REGISTRATION, "password": "password"})
    assert len(caught.value.messages) == 2
    assert caught.value.message == " ".join(caught.value.messages)


@pytest.mark.parametrize(
    "password",
    [
        "lowercase words only please",  # no composition rules: no digit, no capital, no symbol needed
        "a long passphrase of many small words that runs well past sixty four characters in all",
    ],
)
def test_user_register_passphrase_without_composition_rules_is_accepted(password):
    user = user_register(request=None, **{**REGISTRATION, "password": password})
    assert user.check_password(password)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_name", "  ", "Enter your first name."),
        ("last_name", "", "Enter your last name."),
        ("email", "not-an-email", "Enter a valid email address."),
    ],
)
def test_user_register_missing_or_malformed_field_raises_invalid_request(field, value, message):
    with pytest.raises(InvalidRequest, match=re.escape(message)):
        user_register(request=None, **{**REGISTRATION, field: value})


@override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.Argon2PasswordHasher"])
def test_user_register_stores_an_argon2id_hash():
    user = user_register(request=None, **REGISTRATION)
    assert identify_hasher(user.password).algorithm == "argon2"
    assert user.password.startswith("argon2$argon2id$")


def test_profile_update_changes_the_name_only(user):
    profile_update(user=user, first_name=" Ana Maria ", last_name="Souza Lima")
    user.refresh_from_db()
    assert (user.first_name, user.last_name, user.email) == ("Ana Maria", "Souza Lima", "ana@example.com")


def test_profile_update_empty_name_raises_invalid_request(user):
    with pytest.raises(InvalidRequest, match=re.escape("Enter your first name.")):
        profile_update(user=user, first_name=" ", last_name="Souza")


def test_api_token_create_stores_only_the_digest(user):
    row, secret = api_token_create(user=user, name="laptop")
    assert secret.startswith("gpr_")
    assert len(secret) == 4 + 43
    assert row.digest == ApiToken.digest_of(secret)
    assert row.prefix == secret[4:12]
    assert secret not in {row.digest, row.prefix, row.name}


def test_api_token_create_gives_a_different_token_each_time(user):
    secrets_made = {api_token_create(user=user, name="t")[1] for _ in range(5)}
    assert len(secrets_made) == 5


def test_api_token_create_empty_name_raises_invalid_request(user):
    with pytest.raises(InvalidRequest, match=re.escape("Give the token a name.")):
        api_token_create(user=user, name="   ")


def test_api_token_revoke_sets_revoked_at_once(user):
    row, _ = api_token_create(user=user, name="laptop")
    first = api_token_revoke(user=user, token_id=row.pk).revoked_at
    assert first is not None
    assert api_token_revoke(user=user, token_id=row.pk).revoked_at == first


def test_api_token_revoke_of_another_users_token_raises_not_found(user, other_user):
    row, _ = api_token_create(user=other_user, name="theirs")
    with pytest.raises(NotFound):
        api_token_revoke(user=user, token_id=row.pk)
    row.refresh_from_db()
    assert row.revoked_at is None


def test_api_token_mark_used_writes_at_most_once_a_minute(user, django_assert_num_queries):
    row, _ = api_token_create(user=user, name="laptop")
    with django_assert_num_queries(1):
        api_token_mark_used(row)
    with django_assert_num_queries(0):
        api_token_mark_used(row)
    row.refresh_from_db()
    assert row.last_used_at is not None


def _api_request():
    request = RequestFactory().post("/api/v1/auth/tokens")
    return request


def test_api_token_issue_right_password_makes_a_token(user):
    row, secret = api_token_issue(request=_api_request(), email="ANA@example.com", password=PASSWORD, name="ci")
    assert row.user == user
    assert row.digest == ApiToken.digest_of(secret)


@pytest.mark.parametrize(
    ("email", "password"), [("ana@example.com", "wrong password!"), ("nobody@example.com", PASSWORD)]
)
def test_api_token_issue_wrong_password_or_unknown_email_raises_invalid_credentials(user, email, password):
    with pytest.raises(InvalidCredentials) as caught:
        api_token_issue(request=_api_request(), email=email, password=password, name="ci")
    assert caught.value.as_body() == {
        "error": {"code": "invalid_credentials", "message": "The email or password is incorrect."}
    }
    assert not ApiToken.objects.exists()
