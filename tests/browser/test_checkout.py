"""The customer journey: catalog → choice → account → summary → order → My rentals, in real Chromium."""

import re

import pytest
from playwright.sync_api import Page, expect

from gpurent.catalog.models import GpuModel
from gpurent.orders.models import Order

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"


def choose_two_b200_for_a_week(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    card = page.locator("article[data-gpu='b200-2x180gb']")
    card.get_by_label(re.compile("^Lots")).fill("2")
    expect(card.get_by_test_id("quote-total")).to_have_text("$3,400.00")
    card.get_by_role("button", name="Rent B200 (2 × 180GB)").click()
    expect(page.get_by_role("heading", name="What would you like to rent?")).to_be_visible()
    expect(page.get_by_label("GPU")).to_have_value("b200-2x180gb")
    expect(page.get_by_label("7 days")).to_be_checked()
    expect(page.get_by_label("Lots")).to_have_value("2")
    page.locator("label.term-option", has_text="PyTorch").click()


def test_guest_rents_two_b200_registers_and_finds_the_order(
    live_server, page, demo_catalog, screenshot, console_errors
):
    choose_two_b200_for_a_week(page, live_server.url)
    screenshot("checkout-1-choice")
    page.get_by_role("button", name="Continue").click()

    expect(page.get_by_role("heading", name="Create account")).to_be_visible()
    screenshot("checkout-2-account")
    register = page.locator("section", has=page.get_by_role("heading", name="Create account"))
    register.get_by_label("First name").fill("Grace")
    register.get_by_label("Last name").fill("Hopper")
    register.get_by_label("Email").fill("grace@example.com")
    register.get_by_label("Password").fill(PASSWORD)
    register.get_by_role("button", name="Create account and continue").click()

    expect(page.get_by_role("heading", name="Check your order")).to_be_visible()
    expect(page.get_by_test_id("summary-cards")).to_contain_text("4 GPUs")
    expect(page.get_by_test_id("summary-total")).to_have_text("$3,400.00")
    expect(page.get_by_label("Contact email")).to_have_value("grace@example.com")
    expect(page.get_by_text("Stopping the machine does not pause or extend the term.")).to_be_visible()
    screenshot("checkout-3-summary")
    page.get_by_role("button", name=re.compile("^Place order")).click()

    expect(page.get_by_role("heading", name=re.compile(r"^Order R-"))).to_be_visible()
    expect(page.get_by_test_id("order-total")).to_have_text("$3,400.00")
    screenshot("order-page")
    order = Order.objects.get()
    assert (order.owner.email, order.lots, order.cards, order.total_cents) == ("grace@example.com", 2, 4, 340_000)
    assert GpuModel.objects.get(slug="b200-2x180gb").stock_lots == 0

    page.get_by_role("link", name="My rentals").first.click()
    expect(page.get_by_role("link", name=order.ref)).to_be_visible()
    screenshot("my-rentals")
    assert console_errors == []


def test_guest_logging_in_at_the_account_step_keeps_the_choice(live_server, page, demo_catalog, django_user_model):
    django_user_model.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="Lovelace")
    choose_two_b200_for_a_week(page, live_server.url)
    page.get_by_role("button", name="Continue").click()
    login = page.locator("section", has=page.get_by_role("heading", name="I already have an account"))
    login.get_by_label("Email").fill("ada@example.com")
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in and continue").click()
    expect(page.get_by_test_id("summary-total")).to_have_text("$3,400.00")
    expect(page.get_by_label("First name")).to_have_value("Ada")


def test_guest_choice_in_one_browser_never_reaches_an_account_made_in_another(live_server, browser, demo_catalog):
    first = browser.new_context().new_page()
    choose_two_b200_for_a_week(first, live_server.url)
    first.get_by_role("button", name="Continue").click()
    expect(first.get_by_role("heading", name="Create account")).to_be_visible()

    second = browser.new_context().new_page()
    second.goto(live_server.url + "/account/register/")
    second.get_by_label("First name").fill("Grace")
    second.get_by_label("Last name").fill("Hopper")
    second.get_by_label("Email").fill("grace@example.com")
    second.get_by_label("Password").fill(PASSWORD)
    second.get_by_role("button", name=re.compile("^Create account")).click()
    second.goto(live_server.url + "/checkout/summary/")
    expect(second.get_by_role("heading", name="What would you like to rent?")).to_be_visible()
    expect(second.get_by_label("GPU")).not_to_have_value("b200-2x180gb")
    second.goto(live_server.url + "/rentals/")
    expect(second.get_by_text("No rentals yet")).to_be_visible()
    assert not Order.objects.exists()
