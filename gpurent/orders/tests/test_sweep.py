import io
from datetime import timedelta

import pytest
from django.core.management import call_command

from gpurent.catalog.models import GpuModel
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db


def test_sweep_command_expires_overdue_orders_and_is_idempotent(gpu, django_user_model):
    owner = django_user_model.objects.create_user("s@example.com", "passphrase 12", first_name="S", last_name="W")
    order = order_place(
        owner=owner, gpu_slug=gpu.slug, term_days=7, lots=2, environment="ubuntu", contact=Contact("S", "W", "s@x.io")
    )
    Order.objects.filter(pk=order.pk).update(reserved_until=order.reserved_until - timedelta(days=2))
    first, second = io.StringIO(), io.StringIO()
    call_command("sweep", stdout=first)
    call_command("sweep", stdout=second)
    assert "1 unpaid orders expired" in first.getvalue()
    assert "0 unpaid orders expired" in second.getvalue()
    assert Order.objects.get().payment_status == "expired"
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 8
