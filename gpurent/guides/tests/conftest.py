"""Fixtures of the guides tests: customers, the form fields of a quote request, a helper to send one."""

from __future__ import annotations

from typing import Any

import pytest

from gpurent.accounts.models import User

PASSWORD = "amber kettle violin harbour"
GUIDE_URL = "/guides/a100-80gb/vision-finetuning/proof-of-concept/"
QUOTE_URL = GUIDE_URL + "quote/"


@pytest.fixture
def customer(db) -> User:
    return User.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="Lovelace")


@pytest.fixture
def other_customer(db) -> User:
    return User.objects.create_user("bob@example.com", PASSWORD, first_name="Bob", last_name="Builder")


def quote_form(key: str = "key-1", **overrides: str) -> dict[str, Any]:
    data = {
        "model_name": "vit-base-patch16-224",
        "gpu": "a100-80gb",
        "endpoint": "ssh",
        "support_level": "assisted",
        "delivery_scope": "proof-of-concept",
        "expected_load": "One training run a week on 50,000 images.",
        "sample_data": "image_0001.jpg,cat\nimage_0002.jpg,dog",
        "contact_email": "guest@example.com",
        "idempotency_key": key,
    }
    data.update(overrides)
    return data
