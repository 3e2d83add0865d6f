"""The balance page reads what it shows live in one statement (decision 0499): the same figures as
`balance_figures` (the API's and the withdrawal check's), the ledger account `ledger_lines_for` reads, and the
pending top-ups `top_ups_refusal` counts, on SQLite and PostgreSQL."""

import pytest
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.balance.figures import balance_figures, balance_page_figures
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.intents.refusals import top_ups_refusal, top_ups_refusal_at
from gpurent.payments.services import deposit_create

from .conftest import later

pytestmark = pytest.mark.django_db


def assert_as_the_rules_read(owner, now) -> None:
    page = balance_page_figures(owner, now=now)
    assert page.figures == balance_figures(owner, now=now)
    account = LedgerAccount.objects.filter(code=f"customer:{owner.pk}").values_list("pk", flat=True).first()
    assert page.account_id == account
    rule, counted = top_ups_refusal(owner.pk, now=now), top_ups_refusal_at(page.pending_top_ups)
    assert type(rule) is type(counted)


def test_a_customer_without_a_movement_has_no_account_and_nothing_held(customer):
    page = balance_page_figures(customer, now=timezone.now())
    assert (page.account_id, page.figures.balance, page.figures.held, page.pending_top_ups) == (None, Usd(0), Usd(0), 0)
    assert_as_the_rules_read(customer, timezone.now())


def test_the_balance_and_the_largest_open_share_of_each_order_until_it_expires(customer, order, settings):
    settings.PAYMENTS_MAX_OPEN_INTENTS = 5
    transfer_post(
        reference="deposit:D-PAGE",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    for asset, network in [("USDT", "tron"), ("BTC", "bitcoin")]:  # two open intents: the share is held once
        intent_issue_for_order(order=order, owner=customer, asset=asset, network=network)
    page = balance_page_figures(customer, now=timezone.now())
    assert (page.figures.balance, page.figures.held, page.figures.spendable) == (Usd(10_000), Usd(10_000), Usd(0))
    assert page.account_id is not None
    assert_as_the_rules_read(customer, timezone.now())
    assert balance_page_figures(customer, now=later()).figures.held == Usd(0)
    assert_as_the_rules_read(customer, later())


def test_the_pending_top_ups_counted_up_to_the_limit_within_their_window(customer, settings):
    settings.PAYMENTS_MAX_PENDING_TOP_UPS = 2
    assert balance_page_figures(customer, now=timezone.now()).pending_top_ups == 0
    deposit_create(owner=customer, amount=Usd(1_000))
    assert balance_page_figures(customer, now=timezone.now()).pending_top_ups == 1
    assert_as_the_rules_read(customer, timezone.now())
    deposit_create(owner=customer, amount=Usd(1_000))
    settings.PAYMENTS_MAX_PENDING_TOP_UPS = 1  # more than the limit: counted no further
    page = balance_page_figures(customer, now=timezone.now())
    assert page.pending_top_ups == 1
    assert top_ups_refusal_at(page.pending_top_ups) is not None
    assert_as_the_rules_read(customer, timezone.now())
    hours = settings.PAYMENTS_TOP_UP_HOURS
    past_the_window = balance_page_figures(customer, now=later(minutes=60 * hours + 1))
    assert past_the_window.pending_top_ups == 0
    assert_as_the_rules_read(customer, later(minutes=60 * hours + 1))
