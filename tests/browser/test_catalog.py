import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_catalog_term_and_lots_update_the_total_live(live_server, page, demo_catalog, screenshot, console_errors):
    page.goto(live_server.url + "/")
    expect(page.get_by_role("heading", name="Rent GPUs for 3, 7 or 30 days")).to_be_visible()
    screenshot("catalog")

    card = page.locator("article[data-gpu='b200-2x180gb']")
    expect(card.get_by_text("2 cards per lot")).to_be_visible()
    total = card.get_by_test_id("quote-total")
    expect(total).to_have_text("$1,700.00")

    # Count full page loads: the total must change without one.
    loads = []
    page.on("load", lambda _: loads.append(1))
    card.locator("label.term-option", has_text="30 days").click()
    expect(total).to_have_text("$6,600.00")
    card.get_by_label(re.compile("^Lots")).fill("2")
    expect(total).to_have_text("$13,200.00")
    expect(card.get_by_test_id("quote-cards")).to_contain_text("4 GPUs")
    assert loads == []
    screenshot("catalog-b200-two-lots")

    card.get_by_label(re.compile("^Lots")).fill("12")
    expect(card.locator(".quote-error")).to_have_text("An order holds at most 10 lots.")
    assert console_errors == []


def test_catalog_keyboard_only_customer_can_change_the_term(live_server, page, demo_catalog):
    page.goto(live_server.url + "/")
    card = page.locator("article[data-gpu='a100-80gb']")
    card.get_by_label("3 days").focus()
    page.keyboard.press("ArrowRight")  # radio groups move with the arrow keys
    expect(card.get_by_label("7 days")).to_be_checked()
    card.get_by_label("7 days").focus()
    page.keyboard.press("ArrowRight")
    expect(card.get_by_test_id("quote-total")).to_have_text("$790.00")


def test_catalog_on_a_phone_and_the_gpu_page(live_server, page, demo_catalog, screenshot, console_errors):
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("/", "/estimate/", "/guides/", "/glossary/"):
        page.goto(live_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{path} scrolls sideways on a phone"
    page.goto(live_server.url + "/")
    screenshot("catalog-phone")
    page.get_by_role("link", name="H100 80GB").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("H100 80GB")
    expect(page.get_by_role("link", name="Tensor parallelism")).to_be_visible()
    screenshot("gpu-h100-phone")
    page.get_by_role("link", name="KV cache").click()
    expect(page).to_have_url(re.compile(r"/glossary/#kv-cache$"))
    expect(page.locator("#kv-cache")).to_be_in_viewport()
    screenshot("glossary-phone", full_page=False)
    assert console_errors == []


def test_api_docs_render_under_the_content_security_policy(live_server, page, console_errors):
    page.goto(live_server.url + "/api/v1/docs")
    # Swagger UI is a 1 MB bundle that then fetches and renders the whole OpenAPI document: on a loaded
    # 2-core CI machine that took longer than the default 5 s wait (the page was still "loading").
    expect(page.get_by_text("/api/v1/catalog")).to_be_visible(timeout=30_000)
    assert console_errors == []


def test_api_docs_are_laid_out_for_a_phone(live_server, browser):
    # Without a viewport meta tag a phone lays the page out 980 px wide and shrinks it to a third.
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(live_server.url + "/api/v1/docs")
    expect(page.get_by_text("/api/v1/catalog")).to_be_visible(timeout=30_000)
    assert page.evaluate("[document.documentElement.clientWidth, document.documentElement.scrollWidth]") == [390, 390]
    context.close()


def test_language_switcher_on_a_page_without_token_fetches_one_and_switches(
    live_server, page, demo_catalog, console_errors
):
    page.goto(live_server.url + "/gpus/h100-80gb/")
    assert [cookie["name"] for cookie in page.context.cookies()] == []  # the page set no CSRF cookie
    page.get_by_role("button", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    assert page.url == live_server.url + "/gpus/h100-80gb/"
    assert console_errors == []


def test_the_catalog_filters_are_tap_sized_on_a_phone(live_server, page, demo_catalog):
    # The price field is a text input with a decimal keypad; styled only as a number input it was 21 px tall.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    heights = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.catalog-filters select, .catalog-filters input')]"
        ".filter((e) => e.type !== 'checkbox').map((e) => [e.name, e.getBoundingClientRect().height]))"
    )
    assert set(heights) == {"memory", "vendor", "stack", "term", "max_price", "sort"}
    assert min(heights.values()) >= 32, heights
