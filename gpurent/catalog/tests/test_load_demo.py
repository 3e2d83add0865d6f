import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL
from gpurent.catalog.models import GpuModel
from gpurent.glossary.terms import term_get

pytestmark = pytest.mark.django_db


def test_load_demo_twice_keeps_one_catalog_and_the_stock_orders_may_hold(settings):
    call_command("load_demo", stdout=io.StringIO())
    GpuModel.objects.filter(slug="h100-80gb").update(stock_lots=1)  # e.g. lots reserved by orders
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert GpuModel.objects.count() == 7
    assert GpuModel.objects.get(slug="h100-80gb").stock_lots == 1
    assert "0 GPU models created, 7 brought up to date" in out.getvalue()
    assert get_user_model().objects.filter(email=DEMO_OPERATOR_EMAIL, is_staff=True).count() == 1


def test_load_demo_never_creates_the_demo_operator_where_settings_forbid_it(settings):
    settings.DEMO_OPERATOR_ENABLED = False
    call_command("load_demo", stdout=io.StringIO())
    assert not get_user_model().objects.filter(email=DEMO_OPERATOR_EMAIL).exists()


def test_load_demo_catalog_is_realistic(demo_catalog):
    gpus = {gpu.slug: gpu for gpu in GpuModel.objects.all()}
    assert gpus["b200-2x180gb"].cards_per_lot == 2
    for gpu in gpus.values():
        # Longer terms cost more in total but less per day.
        assert gpu.price_3d_cents < gpu.price_7d_cents < gpu.price_30d_cents
        assert gpu.price_30d_cents / 30 < gpu.price_7d_cents / 7 < gpu.price_3d_cents / 3
        assert all(term_get(slug) is not None for slug in gpu.glossary_terms), gpu.slug


@pytest.mark.django_db
def test_the_demo_operator_is_in_the_roles_whose_emails_it_should_get(settings):
    settings.DEMO_OPERATOR_ENABLED = True
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())  # idempotent
    operator = get_user_model().objects.get(email=DEMO_OPERATOR_EMAIL)
    assert {"payments", "provisioning", "payouts"} <= set(operator.groups.values_list("name", flat=True))
