"""Issue 26's "done when", as an operator and a customer go through it: a test host is started and registered
with `manage.py hosts add`, a customer pays, the order is Ready with no person involved, the rental page shows
the `ssh` command, the customer logs in with their key, and after the sweep runs past the term end (a later
clock) the same `ssh` is refused and the GPUs are back in stock."""

import shlex
from datetime import timedelta

import pytest
from django.urls import reverse

from conftest import place_with_keys, register_test_host
from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import ProvisioningStatus
from gpurent.orders.models import Order
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db


def test_a_paid_order_is_ready_with_no_person_and_the_sweep_closes_it_at_the_term_end(
    client, test_host, gpu, host_buyer, customer_key, django_capture_on_commit_callbacks
):
    register_test_host(test_host, gpu, name="demo-node", gpus="0,1,2,3")
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 4

    order = place_with_keys(host_buyer, gpu, lots=1, term_days=3)
    with django_capture_on_commit_callbacks(execute=True):
        order_pay_from_balance(order=order, owner=host_buyer)
    order = Order.objects.get(pk=order.pk)
    assert order.provisioning_status == ProvisioningStatus.READY

    client.force_login(host_buyer)
    page = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    command = order.access.ssh_command
    assert command in page
    _ssh, _p, port, target = shlex.split(command)
    username = target.split("@")[0]
    assert int(port) == test_host.port
    assert test_host.ssh(username, customer_key, "whoami").stdout.strip() == username

    assert order.term_ends_at is not None
    sweep_once(now=order.term_ends_at + timedelta(minutes=1))

    assert Order.objects.get(pk=order.pk).provisioning_status == ProvisioningStatus.ENDED
    assert test_host.ssh(username, customer_key, "whoami").returncode == 255  # refused
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 4
