"""Order e-mails count with the language's plural rules (issue 29: "1 lot(s)")."""

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import cast

import pytest
from django.utils import translation

from gpurent.core.money import Usd
from gpurent.orders.models import Order
from gpurent.orders.notifications import _texts


def _order(lots: int) -> Order:
    """The fields the e-mail reads, without a database."""
    when = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)
    gpu = SimpleNamespace(name="A100 80GB")
    order = SimpleNamespace(
        ref="R-1", lots=lots, gpu=gpu, term_days=7, total=Usd(41_000), term_ends_at=None, reserved_until=when
    )
    return cast(Order, order)


@pytest.mark.parametrize(
    ("language", "lots", "text"),
    [("en", 1, "1 lot of"), ("en", 2, "2 lots of"), ("es", 1, "1 lote de"), ("es", 2, "2 lotes de")],
)
def test_the_placed_email_counts_its_lots(language, lots, text):
    with translation.override(language):
        _subject, paragraphs = _texts(_order(lots), "placed", None)
    assert text in paragraphs[0]
    assert "(s)" not in paragraphs[0]
