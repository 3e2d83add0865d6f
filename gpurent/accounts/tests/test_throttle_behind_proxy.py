"""Behind nginx, registration attempts are counted per visitor, not per proxy (decision 0407): nginx passes the
visitor's address in `X-Real-IP`, which counts only from a `TRUSTED_PROXIES` address."""

import pytest
from django.test import Client

from .conftest import REGISTRATION

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.10"


@pytest.fixture(autouse=True)
def behind_a_proxy(settings):
    settings.REGISTRATION_RATE_LIMITS = [(3600, 2)]
    settings.TRUSTED_PROXIES = [PROXY]


def _register(email: str, *, peer: str, visitor: str) -> int:
    response = Client(REMOTE_ADDR=peer).post(
        "/api/v1/auth/register",
        {**REGISTRATION, "email": email},
        content_type="application/json",
        headers={"X-Real-IP": visitor},
    )
    return response.status_code


def test_each_visitor_behind_the_proxy_has_a_count_of_their_own():
    assert [_register(f"a{i}@example.com", peer=PROXY, visitor="203.0.113.7") for i in range(3)] == [201, 201, 429]
    # Another visitor through the same proxy is not refused for the first one's attempts.
    assert _register("b@example.com", peer=PROXY, visitor="198.51.100.2") == 201


def test_a_visitor_who_reaches_the_web_process_directly_cannot_pick_the_address_counted():
    statuses = [_register(f"c{i}@example.com", peer="198.51.100.9", visitor=f"203.0.113.{i}") for i in range(3)]
    assert statuses == [201, 201, 429]
