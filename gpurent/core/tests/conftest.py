"""Fixtures of the core app's tests."""

import random

import pytest


@pytest.fixture(autouse=True)
def _fake_secrets_drawn_per_test(request: pytest.FixtureRequest) -> None:
    """A redaction module draws its fake secrets from its module-level `_RNG`: each test reseeds it from its own id,
    so what a test draws does not depend on which tests ran before it in its process (decision 0592)."""
    rng = getattr(request.module, "_RNG", None)
    if isinstance(rng, random.Random):
        rng.seed(request.node.nodeid)
