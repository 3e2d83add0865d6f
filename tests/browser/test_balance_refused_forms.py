"""The balance page's refused forms in a browser (QA walk): an ambiguous top-up comes back as typed with its error
under the field, a refused withdrawal keeps its address and amount, marks the address and says at once what the
amount would send (or why it cannot be sent); the page opens at the form."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from gpurent.core.formats import usd_text
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.models import Deposit, Payout
from tests.browser.journeys import customer_logs_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_refused_top_up_and_withdrawal_come_back_as_typed(
    live_server, page, demo_catalog, django_user_model, screenshot, console_errors
):
    customer = customer_logs_in(page, live_server.url, django_user_model)
    transfer_post(
        reference="deposit:D-REFUSED",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    page.goto(live_server.url + "/balance/")
    page.get_by_label("Amount (USD)").first.fill("1.000")
    page.get_by_role("button", name="Continue to payment").click()
    expect(page).to_have_url(f"{live_server.url}/balance/top-up/#topup-heading")
    expect(page.get_by_label("Amount (USD)").first).to_have_value("1.000")
    expect(page.locator("#id_amount_usd_error")).to_contain_text('"1000"')
    screenshot("balance-top-up-refused")
    page.get_by_label("Receive in").select_option(label="USDT on Tron (TRC-20)")
    page.get_by_label("Your address on that network").fill("nope")
    page.get_by_label("Amount (USD)").last.fill("50")
    page.get_by_role("button", name="Withdraw").click()
    expect(page).to_have_url(f"{live_server.url}/balance/withdraw/#withdraw-heading")
    expect(page.get_by_label("Your address on that network")).to_have_value("nope")
    expect(page.get_by_label("Amount (USD)").last).to_have_value("50")
    expect(page.locator("#payout_address_error")).to_contain_text("not a valid")
    net = usd_text(Usd(5_000 - settings.PAYOUTS_FEE_CENTS))
    expect(page.get_by_test_id("payout-net")).to_contain_text(net)
    screenshot("balance-withdrawal-refused")
    # Never a "You receive …" for an amount that cannot be sent (QA walk 2): it says why instead.
    minimum = usd_text(Usd(settings.PAYOUTS_MIN_CENTS))
    page.get_by_label("Amount (USD)").last.fill("5")
    expect(page.get_by_test_id("payout-net")).to_have_text(
        f"Below the smallest withdrawal of {minimum}: nothing can be sent."
    )
    page.get_by_label("Amount (USD)").last.fill("500")
    expect(page.get_by_test_id("payout-net")).to_have_text(
        f"More than the {usd_text(Usd(10_000))} you can withdraw now."
    )
    page.get_by_label("Amount (USD)").last.fill("50")
    expect(page.get_by_test_id("payout-net")).to_contain_text(net)
    assert not Deposit.objects.exists()
    assert not Payout.objects.exists()
    # Chromium logs each 422 answer (the refused form's page) as a failed load; nothing else may be logged.
    assert [error for error in console_errors if "status of 422" not in error] == []
