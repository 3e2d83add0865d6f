"""The shop's business for `/metrics`, counted in the database when Prometheus asks (decision 0410).

Counted at scrape time, the numbers are the same whichever web process or machine answers, and need nothing
kept in memory. Each part is a fixed number of aggregate queries (GROUP BY, conditional COUNT and SUM),
whatever the size of the tables; the only Python loops run over rows the database already grouped (a few
dozen) and over GPU hosts (machines, not records). The whole collection is timed in
`gpurent_business_collect_duration_seconds`, and kept a few seconds in the cache (`BusinessCollector`).
docs/operations.md lists every metric with its labels.

Histograms of durations (intent to confirmed, provisioning runs) are computed from every row ever finished,
as Prometheus counts them: cumulative buckets that only grow, so `rate()` over them gives the recent
distribution. Host agent calls are many (a check of every host each minute), so theirs cover the last hour
only, from the indexed start time, as a gauge histogram.
"""

from __future__ import annotations

from collections.abc import Iterator
from time import perf_counter

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily, Metric

from .operations import hosts_metrics, provisioning_metrics, tasks_metrics, watcher_metrics
from .sales import orders_metrics, payment_intents_metrics

__all__ = ["BusinessCollector"]


class BusinessCollector:
    """A prometheus-client collector of the business metrics; registered on each scrape's registry.

    What it counted is kept `METRICS_BUSINESS_CACHE_SECONDS` in the default cache (shared by every web machine
    when `CACHE_URL` is Redis), so that Prometheus scraping several nodes, or several Prometheus servers, cost
    the database one count per period, whatever the scrape interval; 0 counts on every scrape.
    """

    def collect(self) -> Iterator[Metric]:
        seconds = int(getattr(settings, "METRICS_BUSINESS_CACHE_SECONDS", 0))
        families = cache.get(CACHE_KEY) if seconds > 0 else None
        if families is None:
            families = list(_count())
            if seconds > 0:
                cache.set(CACHE_KEY, families, seconds)
        yield from families


CACHE_KEY = "gpurent:metrics:business:v1"


def _count() -> Iterator[Metric]:
    start = perf_counter()
    now = timezone.now()
    yield from orders_metrics()
    yield from payment_intents_metrics()
    yield from watcher_metrics(now)
    yield from tasks_metrics(now)
    yield from provisioning_metrics(now)
    yield from hosts_metrics()
    took = GaugeMetricFamily(
        "gpurent_business_collect_duration_seconds", "Time the last count of the business metrics took."
    )
    took.add_metric([], perf_counter() - start)
    yield took
