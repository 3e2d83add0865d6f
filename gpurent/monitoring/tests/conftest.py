"""Helpers of the /metrics tests: a scrape with the token, and its samples by name and labels."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from prometheus_client.parser import text_string_to_metric_families

TOKEN = "metrics-test-token-0123456789"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    """Every sample of an exposition, keyed by (sample name, its labels)."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


@pytest.fixture
def scrape(client, settings) -> Callable[[], Samples]:
    """GET /metrics with the bearer token (METRICS_TOKEN set for the test); asserts a 200 and parses it."""
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_IPS = []
    settings.METRICS_BUSINESS_CACHE_SECONDS = 0  # each scrape counts what the test has just written

    def get() -> Samples:
        response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert response.status_code == 200, response.status_code
        assert response["Content-Type"].startswith("text/plain; version=0.0.4")
        return parse(response.content.decode())

    return get
