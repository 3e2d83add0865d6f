"""Fixtures of the guides tests: customers, the form fields of a quote request, a helper to send one, a card sized
to make a guide tight."""

from __future__ import annotations

from typing import Any

import pytest

from gpurent.accounts.models import User
from gpurent.catalog.models import GpuModel
from gpurent.guides.decision import inputs_for
from gpurent.guides.enums import GuideWorkload, Scope
from gpurent.guides.guide import Guide
from gpurent.sizing.calculation import size_workload
from gpurent.sizing.fit.table import USABLE_PCT
from vramcalc.units import MIB

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


def make_tight(slug: str, workload: GuideWorkload, scope: Scope) -> None:
    """Size `slug`'s card between the scope's expected peak and the high end of its range (over the usable share),
    so that its row is tight whatever the engine's range widths are."""
    page = Guide(GpuModel.objects.get(slug=slug), workload, scope)
    result = size_workload(inputs_for(page.fields)).result
    between = (result.peak_bytes + result.peak_high_bytes) // 2
    GpuModel.objects.filter(slug=slug).update(memory_mib_per_card=between * 100 // USABLE_PCT // MIB)
