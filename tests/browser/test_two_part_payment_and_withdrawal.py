"""Issue 10 in a browser: an order paid in two parts (the service confirms the first, an operator the second on
the payments desk), and a withdrawal asked for on the balance page and marked sent on the payouts desk."""

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD
from gpurent.core.formats import usd_text
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.payments.models import PaymentIntent, Payout
from tests.browser.conftest import ARTIFACTS
from tests.browser.journeys import customer_logs_in, customer_on_an_unpaid_order, payment_instructions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def desk_shot(desk, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    desk.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def operator_page(browser, base):
    """The demo operator (in the payments and payouts roles) in a browser context of its own."""
    page = browser.new_context().new_page()
    page.goto(base + "/backoffice/")
    page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    page.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


def test_an_order_paid_in_two_parts(
    live_server, page, browser, demo_catalog, django_user_model, screenshot, console_errors
):
    _customer, order = customer_on_an_unpaid_order(page, live_server.url, django_user_model)
    intent = payment_instructions(page, "USDT on Tron (TRC-20)")
    expect(intent.get_by_test_id("intent-amount")).to_have_text("410.000000")

    # Part 1: 150 USDT, confirmed through the service (as the command line or a watcher does).
    record = PaymentIntent.objects.get()
    call_command("confirm_payment", str(record.pk), "--txid", "b2" * 32, "--amount", "150", stdout=io.StringIO())
    page.reload()
    expect(intent.get_by_test_id("intent-received")).to_contain_text("Received 150 of 410 USDT")
    expect(intent.get_by_test_id("intent-amount")).to_have_text("260.000000")  # what is still due
    expect(page.locator(".status-paid")).to_have_count(0)
    screenshot("two-part-payment-after-part-1")

    # Part 2: the rest, confirmed by an operator on the payments desk.
    desk = operator_page(browser, live_server.url)
    desk.goto(f"{live_server.url}/backoffice/backoffice/paymentsdesk/{record.pk}/change/")
    expect(desk.locator("body")).to_contain_text("b2" * 32)
    desk.get_by_label("Decision").select_option("confirm")
    desk.get_by_label("Transaction id").fill("c3" * 32)
    desk.get_by_label("Amount received (in the asset)").fill("260")
    desk.get_by_role("button", name="Record decision").click()
    expect(desk.locator(".messagelist")).to_contain_text(f"{order.ref} is paid ($260.00 from 260 USDT, D-")
    desk_shot(desk, "two-part-payment-desk")

    page.reload()
    expect(page.locator(".status-paid").first).to_have_text("Paid")
    refs = page.get_by_test_id("ledger-refs")
    expect(refs).to_contain_text(f"Order {order.ref}")
    screenshot("two-part-payment-paid")
    assert Order.objects.get(pk=order.pk).payment_status == "paid"
    assert sorted(record.payments.values_list("txid", flat=True)) == ["b2" * 32, "c3" * 32]
    assert console_errors == []


def test_a_withdrawal_asked_for_and_marked_sent_on_the_payouts_desk(
    live_server, page, browser, demo_catalog, django_user_model, screenshot, console_errors
):
    customer = customer_logs_in(page, live_server.url, django_user_model)
    transfer_post(
        reference="deposit:D-BROWSER",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    page.goto(live_server.url + "/balance/")
    expect(page.get_by_test_id("available")).to_have_text("$100.00")
    page.get_by_label("Receive in").select_option(label="USDT on Tron (TRC-20)")
    page.get_by_label("Your address on that network").fill(TRON)
    page.get_by_label("Amount (USD)").last.fill("50")
    net = usd_text(Usd(5_000 - settings.PAYOUTS_FEE_CENTS))
    expect(page.get_by_test_id("payout-net")).to_have_text(
        f"You receive {net}: the amount minus the fee of {usd_text(Usd(settings.PAYOUTS_FEE_CENTS))}."
    )
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator(".messages")).to_contain_text("requested")
    payout = Payout.objects.get()
    row = page.get_by_test_id(f"payout-{payout.ref}")
    expect(row).to_contain_text("Requested")
    expect(page.get_by_test_id("ledger")).to_contain_text(f"Withdrawal {payout.ref}")
    expect(page.get_by_test_id("balance")).to_contain_text("$50.00")
    screenshot("withdrawal-requested")

    desk = operator_page(browser, live_server.url)
    desk.get_by_role("link", name="Payouts desk").first.click()
    desk.get_by_role("link", name=payout.ref).click()
    expect(desk.get_by_test_id("payout-address")).to_have_text(TRON)
    expect(desk.get_by_test_id("to-send")).to_contain_text("$49.00")
    desk.get_by_label("Decision").select_option("sent")
    desk.get_by_label("Transaction id").fill("d4" * 32)
    desk.get_by_label("Amount sent (in the asset)").fill("49")
    desk.get_by_role("button", name="Record decision").click()
    expect(desk.locator(".messagelist")).to_contain_text(
        f"{payout.ref} marked sent: 49.000000 USDT to {customer.email} ($49.00 after the fee)"
    )
    desk_shot(desk, "withdrawal-payouts-desk")

    page.reload()
    expect(row).to_contain_text("Sent")
    expect(row).to_contain_text("d4" * 32)
    screenshot("withdrawal-sent")
    assert Payout.objects.get().status == "sent"
    assert console_errors == []
