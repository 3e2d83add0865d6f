"""/metrics counts the business in the database: each family against rows set up here, and a scrape whose number of
queries does not grow with the rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from conftest import make_gpu
from gpurent.accounts.models import User
from gpurent.core.models import WorkerHeartbeat
from gpurent.hosts.models import GpuAllocation, GpuHost, HostOperation, HostRental
from gpurent.monitoring.testing import intents_bulk, orders_bulk
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import ProvisioningRun
from gpurent.payments.models import ChainCursor, IntentStatus

from .conftest import value

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user(
        "metrics-owner@example.com", "a long test passphrase", first_name="M", last_name="O"
    )


def test_orders_by_status_and_gpus_free_and_rented(scrape, owner, gpu):
    b200 = make_gpu(slug="b200", name="B200", cards_per_lot=2, stock_lots=3)
    orders_bulk(owner=owner, gpu=gpu, count=4, prefix="A")
    orders_bulk(owner=owner, gpu=gpu, count=2, prefix="E", payment_status=PaymentStatus.EXPIRED)
    ready = orders_bulk(
        owner=owner,
        gpu=b200,
        count=3,
        prefix="R",
        lots=2,
        payment_status=PaymentStatus.PAID,
        provisioning_status=ProvisioningStatus.READY,
    )
    orders_bulk(
        owner=owner,
        gpu=gpu,
        count=1,
        prefix="P",
        payment_status=PaymentStatus.PAID,
        provisioning_status=ProvisioningStatus.PREPARING,
    )
    orders_bulk(
        owner=owner,
        gpu=gpu,
        count=5,
        prefix="D",
        payment_status=PaymentStatus.PAID,
        provisioning_status=ProvisioningStatus.ENDED,
    )
    extension = orders_bulk(owner=owner, gpu=b200, count=1, prefix="X", payment_status=PaymentStatus.PAID)[0]
    extension.extends = ready[0]
    extension.save(update_fields=["extends"])

    samples = scrape()

    def orders(payment: str, provisioning: str, kind: str = "rental") -> float | None:
        return value(samples, "gpurent_orders", payment_status=payment, provisioning_status=provisioning, kind=kind)

    assert orders("awaiting_payment", "not_started") == 4
    assert orders("expired", "not_started") == 2
    assert orders("paid", "ready") == 3
    assert orders("paid", "preparing") == 1
    assert orders("paid", "ended") == 5
    assert orders("paid", "not_started", "extension") == 1
    assert orders("paid", "not_started") is None
    assert value(samples, "gpurent_gpus", gpu_model="a100-80gb", state="free") == 8  # 8 lots of one card
    assert value(samples, "gpurent_gpus", gpu_model="a100-80gb", state="rented") == 1  # the one preparing
    assert value(samples, "gpurent_gpus", gpu_model="b200", state="free") == 6  # 3 lots of two cards
    assert value(samples, "gpurent_gpus", gpu_model="b200", state="rented") == 12  # 3 rentals × 2 lots × 2 cards


def test_payment_intents_by_status_and_pair_and_time_to_confirmed(scrape, owner, gpu):
    orders = orders_bulk(owner=owner, gpu=gpu, count=9)
    intents_bulk(orders=orders[:2], asset="USDT", network="tron")
    intents_bulk(orders=orders[2:3], asset="USDT", network="tron", status=IntentStatus.EXPIRED)
    # Confirmed after 4 minutes (twice), 25 minutes and 3 hours; the buckets are cumulative.
    for order_slice, after in ((orders[3:5], 4), (orders[5:6], 25), (orders[6:7], 180)):
        intents_bulk(
            orders=order_slice,
            asset="USDT",
            network="tron",
            status=IntentStatus.CONFIRMED,
            confirmed_after=timedelta(minutes=after),
        )
    intents_bulk(
        orders=orders[7:9],
        asset="BTC",
        network="bitcoin",
        status=IntentStatus.CONFIRMED,
        confirmed_after=timedelta(seconds=30),
    )

    samples = scrape()

    intents = "gpurent_payment_intents"
    assert value(samples, intents, status="awaiting_payment", asset="USDT", network="tron") == 2
    assert value(samples, intents, status="expired", asset="USDT", network="tron") == 1
    assert value(samples, intents, status="confirmed", asset="USDT", network="tron") == 4
    assert value(samples, intents, status="confirmed", asset="BTC", network="bitcoin") == 2
    bucket = "gpurent_payment_intent_confirmation_seconds_bucket"
    tron = {"asset": "USDT", "network": "tron"}
    assert value(samples, bucket, le="60.0", **tron) == 0
    assert value(samples, bucket, le="300.0", **tron) == 2
    assert value(samples, bucket, le="1800.0", **tron) == 3
    assert value(samples, bucket, le="7200.0", **tron) == 3
    assert value(samples, bucket, le="21600.0", **tron) == 4
    assert value(samples, bucket, le="+Inf", **tron) == 4
    assert value(samples, "gpurent_payment_intent_confirmation_seconds_count", **tron) == 4
    assert value(samples, "gpurent_payment_intent_confirmation_seconds_sum", **tron) == (4 + 4 + 25 + 180) * 60
    assert value(samples, bucket, le="60.0", asset="BTC", network="bitcoin") == 2


def test_watcher_lag_per_network(scrape):
    seen = timezone.now() - timedelta(seconds=90)
    ChainCursor.objects.create(network="ethereum", height=1_000, block_hash="0xabc", tip_height=1_064, tip_seen_at=seen)
    ChainCursor.objects.create(network="bitcoin", height=800_000)  # never completed a scan since the tip was kept

    samples = scrape()

    assert value(samples, "gpurent_chain_watcher_height", network="ethereum") == 1_000
    assert value(samples, "gpurent_chain_node_tip_height", network="ethereum") == 1_064
    assert value(samples, "gpurent_chain_watcher_lag_blocks", network="ethereum") == 64
    age = value(samples, "gpurent_chain_watcher_last_scan_age_seconds", network="ethereum")
    assert age is not None
    assert 90 <= age < 3600
    assert value(samples, "gpurent_chain_watcher_height", network="bitcoin") == 800_000
    assert value(samples, "gpurent_chain_watcher_lag_blocks", network="bitcoin") is None


def _task(status: str, *, enqueued_ago: int, started_ago: int | None = None, run_after=None) -> DBTaskResult:
    now = timezone.now()
    row = DBTaskResult.objects.create(
        status=status,
        args_kwargs={"args": [], "kwargs": {}},
        task_path="gpurent.core.emails.deliver_email",
        backend_name="default",
        run_after=run_after,
        started_at=now - timedelta(seconds=started_ago) if started_ago is not None else None,
    )
    DBTaskResult.objects.filter(pk=row.pk).update(enqueued_at=now - timedelta(seconds=enqueued_ago))
    return row


def test_task_queue_depth_and_age(scrape, settings):
    settings.TASKS_HEARTBEAT_SECONDS = 10
    _task(TaskResultStatus.READY, enqueued_ago=300)
    _task(TaskResultStatus.READY, enqueued_ago=5)
    _task(TaskResultStatus.READY, enqueued_ago=5, run_after=timezone.now() + timedelta(hours=1))
    _task(TaskResultStatus.RUNNING, enqueued_ago=700, started_ago=600)
    for _ in range(3):
        _task(TaskResultStatus.SUCCESSFUL, enqueued_ago=5_000)
    WorkerHeartbeat.objects.create(worker_id="alive", beat_at=timezone.now() - timedelta(seconds=5))
    WorkerHeartbeat.objects.create(worker_id="dead", beat_at=timezone.now() - timedelta(seconds=600))

    samples = scrape()

    assert value(samples, "gpurent_tasks_queued", queue="default") == 2
    assert value(samples, "gpurent_tasks_deferred", queue="default") == 1
    assert value(samples, "gpurent_tasks_running", queue="default") == 1
    age = value(samples, "gpurent_tasks_queue_age_seconds", queue="default")
    assert age is not None
    assert 300 <= age < 3600
    longest = value(samples, "gpurent_tasks_running_longest_seconds", queue="default")
    assert longest is not None
    assert 600 <= longest < 3600
    assert value(samples, "gpurent_task_workers_alive") == 1


def test_provisioning_runs_and_durations(scrape, owner, gpu):
    order = orders_bulk(owner=owner, gpu=gpu, count=1, payment_status=PaymentStatus.PAID)[0]
    for exit_code, seconds in ((0, 20), (0, 100), (1, 700), (None, None)):
        run = ProvisioningRun.objects.create(order=order, command="provision", exit_code=exit_code)
        if seconds is not None:
            ProvisioningRun.objects.filter(pk=run.pk).update(finished_at=run.started_at + timedelta(seconds=seconds))

    samples = scrape()

    assert value(samples, "gpurent_provisioning_runs_total", outcome="succeeded") == 2
    assert value(samples, "gpurent_provisioning_runs_total", outcome="failed") == 1
    assert value(samples, "gpurent_provisioning_runs_running") == 1
    bucket = "gpurent_provisioning_run_duration_seconds_bucket"
    assert value(samples, bucket, le="15.0") == 0
    assert value(samples, bucket, le="30.0") == 1
    assert value(samples, bucket, le="120.0") == 2
    assert value(samples, bucket, le="1200.0") == 3
    assert value(samples, "gpurent_provisioning_run_duration_seconds_sum") == pytest.approx(820)


def _host(gpu, name: str, *, health: str = "healthy", drained: bool = False, reported=(0, 1, 2, 3)) -> GpuHost:
    return GpuHost.objects.create(
        name=name,
        address="192.0.2.10",
        gpu=gpu,
        gpu_indices=[0, 1, 2, 3],
        host_key="ssh-ed25519 AAAA",
        host_key_fingerprint="SHA256:x",
        inventory={"gpus": [{"index": index} for index in reported]},
        health=health,
        drained=drained,
    )


def test_hosts_up_and_down_gpus_and_agent_calls(scrape, owner, gpu):
    healthy = _host(gpu, "node-1", reported=(0, 1, 2))  # card 3 fell off the bus
    _host(gpu, "node-2", health="unreachable")
    _host(gpu, "node-3", drained=True)
    order = orders_bulk(owner=owner, gpu=gpu, count=1, payment_status=PaymentStatus.PAID)[0]
    rental = HostRental.objects.create(order=order, host=healthy, username="r-1", gpu_indices=[0], state="active")
    GpuAllocation.objects.create(host=healthy, index=0, rental=rental)
    now = timezone.now()
    for operation, ok, ms, ago in (("check", True, 200, 60), ("check", True, 800, 60), ("create", False, 3_000, 60)):
        HostOperation.objects.create(
            host=healthy, operation=operation, ok=ok, duration_ms=ms, started_at=now - timedelta(seconds=ago)
        )
    HostOperation.objects.create(
        host=healthy, operation="check", ok=True, duration_ms=100, started_at=now - timedelta(hours=2)
    )

    samples = scrape()

    assert value(samples, "gpurent_hosts", health="healthy", drained="false") == 1
    assert value(samples, "gpurent_hosts", health="healthy", drained="true") == 1
    assert value(samples, "gpurent_hosts", health="unreachable", drained="false") == 1
    assert value(samples, "gpurent_hosts", health="key_changed", drained="false") == 0
    assert value(samples, "gpurent_host_gpus", gpu_model="a100-80gb", state="rented") == 1
    assert value(samples, "gpurent_host_gpus", gpu_model="a100-80gb", state="free") == 2  # cards 1 and 2 of node-1
    assert value(samples, "gpurent_host_gpus", gpu_model="a100-80gb", state="unavailable") == 9
    assert value(samples, "gpurent_host_rentals", state="active") == 1
    calls = "gpurent_host_operations_last_hour"
    assert value(samples, calls, operation="check", outcome="ok") == 2  # the one two hours ago is out of the window
    assert value(samples, calls, operation="create", outcome="failed") == 1
    bucket = "gpurent_host_operation_duration_seconds_bucket"
    assert value(samples, bucket, operation="check", outcome="ok", le="0.25") == 1
    assert value(samples, bucket, operation="check", outcome="ok", le="1.0") == 2
    assert value(samples, "gpurent_host_operation_duration_seconds_gsum", operation="check", outcome="ok") == 1.0


def test_a_scrape_runs_the_same_queries_however_many_rows(scrape, owner, gpu, client):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            scrape()
        return len(captured)

    orders_bulk(owner=owner, gpu=gpu, count=2, prefix="A")
    _host(gpu, "node-first")  # with no host at all, the allocations of none are not even asked for
    few = queries()
    orders = orders_bulk(owner=owner, gpu=gpu, count=60, prefix="B", payment_status=PaymentStatus.PAID)
    intents_bulk(
        orders=orders, asset="USDT", network="tron", status=IntentStatus.CONFIRMED, confirmed_after=timedelta(1)
    )
    for index in range(5):
        _host(gpu, f"node-{index}")
        _task(TaskResultStatus.READY, enqueued_ago=index)
    many = queries()
    assert few == many
    assert many <= 15


def test_the_business_is_counted_once_per_cache_period_whoever_scrapes(scrape, owner, gpu, settings):
    settings.METRICS_BUSINESS_CACHE_SECONDS = 15
    orders_bulk(owner=owner, gpu=gpu, count=2, prefix="A")
    first = scrape()
    orders_bulk(owner=owner, gpu=gpu, count=3, prefix="B")
    with CaptureQueriesContext(connection) as captured:
        again = scrape()
    assert len(captured) == 0
    orders = {"payment_status": "awaiting_payment", "provisioning_status": "not_started", "kind": "rental"}
    assert value(first, "gpurent_orders", **orders) == value(again, "gpurent_orders", **orders) == 2
    settings.METRICS_BUSINESS_CACHE_SECONDS = 0
    assert value(scrape(), "gpurent_orders", **orders) == 5
