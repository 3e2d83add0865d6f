"""/metrics under gunicorn with four worker processes sharing PROMETHEUS_MULTIPROC_DIR (decision 0410): whichever
process answers a scrape, it reports the requests of all of them, and the business counted in the database."""

from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from gpurent.core.testing import POSTGRES_BURST

pytestmark = POSTGRES_BURST

TOKEN = "multiprocess-metrics-token"
REQUESTS = 40


def _count(base: str) -> float:
    request = urllib.request.Request(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        families = {family.name: family for family in text_string_to_metric_families(response.read().decode())}
    assert "gpurent_orders" in families
    assert "gpurent_tasks_queued" in families
    return sum(
        sample.value
        for sample in families["gpurent_http_requests"].samples
        if sample.name == "gpurent_http_requests_total" and sample.labels["route"] == "csrf_token"
    )


def test_every_scrape_adds_up_the_requests_of_every_worker_process(gunicorn_server, tmp_path):
    with gunicorn_server(PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"), METRICS_TOKEN=TOKEN) as base:
        # A route nothing else asks for (the start-up probes ask /healthz, some of them after their own time-out).
        for _ in range(REQUESTS):
            with urllib.request.urlopen(f"{base}/csrf-token/", timeout=30) as response:
                assert response.status == 200
        # Eight scrapes land on several of the four processes; each one sees the same total.
        counts = {_count(base) for _ in range(8)}
        assert counts == {REQUESTS}
        assert len(list((tmp_path / "metrics").glob("*.db"))) >= 2
