"""Steps several browser tests take the same way: a new customer logs in, an unpaid order's page, asking for
payment instructions. Written once so that a change to the login form or the payment section is made once."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

PASSWORD = "correct horse battery staple"
EMAIL = "ada@example.com"


def customer_logs_in(page: Page, base_url: str, django_user_model: Any) -> Any:
    """Ada, a new customer, logged in on `page`."""
    customer = django_user_model.objects.create_user(EMAIL, PASSWORD, first_name="Ada", last_name="L")
    page.goto(base_url + "/account/login/")
    page.get_by_label("Email").fill(EMAIL)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return customer


def customer_on_an_unpaid_order(page: Page, base_url: str, django_user_model: Any) -> tuple[Any, Order]:
    """Ada logged in, on the page of her unpaid order: 2 lots of A100 80GB for 7 days, PyTorch ($410.00)."""
    customer = customer_logs_in(page, base_url, django_user_model)
    order = order_place(
        owner=customer,
        gpu_slug="a100-80gb",
        term_days=7,
        lots=2,
        environment="pytorch",
        contact=Contact("Ada", "L", EMAIL),
    )
    page.goto(f"{base_url}/rentals/{order.ref}/")
    return customer, order


def payment_instructions(page: Page, pair_label: str) -> Locator:
    """Ask the order page for instructions in `pair_label` ("USDT on Tron (TRC-20)"); the intent's section."""
    page.get_by_label("Pay with").select_option(label=pair_label)
    page.get_by_role("button", name="Get payment instructions").click()
    return page.get_by_test_id("intent")
