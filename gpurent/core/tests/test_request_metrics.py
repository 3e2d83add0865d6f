"""What each web process measures for /metrics: requests by route name, database statements, cache calls
(gpurent/core/observability/metrics.py, core/observability/middleware.py; decision 0410)."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse
from prometheus_client import REGISTRY

from gpurent.core.observability.metrics import TimedCache


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _requests(route: str, method: str, status: str) -> float:
    return _sample("gpurent_http_requests_total", route=route, method=method, status=status)


@pytest.mark.django_db
def test_a_request_is_counted_and_timed_under_its_route_name_not_its_path(client, gpu):
    before = _requests("catalog:detail", "GET", "200")
    timed = _sample("gpurent_http_request_duration_seconds_count", route="catalog:detail", method="GET")
    selects = _sample("gpurent_db_query_duration_seconds_count", alias="default", statement="select")

    assert client.get(reverse("catalog:detail", args=[gpu.slug])).status_code == 200

    assert _requests("catalog:detail", "GET", "200") == before + 1
    assert _sample("gpurent_http_request_duration_seconds_count", route="catalog:detail", method="GET") == timed + 1
    assert _sample("gpurent_db_query_duration_seconds_count", alias="default", statement="select") > selects
    exposed = {sample.labels.get("route") for metric in REGISTRY.collect() for sample in metric.samples}
    assert f"/gpus/{gpu.slug}/" not in exposed


@pytest.mark.django_db
def test_an_unknown_path_and_an_unknown_method_keep_the_labels_bounded(client):
    unmatched = _requests("unmatched", "GET", "404")
    other = _requests("catalog:index", "other", "405")
    assert client.get("/no-such-page-7f3a9c/").status_code == 404
    assert client.generic("BREW", reverse("catalog:index")).status_code == 405
    assert _requests("unmatched", "GET", "404") == unmatched + 1
    assert _requests("catalog:index", "other", "405") == other + 1


@pytest.mark.django_db
def test_the_cache_is_timed_and_its_lookups_counted_as_hits_and_misses(client):
    client.get(reverse("healthz"))  # the first request's middleware wraps the backends of a web process
    backend = caches["default"]
    assert isinstance(backend, TimedCache)
    hits, misses = (
        _sample("gpurent_cache_lookups_total", cache="default", result="hit"),
        _sample("gpurent_cache_lookups_total", cache="default", result="miss"),
    )
    sets = _sample("gpurent_cache_operation_duration_seconds_count", cache="default", operation="set")

    assert backend.get("metrics-test-key", "absent") == "absent"
    backend.set("metrics-test-key", None)  # a cached None is a hit, not a miss
    assert backend.get("metrics-test-key", "absent") is None
    backend.set_many({"metrics-a": 1, "metrics-b": 2})
    assert backend.get_many(["metrics-a", "metrics-b", "metrics-c"]) == {"metrics-a": 1, "metrics-b": 2}
    assert "metrics-a" in backend
    assert backend.make_key("k") == caches["default"].make_key("k")  # everything else is the backend's own

    assert _sample("gpurent_cache_lookups_total", cache="default", result="hit") == hits + 3
    assert _sample("gpurent_cache_lookups_total", cache="default", result="miss") == misses + 2
    assert _sample("gpurent_cache_operation_duration_seconds_count", cache="default", operation="set") == sets + 1
    assert _sample("gpurent_cache_operation_duration_seconds_count", cache="default", operation="has_key") >= 1
