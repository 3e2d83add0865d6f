"""The operator's dashboard in Chromium at 1280 and 390 px, on a few months of generated history: four charts
drawn, none wider than the screen, the page not wider than the screen, no console (CSP) error. Screenshots:
artifacts/dashboard-1280.png and artifacts/dashboard-390.png."""

import importlib
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BENCH = Path(__file__).resolve().parents[2] / "bench"
SIZES = "[...document.querySelectorAll('svg.dashboard-svg')].map(svg => svg.getBoundingClientRect().right)"


def test_the_dashboard_fits_a_phone_and_a_desktop(
    live_server, page, demo_catalog, screenshot, console_errors, monkeypatch
):
    monkeypatch.syspath_prepend(str(BENCH))
    importlib.import_module("dashboard_history").history_generate(orders=300, ledger_lines=3_000, now=timezone.now())
    page.goto(live_server.url + "/backoffice/")
    page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    page.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Business dashboard").click()
    page.get_by_label("Period", exact=True).select_option("90")
    page.get_by_role("button", name="Show").click()
    expect(page.get_by_role("heading", name="Revenue by term · per day")).to_be_visible()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        expect(page.get_by_role("img", name="Revenue by term")).to_be_visible()
        charts = page.evaluate(SIZES)
        assert len(charts) == 4
        assert max(charts) <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(f"dashboard-{width}")
    assert console_errors == []
