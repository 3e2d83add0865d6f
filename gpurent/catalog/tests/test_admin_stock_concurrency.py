"""Lots added in the back office while a customer reserves, on PostgreSQL (SQLite serializes writers): the form's
save holds the model's row from the moment it reads the stock, so a reservation made during the save waits for
it and then takes its lots from the new count; neither change is lost (QA walk of the back office, defect 5)."""

import pytest
from django.db import connection
from django.urls import reverse

from gpurent.catalog.models import GpuModel
from gpurent.catalog.services import stock_reserve
from gpurent.catalog.tests.test_admin import posted
from gpurent.core.testing import retry_while_the_first_runs

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


def test_a_reservation_during_the_save_waits_and_both_changes_count(admin_client, gpu):
    url = reverse("admin:catalog_gpumodel_change", args=[gpu.pk])
    page = admin_client.get(url).content.decode()

    saved, reserved, never_waited = retry_while_the_first_runs(
        lambda: admin_client.post(url, posted(gpu, page, stock_change="2")),
        lambda: stock_reserve(gpu_id=gpu.pk, lots=3),
        before='UPDATE "catalog_gpumodel"',  # the form's own save, after it read (and locked) the stock
    )

    assert saved.status_code == 302
    assert reserved is True
    assert not never_waited  # the reservation waited for the form's transaction
    assert GpuModel.objects.get(pk=gpu.pk).stock_lots == 8 + 2 - 3
