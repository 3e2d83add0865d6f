"""The machinery for `/metrics`: chain watchers, the task queue, provisioning and GPU hosts (docs/operations.md)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Case, Count, F, Min, Q, When
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max
from prometheus_client.core import CounterMetricFamily, GaugeHistogramMetricFamily, GaugeMetricFamily, Metric

from gpurent.core.models import WorkerHeartbeat
from gpurent.core.tasks import MISSED_BEATS
from gpurent.hosts.enums import HostHealth
from gpurent.hosts.models import GpuHost, HostOperation, HostRental
from gpurent.hosts.stock import free_gpus
from gpurent.orders.models import ProvisioningRun
from gpurent.payments.models import ChainCursor

from .families import bucket_label, duration, histogram_counts, histogram_family, seconds_since

__all__ = ["hosts_metrics", "provisioning_metrics", "tasks_metrics", "watcher_metrics"]

# A provisioning script runs for seconds to the PROVISIONER_TIMEOUT_SECONDS (600 by default).
RUN_BUCKETS = (5, 15, 30, 60, 120, 300, 600, 1200)
# One call to a host's agent over SSH: well under a second, up to HOSTS_SSH_TIMEOUT_SECONDS.
OPERATION_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
OPERATIONS_WINDOW = timedelta(hours=1)


def watcher_metrics(now: datetime) -> Iterator[Metric]:
    """Per network with a cursor: the block read through, the node's tip as last seen, the lag between them,
    and how long ago a scan last completed (one query over at most one row per network)."""
    height = GaugeMetricFamily(
        "gpurent_chain_watcher_height", "The last block the watcher read completely (its cursor).", labels=["network"]
    )
    tip = GaugeMetricFamily(
        "gpurent_chain_node_tip_height",
        "The node's highest block when the watcher's last scan completed.",
        labels=["network"],
    )
    lag = GaugeMetricFamily(
        "gpurent_chain_watcher_lag_blocks",
        "Blocks between the node's tip and the watcher's cursor.",
        labels=["network"],
    )
    age = GaugeMetricFamily(
        "gpurent_chain_watcher_last_scan_age_seconds",
        "Seconds since the watcher's last complete scan.",
        labels=["network"],
    )
    cursors = ChainCursor.objects.values("network", "height", "tip_height", "tip_seen_at").order_by("network")
    for cursor in cursors:
        height.add_metric([cursor["network"]], cursor["height"])
        if cursor["tip_height"] is not None:
            tip.add_metric([cursor["network"]], cursor["tip_height"])
            lag.add_metric([cursor["network"]], max(0, cursor["tip_height"] - cursor["height"]))
            age.add_metric([cursor["network"]], seconds_since(cursor["tip_seen_at"], now))
    yield from (height, tip, lag, age)


def tasks_metrics(now: datetime) -> Iterator[Metric]:
    """The queue per queue name: tasks due and their oldest wait, deferred ones, running ones and the longest
    run; and the workers alive (two queries: the unfinished tasks, grouped; the heartbeats)."""
    never = get_date_max()
    due = Q(status=TaskResultStatus.READY) & (Q(run_after=never) | Q(run_after__lte=now))
    running = Q(status=TaskResultStatus.RUNNING)
    waiting_since = Case(When(run_after=never, then=F("enqueued_at")), default=F("run_after"))
    rows = (
        DBTaskResult.objects.filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
        .values("queue_name")
        .annotate(
            due=Count("pk", filter=due),
            deferred=Count("pk", filter=Q(status=TaskResultStatus.READY) & ~due),
            running=Count("pk", filter=running),
            oldest_due=Min(waiting_since, filter=due),
            oldest_running=Min("started_at", filter=running),
        )
        .order_by("queue_name")
    )
    families = {
        "due": GaugeMetricFamily(
            "gpurent_tasks_queued", "Tasks ready to run now, not yet taken by a worker.", labels=["queue"]
        ),
        "deferred": GaugeMetricFamily(
            "gpurent_tasks_deferred", "Tasks waiting for their run-after time.", labels=["queue"]
        ),
        "running": GaugeMetricFamily("gpurent_tasks_running", "Tasks a worker is running.", labels=["queue"]),
        "age": GaugeMetricFamily(
            "gpurent_tasks_queue_age_seconds",
            "How long the oldest task ready to run has waited (0: none).",
            labels=["queue"],
        ),
        "longest": GaugeMetricFamily(
            "gpurent_tasks_running_longest_seconds",
            "How long the longest-running task has run (0: none).",
            labels=["queue"],
        ),
    }
    for row in rows:
        queue = [row["queue_name"]]
        for key in ("due", "deferred", "running"):
            families[key].add_metric(queue, row[key])
        families["age"].add_metric(queue, seconds_since(row["oldest_due"], now))
        families["longest"].add_metric(queue, seconds_since(row["oldest_running"], now))
    yield from families.values()
    alive_since = now - timedelta(seconds=MISSED_BEATS * settings.TASKS_HEARTBEAT_SECONDS)
    workers = GaugeMetricFamily(
        "gpurent_task_workers_alive", "Workers (manage.py worker) whose last heartbeat is recent (four beats)."
    )
    workers.add_metric([], WorkerHeartbeat.objects.filter(beat_at__gte=alive_since).count())
    yield workers


def provisioning_metrics(now: datetime) -> Iterator[Metric]:
    """Provisioning scripts' runs (every run: outcomes and durations), rental accounts on hosts by state, and
    calls to hosts' agents in the last hour by operation and outcome, with their durations (three queries)."""
    finished = Q(finished_at__isnull=False)
    (runs,) = histogram_counts(
        ProvisioningRun.objects.all(),
        group=[],
        value=duration("finished_at", "started_at"),
        buckets=RUN_BUCKETS,
        finished=finished,
        succeeded=Count("pk", filter=finished & Q(exit_code=0)),
    )
    outcomes = CounterMetricFamily(
        "gpurent_provisioning_runs", "Finished runs of the provisioning script, by outcome.", labels=["outcome"]
    )
    outcomes.add_metric(["succeeded"], runs["succeeded"])
    outcomes.add_metric(["failed"], runs["count"] - runs["succeeded"])
    yield outcomes
    running = GaugeMetricFamily("gpurent_provisioning_runs_running", "Runs of the provisioning script not finished.")
    running.add_metric([], runs["n"] - runs["count"])
    yield running
    yield histogram_family(
        "gpurent_provisioning_run_duration_seconds",
        "How long each finished run of the provisioning script took.",
        [],
        RUN_BUCKETS,
        [runs],
    )

    rentals = GaugeMetricFamily("gpurent_host_rentals", "Rental accounts on GPU hosts by state.", labels=["state"])
    for row in HostRental.objects.values("state").annotate(n=Count("pk")).order_by("state"):
        rentals.add_metric([row["state"]], row["n"])
    yield rentals

    recent = HostOperation.objects.filter(started_at__gte=now - OPERATIONS_WINDOW)
    rows = histogram_counts(
        recent,
        group=["operation", "ok"],
        value=F("duration_ms"),
        buckets=OPERATION_BUCKETS,
        finished=Q(pk__isnull=False),
    )
    calls = GaugeMetricFamily(
        "gpurent_host_operations_last_hour", "Calls to hosts' agents in the last hour.", labels=["operation", "outcome"]
    )
    for row in rows:
        calls.add_metric([row["operation"], "ok" if row["ok"] else "failed"], row["n"])
    yield calls
    yield _gauge_histogram(rows)


