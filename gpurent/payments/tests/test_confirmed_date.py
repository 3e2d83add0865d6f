"""The "Payment confirmed on …" sentence writes its date as every other page does (decision 0401, QA walk: es
showed "6 Dic 2026" next to "6 dic 2026", vi "6 Tháng 12 2026, 01:55" instead of "06/12/2026 01:55")."""

from datetime import UTC, datetime

import pytest
from django.utils import translation

from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.intents.state import intent_state
from gpurent.payments.models import PaymentIntent
from gpurent.payments.received.verification import intent_confirm

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "6 Dec 2026, 01:55"), ("es", "6 dic 2026, 01:55"), ("vi", "06/12/2026 01:55"), ("tr", "6 Ara 2026 01:55")],
)
def test_the_confirmed_date_is_written_as_the_reader_writes_dates(order, customer, language, shown):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tx-1", received_units=intent.amount_units)
    PaymentIntent.objects.filter(pk=intent.pk).update(verified_at=datetime(2026, 12, 6, 1, 55, tzinfo=UTC))
    intent = PaymentIntent.objects.prefetch_related("payments", "chain_observations").get(pk=intent.pk)
    with translation.override(language):
        message = intent_state(intent).message
    assert shown in message, message
