"""Workload guides in a real browser: index filters, a guide page, the estimator link and a guest quote request."""

import re

import pytest
from django.conf import settings
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_guide_to_estimator_and_quote_request(live_server, page, demo_catalog, screenshot, console_errors):
    page.set_viewport_size({"width": 1360, "height": 900})
    page.goto(live_server.url + "/guides/")
    expect(page.get_by_role("heading", name="Which GPU for your workload, at which stage?")).to_be_visible()
    page.get_by_label("GPU").select_option("a100-80gb")
    page.get_by_label("Workload").select_option("vision-finetuning")
    page.get_by_role("button", name="Show guides").click()
    expect(page.get_by_test_id("guide-count")).to_have_text("3 guides")
    screenshot("guides-index")

    page.get_by_role("link", name="Proof of concept").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "A100 80GB for vision-model fine-tuning: proof of concept"
    )
    expect(page.get_by_test_id("figure-fit")).to_contain_text("Yes, on 1 lot")
    expect(page.get_by_test_id("decision-table").locator("tr[data-gpu='a100-80gb']")).to_contain_text("this guide")
    screenshot("guide-detail")

    page.get_by_test_id("open-estimator").click()
    expect(page).to_have_url(re.compile(r"/estimate/\?preset=vit-base-patch16-224&workload=vision_finetune"))
    expect(page.get_by_label("Model preset")).to_have_value("vit-base-patch16-224")
    expect(page.locator("tr[data-gpu='a100-80gb']").get_by_test_id("lots")).to_contain_text("1 lot")
    page.go_back()

    form = page.get_by_test_id("quote-form")
    form.get_by_label("Support level").select_option("assisted")
    form.get_by_label("Expected request load").fill("One training run a week on 50,000 images.")
    form.get_by_label("Sample data (optional)").fill("image_0001.jpg,cat")
    form.get_by_label("Contact email").fill("guest@example.com")
    form.get_by_role("button", name="Send the quote request").click()
    expect(page).to_have_url(re.compile(r"/guides/quotes/[0-9a-f-]{36}/$"))
    expect(
        page.get_by_text("Quote request received. A confirmation is on its way to guest@example.com.")
    ).to_be_visible()
    expect(page.get_by_test_id("quote-summary")).to_contain_text("vit-base-patch16-224")
    screenshot("guide-quote-sent")
    assert console_errors == []


def test_guide_phone_layout_and_glossary_link(live_server, page, demo_catalog, screenshot, console_errors):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/guides/h100-80gb/llm-serving/production/")
    expect(page.get_by_test_id("figure-concurrency")).to_contain_text("requests at 8,192 tokens")
    screenshot("guide-serving-phone")
    page.get_by_test_id("figure-concurrency").get_by_role("link", name="KV cache").click()
    expect(page).to_have_url(re.compile(r"/glossary/#kv-cache$"))
    assert console_errors == []


@pytest.mark.parametrize("language", ["en", "es", "vi", "tr"])
def test_the_guides_index_fits_a_phone_with_each_model_named_once(live_server, page, demo_catalog, language):
    """At 390 px the tables fit their 316 px without scrolling sideways (Spanish was 396 px wide), and a column's
    model is written once under its heading, not under every link (the Vietnamese page was 9,157 px long; QA walk,
    decision 0563)."""
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/guides/")
    tables = page.evaluate(
        """() => [...document.querySelectorAll('.guide-table')].map(t => ({
            width: t.getBoundingClientRect().width, room: t.parentElement.clientWidth,
            headings: t.querySelectorAll('thead .guide-model').length,
            cells: t.querySelectorAll('td .guide-model').length,
        }))"""
    )
    assert tables
    for table in tables:
        assert table["width"] <= table["room"] + 0.5, table
        assert (table["headings"], table["cells"]) == (3, 0), table
