from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from conftest import make_gpu
from gpurent.catalog.enums import Term
from gpurent.core.money import Usd

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "field",
    [
        {"stock_lots": -1},
        {"cards_per_lot": 0},
        {"price_3d_cents": 0},
        {"price_7d_cents": 0},
        {"price_30d_cents": 0},
        {"memory_mib_per_card": 0},
    ],
)
def test_gpu_model_constraints_refuse_impossible_values(field):
    # PositiveIntegerField also carries a >= 0 check; the named constraints add > 0 and >= 1 where needed.
    with pytest.raises(IntegrityError), transaction.atomic():
        make_gpu(**field)


def test_gpu_model_stock_cannot_be_driven_below_zero_by_an_update(gpu):
    from django.db.models import F

    from gpurent.catalog.models import GpuModel

    with pytest.raises(IntegrityError), transaction.atomic():
        GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=F("stock_lots") - 9)
    gpu.refresh_from_db()
    assert gpu.stock_lots == 8


def test_gpu_model_lot_price_per_term(gpu):
    assert gpu.lot_price(Term.THREE_DAYS) == Usd(9_500)
    assert gpu.lot_price(7) == Usd(20_500)
    assert gpu.lot_price(Term.MONTH) == Usd(79_000)
    with pytest.raises(ValueError, match="not a rental term"):
        gpu.lot_price(14)


def test_gpu_model_memory_is_shown_per_card_in_gib(b200):
    assert b200.memory_gib_per_card == Decimal("179.1")
