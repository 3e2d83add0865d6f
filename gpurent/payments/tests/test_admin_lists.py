"""Deposits and exchange rates in the back office (QA walk of the back office, defect 19): money as money, owners by
e-mail, rates per coin, moments as the desks write them."""

import html
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from gpurent.payments.models import Deposit, ExchangeRate

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@shop.example", "long enough passphrase", is_staff=True)


def table(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode()).split('id="result_list"', 1)[1].split("</table>", 1)[0]


def test_deposits_show_requested_and_credited_as_money_and_their_moment(client, operator, customer):
    Deposit.objects.create(ref="D-68KT-V8RC", owner=customer, kind="top_up", requested_cents=170_000)
    Deposit.objects.create(
        ref="D-9KQ5-YNYQ",
        owner=customer,
        kind="order_payment",
        status="credited",
        credited_cents=6_200,
        credited_at=datetime(2026, 12, 6, 17, 5, tzinfo=UTC),
    )
    Deposit.objects.filter(ref="D-68KT-V8RC").update(created_at=datetime(2026, 12, 6, 17, 1, tzinfo=UTC))
    client.force_login(operator)
    listed = table(client, "/backoffice/payments/deposit/")
    assert '<td class="field-requested">$1,700.00</td>' in listed
    assert '<td class="field-credited">$62.00</td>' in listed
    assert "06 Dec 2026, 17:01 UTC" in listed
    assert "170000" not in listed
    assert "(cents)" not in listed
    assert '<span class="email-part">pay</span><wbr><span class="email-part">@example.com</span>' in listed


def test_exchange_rates_read_per_coin_with_their_moment(client, operator):
    as_of = datetime(2026, 12, 6, 17, 0, tzinfo=UTC)
    ExchangeRate.objects.create(asset="BTC", usd_per_unit=Decimal("97000"), source="an exchange", as_of=as_of)
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("0.9998"), source="an exchange", as_of=as_of)
    client.force_login(operator)
    listed = table(client, "/backoffice/payments/exchangerate/")
    assert '<td class="field-rate">1 BTC = 97,000 USD</td>' in listed
    assert '<td class="field-rate">1 USDT = 0.9998 USD</td>' in listed
    assert '<td class="field-as_of_shown">06 Dec 2026, 17:00 UTC</td>' in listed
    assert "field-usd_per_unit" not in listed
    assert "97000.000000000000" not in listed  # not even in a row's label ("BTC = 97000 USD (…)")
    assert "p.m." not in listed
