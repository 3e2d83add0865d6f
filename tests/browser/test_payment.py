"""From an order's payment section to "Payment reported", then an operator's confirmation: paid, with the
credit and the debit on the balance page."""

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from gpurent.payments.models import PaymentIntent
from tests.browser.journeys import customer_on_an_unpaid_order, payment_instructions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_report_survives_a_reload_and_confirmation_pays_the_order(
    live_server, page, demo_catalog, django_user_model, screenshot, console_errors
):
    _customer, order = customer_on_an_unpaid_order(page, live_server.url, django_user_model)

    intent = payment_instructions(page, "USDT on Tron (TRC-20)")
    expect(intent.get_by_test_id("intent-amount")).to_have_text("410.000000")
    expect(intent).to_contain_text("Send only USDT on the Tron network")
    expect(intent.locator("time.countdown")).to_contain_text(re.compile(r"\d+:\d\d"))
    expect(intent.locator("svg")).to_be_visible()
    screenshot("payment-instructions")

    intent.get_by_role("button", name="I have sent the payment").click()
    expect(page.get_by_test_id("intent-reported")).to_have_text("Payment reported. Awaiting verification.")
    page.reload()
    expect(page.get_by_test_id("intent-reported")).to_have_text("Payment reported. Awaiting verification.")
    screenshot("payment-reported")

    # The operator checks the chain and confirms (same service as the back office).
    record = PaymentIntent.objects.get()
    call_command("confirm_payment", str(record.pk), "--txid", "a1" * 32, "--amount", "410", stdout=io.StringIO())

    page.reload()
    expect(page.locator(".status-paid").first).to_have_text("Paid")
    expect(page.get_by_test_id("ledger-refs")).to_contain_text(f"Order {order.ref}")
    page.get_by_role("link", name="Balance", exact=True).click()
    ledger = page.get_by_test_id("ledger")
    expect(ledger).to_contain_text("+$410.00")
    expect(ledger).to_contain_text("−$410.00")
    expect(page.get_by_test_id("balance")).to_contain_text("$0.00")
    screenshot("balance-after-payment")
    assert console_errors == []