def _gauge_histogram(rows: list[dict[str, Any]]) -> GaugeHistogramMetricFamily:
    family = GaugeHistogramMetricFamily(
        "gpurent_host_operation_duration_seconds",
        "Durations of the calls to hosts' agents in the last hour, by operation and outcome.",
        labels=["operation", "outcome"],
    )
    for row in rows:
        counts = [(bucket_label(bound), row[f"le_{index}"]) for index, bound in enumerate(OPERATION_BUCKETS)]
        family.add_metric(
            [row["operation"], "ok" if row["ok"] else "failed"], [*counts, ("+Inf", row["count"])], row["sum"]
        )
    return family


def hosts_metrics() -> Iterator[Metric]:
    """GPU hosts by health and drained flag, and their offered GPUs per model: free (on a host that takes
    rentals, reported by its last inventory and held by no rental), rented (held by a rental), unavailable (the
    rest: a drained or unhealthy host, a card its inventory no longer reports). Two queries (the hosts and
    their allocations); the loop is over hosts, machines the operator registered."""
    hosts = GaugeMetricFamily(
        "gpurent_hosts", "GPU hosts by health and whether they are drained.", labels=["health", "drained"]
    )
    gpus = GaugeMetricFamily(
        "gpurent_host_gpus", "GPUs offered on hosts, per model and state.", labels=["gpu_model", "state"]
    )
    by_health: Counter[tuple[str, str]] = Counter()
    by_model: dict[str, Counter[str]] = defaultdict(Counter)
    for host in GpuHost.objects.select_related("gpu").prefetch_related("allocations").order_by("name"):
        by_health[(host.health, "true" if host.drained else "false")] += 1
        offered = len(set(host.gpu_indices))
        rented = len(host.allocations.all())
        free = len(free_gpus(host)) if host.health == HostHealth.HEALTHY and not host.drained else 0
        counts = by_model[host.gpu.slug]
        counts["rented"] += rented
        counts["free"] += free
        counts["unavailable"] += max(0, offered - rented - free)
    for health in HostHealth.values:
        for drained in ("false", "true"):
            hosts.add_metric([health, drained], by_health[(health, drained)])
    for model, counts in sorted(by_model.items()):
        for state in ("free", "rented", "unavailable"):
            gpus.add_metric([model, state], counts[state])
    yield from (hosts, gpus)
