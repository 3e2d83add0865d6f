"""Personal API tokens on the account page, and the bearer authentication of the API."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.api_auth import TokenAuth, api_auth
from gpurent.accounts.models import ApiToken, User
from gpurent.accounts.selectors import api_token_for_secret
from gpurent.accounts.services import api_token_create
from gpurent.core.models import IdempotencyKey

pytestmark = pytest.mark.django_db

KEY = "8d2f3a34-5d0e-4d57-9d6a-1f1f0c7c2b11"


def _create(client, name: str = "laptop", key: str = KEY):
    return client.post(reverse("accounts:token_create"), {"name": name, "idempotency_key": key})


def test_token_create_shows_the_token_once_and_stores_only_its_digest(client, user):
    client.force_login(user)
    response = _create(client)
    html = response.content.decode()
    assert response.status_code == 200
    token = ApiToken.objects.get(user=user)
    secret = html.split('id="new-token" type="text" readonly value="')[1].split('"')[0]
    assert secret.startswith("gpr_")
    assert token.digest == ApiToken.digest_of(secret)
    assert "Copy it now: it is shown only this once." in html
    # A copy button, with the script that runs it (the QA walk found none on a phone).
    assert 'data-testid="copy-token">Copy</button>' in html
    assert f'data-copy="{secret}"' in html
    assert "payments/payments." in html
    assert "no-store" in response["Cache-Control"]
    # Nowhere else: not in the idempotency record, not on the next page view.
    record = IdempotencyKey.objects.get(key=KEY)
    assert secret not in str(record.response_body)
    assert record.response_body == {"token_id": token.pk}
    later = client.get(reverse("accounts:account")).content.decode()
    assert secret not in later
    assert "copy-token" not in later
    assert f"gpr_{token.prefix}…" in later
    assert "laptop" in later


def test_token_create_double_submit_makes_one_token_and_does_not_show_it_again(client, user):
    client.force_login(user)
    first = _create(client)
    replay = _create(client, key=KEY)
    assert ApiToken.objects.filter(user=user).count() == 1
    assert replay.status_code == 302
    page = client.get(replay["Location"]).content.decode()
    assert "This token was already created; it was shown once, when it was made." in page
    secret = first.content.decode().split('readonly value="')[1].split('"')[0]
    assert secret not in page


def test_token_create_same_key_other_name_creates_nothing_and_says_why(client, user):
    client.force_login(user)
    _create(client, name="laptop")
    response = _create(client, name="cluster")
    assert "This idempotency key was already used for a different request." in response.content.decode()
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["laptop"]


def test_token_create_without_a_name_shows_the_error(client, user):
    client.force_login(user)
    response = _create(client, name="")
    assert "This field is required." in response.content.decode()
    assert not ApiToken.objects.exists()
    assert not IdempotencyKey.objects.exists()


def test_token_create_needs_login(client):
    response = _create(client)
    assert response.status_code == 302
    assert not ApiToken.objects.exists()


def test_token_list_shows_live_tokens_with_their_dates(client, user, other_user):
    live, _ = api_token_create(user=user, name="laptop")
    revoked, _ = api_token_create(user=user, name="old box")
    revoked.revoked_at = timezone.now()
    revoked.save()
    api_token_create(user=other_user, name="not yours")
    client.force_login(user)
    html = client.get(reverse("accounts:account")).content.decode()
    assert "laptop" in html
    assert f"gpr_{live.prefix}…" in html
    assert "Never" in html
    assert "old box" not in html
    assert "not yours" not in html


def test_token_revoke_stops_the_token_working(client, user):
    token, secret = api_token_create(user=user, name="laptop")
    client.force_login(user)
    response = client.post(reverse("accounts:token_revoke", args=[token.pk]), {"idempotency_key": KEY})
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert "The token “laptop” is revoked and no longer works." in client.get(response["Location"]).content.decode()
    assert _bearer(secret)[1] is None


def test_token_revoke_double_submit_answers_as_the_first_did_and_says_it_once(client, user):
    token, _secret = api_token_create(user=user, name="laptop")
    client.force_login(user)
    url = reverse("accounts:token_revoke", args=[token.pk])
    first = client.post(url, {"idempotency_key": KEY}, follow=True)
    revoked_at = ApiToken.objects.get(pk=token.pk).revoked_at
    again = client.post(url, {"idempotency_key": KEY}, follow=True)
    assert first.redirect_chain == again.redirect_chain == [(reverse("accounts:account"), 302)]
    assert "is revoked and no longer works" in first.content.decode()
    assert "is revoked and no longer works" not in again.content.decode()  # a replay, not a second revoke
    assert ApiToken.objects.get(pk=token.pk).revoked_at == revoked_at


def test_token_revoke_without_the_pages_key_is_refused_and_revokes_nothing(client, user):
    token, secret = api_token_create(user=user, name="laptop")
    client.force_login(user)
    response = client.post(reverse("accounts:token_revoke", args=[token.pk]), follow=True)
    assert response.redirect_chain == [(reverse("accounts:account"), 302)]
    assert "is revoked" not in response.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    assert _bearer(secret)[1] == user


def test_token_revoke_by_get_is_refused(client, user):
    token, _ = api_token_create(user=user, name="laptop")
    client.force_login(user)
    assert client.get(reverse("accounts:token_revoke", args=[token.pk])).status_code == 405


def _bearer(secret: str):
    request = RequestFactory().get("/api/v1/anything", HTTP_AUTHORIZATION=f"Bearer {secret}")
    return request, TokenAuth()(request)


def test_token_auth_valid_token_authenticates_its_user_and_records_the_use(user):
    token, secret = api_token_create(user=user, name="laptop")
    request, result = _bearer(secret)
    assert result == user
    assert request.user == user
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.parametrize("secret", ["", "gpr_", "gpr_not-a-real-token", "Bearer", "x" * 500])
def test_token_auth_unknown_token_is_refused(user, secret):
    api_token_create(user=user, name="laptop")
    assert _bearer(secret)[1] is None


def test_token_auth_revoked_token_is_refused(user):
    token, secret = api_token_create(user=user, name="laptop")
    token.revoked_at = timezone.now()
    token.save()
    assert _bearer(secret)[1] is None


def test_token_auth_token_of_an_inactive_user_is_refused(user):
    _, secret = api_token_create(user=user, name="laptop")
    user.is_active = False
    user.save()
    assert _bearer(secret)[1] is None


def test_token_lookup_loads_the_user_as_a_queryset_would(user):
    """The hand-written lookup (decision 0305) gives the same user, every field converted (datetimes on SQLite)."""
    token, secret = api_token_create(user=user, name="laptop")
    user.last_login = timezone.now()
    user.save()
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    found = api_token_for_secret(secret)
    expected = User.objects.get(pk=user.pk)
    assert found is not None
    assert found.pk == token.pk
    assert found.last_used_at == ApiToken.objects.get(pk=token.pk).last_used_at
    fields = [field.attname for field in User._meta.concrete_fields]
    assert [getattr(found.user, name) for name in fields] == [getattr(expected, name) for name in fields]
    assert found.user._state.adding is False
    assert found.name == "laptop"  # a field left out of the lookup is still readable (one more query)


def test_api_auth_tries_the_token_then_the_session():
    assert isinstance(api_auth[0], TokenAuth)
    assert len(api_auth) == 2


def test_the_page_showing_a_new_token_opens_at_it(client, user):
    """QA walk 2: the page came back at its top and the secret, shown once, was four screens down on a phone.
    The form's address carries the section's anchor, so the browser opens the answer at the token (and at the
    form's errors when it is refused), with no script."""
    client.force_login(user)
    action = f'<form method="post" action="{reverse("accounts:token_create")}#tokens" class="token-form">'
    assert action in client.get(reverse("accounts:account")).content.decode()
    html = _create(client).content.decode()
    assert action in html
    section = html.split('id="tokens"')[1].split("</section>")[0]
    assert 'id="new-token"' in section
    refused = _create(client, name="", key="k-2").content.decode()
    assert action in refused
