"""The per-account maximums of SSH keys and live API tokens (decision 0291): the one past the limit is refused
with its own error, nothing is written, and removing a key or revoking a token makes room again."""

from __future__ import annotations

import pytest

from gpurent.accounts.errors import TooManyApiTokens, TooManySshKeys
from gpurent.accounts.models import ApiToken, SshKey
from gpurent.accounts.services import api_token_create, api_token_revoke, ssh_key_add, ssh_key_remove
from gpurent.core.testing import public_key

pytestmark = pytest.mark.django_db


def test_ssh_key_add_past_the_limit_is_refused_until_a_key_is_removed(user, settings):
    settings.ACCOUNTS_MAX_SSH_KEYS = 2
    first = ssh_key_add(user=user, name="laptop", public_key=public_key("a"))
    ssh_key_add(user=user, name="desktop", public_key=public_key("b"))
    with pytest.raises(TooManySshKeys) as refused:
        ssh_key_add(user=user, name="third", public_key=public_key("c"))
    assert (refused.value.code, refused.value.status) == ("too_many_ssh_keys", 409)
    assert SshKey.objects.filter(user=user).count() == 2
    ssh_key_remove(user=user, key_id=first.pk)
    assert ssh_key_add(user=user, name="third", public_key=public_key("c")).name == "third"


def test_ssh_key_limit_is_per_account(user, other_user, settings):
    settings.ACCOUNTS_MAX_SSH_KEYS = 1
    ssh_key_add(user=user, name="laptop", public_key=public_key("a"))
    assert ssh_key_add(user=other_user, name="laptop", public_key=public_key("b")).user == other_user


def test_api_token_create_past_the_live_limit_is_refused_until_one_is_revoked(user, settings):
    settings.ACCOUNTS_MAX_LIVE_API_TOKENS = 2
    first, _ = api_token_create(user=user, name="laptop")
    api_token_create(user=user, name="ci")
    with pytest.raises(TooManyApiTokens) as refused:
        api_token_create(user=user, name="third")
    assert (refused.value.code, refused.value.status) == ("too_many_api_tokens", 409)
    assert ApiToken.objects.filter(user=user).count() == 2
    api_token_revoke(user=user, token_id=first.pk)
    # A revoked token no longer counts: the account may have many revoked rows and two that work.
    assert api_token_create(user=user, name="third")[0].name == "third"
    assert ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() == 2


def test_the_refusal_is_written_in_the_customers_language(user, settings):
    from django.utils import translation

    settings.ACCOUNTS_MAX_SSH_KEYS = 0
    settings.ACCOUNTS_MAX_LIVE_API_TOKENS = 0
    with translation.override("es"), pytest.raises(TooManySshKeys) as keys:
        ssh_key_add(user=user, name="laptop", public_key=public_key("a"))
    with translation.override("vi"), pytest.raises(TooManyApiTokens) as tokens:
        api_token_create(user=user, name="ci")
    assert keys.value.message.startswith("Su cuenta tiene 0 claves SSH")
    assert tokens.value.message.startswith("Tài khoản của bạn đã có 0 token API")
