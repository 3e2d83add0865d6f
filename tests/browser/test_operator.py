"""An operator confirms a reported payment and provisions the order, while the customer's page shows Paid,
then Ready with the access information and the end of the term."""

import re

import pytest
from playwright.sync_api import expect

from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def test_operator_confirms_and_provisions_while_the_customer_watches(
    live_server, browser, demo_catalog, django_user_model
):
    customer = django_user_model.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="L")
    order = order_place(
        owner=customer,
        gpu_slug="h100-80gb",
        term_days=3,
        lots=1,
        environment="pytorch",
        contact=Contact("Ada", "L", "ada@example.com"),
    )
    intent = intent_report(intent=intent_issue_for_order(order=order, owner=customer, asset="USDC", network="ethereum"))

    customer_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    customer_page.goto(live_server.url + "/account/login/")
    customer_page.get_by_label("Email").fill("ada@example.com")
    customer_page.get_by_label("Password").fill(PASSWORD)
    customer_page.get_by_role("button", name="Log in").click()
    customer_page.goto(f"{live_server.url}/rentals/{order.ref}/")
    expect(customer_page.get_by_test_id("intent-reported")).to_be_visible()

    operator = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    operator.goto(live_server.url + "/backoffice/")
    operator.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    operator.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    operator.get_by_role("button", name="Log in").click()
    operator.get_by_role("link", name="Payments desk").click()
    # Its ten columns fit 1280 px beside the filters: none is behind a scroll bar (decision 0541).
    table = operator.locator("#result_list")
    assert table.evaluate("table => table.scrollWidth <= table.parentElement.clientWidth")
    expect(table.get_by_title(intent.address)).to_be_visible()  # shortened, whole on hover
    operator.get_by_role("link", name="reported", exact=True).click()
    expect(operator).to_have_url(re.compile(f"/paymentsdesk/{intent.pk}/change/"))
    expect(operator.get_by_text("170.000000 USDC")).to_be_visible()
    operator.get_by_label("Decision").select_option("confirm")
    operator.get_by_label("Transaction id").fill("0x" + "fe" * 32)
    operator.get_by_label("Amount received (in the asset)").fill("170")
    operator.screenshot(path=str(ARTIFACTS / "operator-verify.png"), full_page=True)
    operator.get_by_role("button", name="Record decision").click()
    expect(operator.locator(".messagelist")).to_contain_text(f"{order.ref} is paid ($170.00 from 170 USDC, D-")

    customer_page.reload()
    expect(customer_page.locator(".status-paid").first).to_have_text("Paid")

    operator.goto(live_server.url + "/backoffice/backoffice/provisioningdesk/")
    operator.get_by_role("link", name=order.ref).click()
    operator.get_by_label("Step").select_option("ready")
    operator.get_by_label("SSH host").fill("h100-3.example.net")
    operator.get_by_label("SSH port").fill("2222")
    operator.get_by_label("SSH user").fill("ubuntu")
    operator.get_by_label("Or a one-time password (shown once to the customer)").fill("first-login-Pw-77")
    operator.get_by_role("button", name="Apply").click()
    expect(operator.locator(".messagelist")).to_contain_text(f"Order {order.ref} updated.")

    customer_page.reload()
    expect(customer_page.locator(".status-ready").first).to_have_text("Ready")
    expect(customer_page.get_by_test_id("access")).to_contain_text("ssh -p 2222 ubuntu@h100-3.example.net")
    expect(customer_page.get_by_test_id("term-left")).to_contain_text(
        re.compile(r"Time left: (2 days and 2[0-9] hours|3 days)")
    )
    customer_page.get_by_role("button", name="Show the one-time password").click()
    expect(customer_page.get_by_test_id("one-time-secret")).to_contain_text("first-login-Pw-77")
    customer_page.screenshot(path=str(ARTIFACTS / "customer-ready.png"), full_page=True)
    customer_page.goto(f"{live_server.url}/rentals/{order.ref}/")
    expect(customer_page.get_by_text("The one-time password was shown once")).to_be_visible()
