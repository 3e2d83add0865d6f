"""GPUs handed out at the same moment, on PostgreSQL (SQLite serializes writers, so nothing races there): two
rentals never share a card, and the stock stays the count of free GPUs while buyers reserve and rentals are
given GPUs at once. No SSH here: the hosts are rows, placement is what is under test."""

from collections import Counter

import pytest
from django.db import connection

from gpurent.catalog.models import GpuModel
from gpurent.core.testing import run_concurrently
from gpurent.hosts.errors import NoHostFree
from gpurent.hosts.models import GpuAllocation, GpuHost, HostRental
from gpurent.hosts.placement import allocation_make, rental_username
from gpurent.hosts.stock import stock_sync
from gpurent.orders.errors import OutOfStock
from gpurent.orders.provisioning import provision_start
from gpurent.orders.services import Contact, order_place

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


def add_host(gpu, name, indices):
    # A registered host as `hosts add` leaves it, its inventory reporting the offered GPUs (no SSH here).
    return GpuHost.objects.create(
        name=name,
        address="127.0.0.1",
        gpu=gpu,
        gpu_indices=indices,
        inventory={
            "gpus": [{"index": index, "name": gpu.name, "memory_mib": gpu.memory_mib_per_card} for index in indices]
        },
        host_key="ssh-ed25519 AAAA",
        host_key_fingerprint="x",
    )


def paid_rentals(django_user_model, gpu, count, lots):
    """`count` orders of `lots` lots, paid and preparing, each with a pending account and no GPUs yet."""
    from gpurent.core.money import Usd
    from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
    from gpurent.payments.services import order_pay_from_balance

    owner = django_user_model.objects.create_user("p@example.com", "long enough passphrase", first_name="P")
    transfer_post(
        reference="deposit:P",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(owner),
        amount=Usd(10_000_000),
    )
    rentals = []
    for _ in range(count):
        order = order_place(
            owner=owner,
            gpu_slug=gpu.slug,
            term_days=3,
            lots=lots,
            environment="ubuntu",
            contact=Contact("P", "U", "p@example.com"),
        )
        order = provision_start(order=order_pay_from_balance(order=order, owner=owner), actor=None)
        rentals.append(HostRental.objects.create(order=order, username=rental_username(order)))
    return rentals


def test_rentals_paid_at_once_never_share_a_gpu(django_user_model, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=100)
    rentals = paid_rentals(django_user_model, gpu, count=6, lots=2)  # 12 GPUs asked for
    add_host(gpu, "node-a", [0, 1, 2, 3])
    add_host(gpu, "node-b", [0, 1, 2, 3])  # 8 GPUs in all

    results = Counter(run_concurrently(6, lambda index: type(allocation_make(rentals[index])).__name__))

    assert results == {"HostRental": 4, NoHostFree.__name__: 2}
    held = list(GpuAllocation.objects.values_list("host_id", "index"))
    assert len(held) == len(set(held)) == 8
    for rental in HostRental.objects.exclude(host=None):
        assert len(rental.gpu_indices) == 2
        assert sorted(rental.allocations.values_list("index", flat=True)) == rental.gpu_indices
    # Two orders still wait for GPUs and hold two lots each: nothing is left to sell.
    assert stock_sync(gpu.pk) == 0


def test_buyers_and_placement_at_once_keep_the_stock_equal_to_the_free_gpus(django_user_model, gpu):
    rentals = paid_rentals(django_user_model, gpu, count=3, lots=1)
    add_host(gpu, "node-a", [0, 1, 2, 3, 4, 5, 6, 7])
    assert stock_sync(gpu.pk) == 5  # 8 free GPUs, 3 paid orders waiting for theirs
    buyers = [
        django_user_model.objects.create_user(f"b{i}@example.com", "long enough passphrase", first_name="B")
        for i in range(8)
    ]

    def act(index):
        if index < 3:
            allocation_make(rentals[index])
            return "placed"
        order_place(
            owner=buyers[index - 3],
            gpu_slug=gpu.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact("B", "U", "b@example.com"),
        )
        return "bought"

    results = Counter(run_concurrently(11, act))

    assert results == {"placed": 3, "bought": 5, OutOfStock.__name__: 3}
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 0
    assert stock_sync(gpu.pk) == 0  # the counter and the count agree
