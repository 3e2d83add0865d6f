"""The guides router takes personal API tokens too (widened in config/api.py)."""

import pytest

from gpurent.accounts.services import api_token_create

pytestmark = pytest.mark.django_db


def test_quote_list_accepts_a_personal_token(client, django_user_model, demo_catalog):
    user = django_user_model.objects.create_user("q@example.com", "passphrase 12", first_name="Q", last_name="R")
    secret = api_token_create(user=user, name="t")[1]
    assert client.get("/api/v1/guides/quotes").status_code == 401
    assert client.get("/api/v1/guides/quotes", HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 200
    assert client.get("/api/v1/guides").status_code == 200
