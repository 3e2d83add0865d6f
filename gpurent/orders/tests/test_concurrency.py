"""Concurrency on PostgreSQL: the only database where these tests mean something (SQLite serializes writers)."""

from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from gpurent.catalog.models import GpuModel
from gpurent.core.testing import run_concurrently
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.errors import OutOfStock
from gpurent.orders.models import Order, OrderStatusChange
from gpurent.orders.services import Contact, order_place, orders_expire_due

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


def test_order_place_thirty_buyers_for_five_lots_sell_exactly_five(django_user_model, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=5)
    buyers = [
        django_user_model.objects.create_user(
            f"b{i}@example.com", "long enough passphrase", first_name="B", last_name="U"
        )
        for i in range(30)
    ]

    def buy(index):
        order_place(
            owner=buyers[index],
            gpu_slug=gpu.slug,
            term_days=7,
            lots=1,
            environment="ubuntu",
            contact=Contact("B", "U", f"b{index}@example.com"),
        )
        return "ok"

    results = Counter(run_concurrently(30, buy))
    assert results == {"ok": 5, OutOfStock.__name__: 25}
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0
    assert Order.objects.count() == 5


def test_orders_expire_due_from_two_machines_at_once_expires_each_order_once(django_user_model, gpu):
    owner = django_user_model.objects.create_user(
        "a@example.com", "long enough passphrase", first_name="A", last_name="B"
    )
    for _ in range(6):
        order_place(
            owner=owner,
            gpu_slug=gpu.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact("A", "B", "a@x.io"),
        )
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 2
    later = timezone.now() + timedelta(days=2)
    results = run_concurrently(4, lambda _: orders_expire_due(now=later))
    assert sum(results) == 6
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 8
    assert Order.objects.filter(payment_status=PaymentStatus.EXPIRED).count() == 6
    assert OrderStatusChange.objects.filter(to_status="expired").count() == 6


def test_orders_api_concurrent_requests_with_one_key_place_one_order(django_user_model, gpu):
    from django.test import Client

    from gpurent.accounts.services import api_token_create

    owner = django_user_model.objects.create_user("k@example.com", "passphrase 12", first_name="K", last_name="E")
    _, secret = api_token_create(user=owner, name="race")
    body = {"gpu": gpu.slug, "term_days": 7, "lots": 1, "environment": "ubuntu"}

    def post(_):
        response = Client().post(
            "/api/v1/orders",
            body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {secret}",
            HTTP_IDEMPOTENCY_KEY="same-key",
        )
        return response.status_code

    statuses = Counter(run_concurrently(10, post))
    assert set(statuses) <= {201, 409}
    assert statuses[201] >= 1
    assert Order.objects.count() == 1
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 7
