"""A form target that answers from the POST (errors, a secret shown once): its address opened again with a GET
(a reload after leaving, a new tab, a shared link) goes back to the page holding the form, never to a bare 405."""

import pytest
from django.urls import reverse

from gpurent.accounts.models import ApiToken

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("accounts:account")


@pytest.mark.parametrize(
    ("target", "back"),
    [
        ("accounts:token_create", ACCOUNT + "#tokens"),
        ("accounts:ssh_key_create", ACCOUNT + "#ssh-keys"),
        ("accounts:email_change", ACCOUNT + "#email"),
        ("accounts:profile", ACCOUNT + "#profile-heading"),
        ("accounts:two_factor_confirm", reverse("accounts:two_factor_setup")),
        ("accounts:two_factor_disable", ACCOUNT + "#two-factor"),
        ("accounts:recovery_codes_renew", ACCOUNT + "#two-factor"),
    ],
)
def test_get_of_an_account_form_target_goes_to_its_form(client, user, target, back):
    client.force_login(user)
    response = client.get(reverse(target))
    assert (response.status_code, response["Location"]) == (302, back)
    assert client.head(reverse(target))["Location"] == back
    assert client.put(reverse(target)).status_code == 405  # only GET is sent back; POST still does the work


def test_get_of_an_account_form_target_needs_login_first(client):
    response = client.get(reverse("accounts:token_create"))
    assert response["Location"].startswith(reverse("accounts:login"))


def test_get_of_the_token_address_creates_nothing_and_shows_no_secret(client, user):
    client.force_login(user)
    created = client.post(reverse("accounts:token_create"), {"name": "laptop", "idempotency_key": "k-1"})
    secret = created.content.decode().split('id="new-token" type="text" readonly value="')[1].split('"')[0]
    assert "no-store" in created["Cache-Control"]
    again = client.get(reverse("accounts:token_create"), follow=True)
    assert again.redirect_chain == [(ACCOUNT + "#tokens", 302)]
    assert again.status_code == 200
    assert secret not in again.content.decode()
    assert secret not in again.redirect_chain[0][0]
    assert ApiToken.objects.filter(user=user).count() == 1
