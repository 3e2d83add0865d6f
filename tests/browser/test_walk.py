"""Issue 29's walk: the main pages in English, Spanish, Vietnamese and Turkish at 1280 and 390 px, checked from
the rendered DOM for sideways overflow, cut-off buttons and English left in es/vi/tr (tests/browser/walk.py,
decision 0436). One browser, one context per language and width, signed in as one customer whose account
language picks the page language. A screenshot of every page goes to artifacts/walk/<language>-<width>-<page>.jpg
(the whole page at 390 px, the first screen at 1280 px). It replaces issue 12's test_i18n_layout.py (the same
pages and its cut-off button check, at 1280 instead of 1366 px).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from gpurent.accounts.owners import Owner
from gpurent.core.money import Usd
from gpurent.journal.records import EntryDraft, MeasurementDraft, RunDraft
from gpurent.journal.services import entry_create, run_create
from gpurent.orders.provisioning import AccessDetails, provision_ready, provision_start
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import ExchangeRate, PaymentIntent, ReceivingAddress
from gpurent.payments.payouts import payout_mark_sent, payout_request
from gpurent.payments.received.verification import intent_confirm
from gpurent.payments.services import deposit_create, order_pay_from_balance
from gpurent.sizing.forms.choices import EXAMPLES
from gpurent.support.services import RequestInput, support_request_create
from tests.conftest import fund

from .conftest import ARTIFACTS
from .walk import page_findings, untranslated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "es", "vi", "tr"]
WIDTHS = [1280, 390]
HOST = "gpu-node-17.fra1.example.net"
ETHEREUM_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"  # EIP-55's own example


def the_customers_things(customer: Any) -> dict[str, str]:
    """Ada's unpaid order with payment instructions, a ready rental, a credited top-up, a sent withdrawal, a
    journal entry with a run and a support request; the pages that show them. Her own texts are neutral tokens
    (no English words), as a customer's words are never translated."""
    contact = Contact("Linh", "Nguyễn", customer.email)
    unpaid = order_place(
        owner=customer, gpu_slug="b200-2x180gb", term_days=7, lots=2, environment="pytorch", contact=contact
    )
    intent_issue_for_order(order=unpaid, owner=customer, asset="USDT", network="tron")
    # A top-up paid in USDC on Ethereum: its 42-character address is the longest a credited line shows.
    ExchangeRate.objects.create(asset="USDC", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="ethereum", address=ETHEREUM_ADDRESS, mode="shared")
    top_up = deposit_create(owner=customer, amount=Usd(15_050))
    intent = intent_issue_for_deposit(deposit=top_up, owner=customer, asset="USDC", network="ethereum")
    intent_confirm(intent_id=intent.pk, txid="f" * 64, received_units=intent.amount_units)
    fund(customer, 100_000)
    # A sent withdrawal: its address and 66-character transaction id are the longest tokens the balance page lists.
    payout = payout_request(
        owner=customer, asset="USDC", network="ethereum", address=ETHEREUM_ADDRESS, amount=Usd(5_000)
    )
    payout_mark_sent(payout_id=payout.pk, txid="0x" + "e" * 64, sent_units=49_000_000, actor=None)
    rental = order_place(
        owner=customer, gpu_slug="h100-80gb", term_days=3, lots=1, environment="ubuntu", contact=contact
    )
    rental = order_pay_from_balance(order=rental, owner=customer)
    provision_ready(
        order=provision_start(order=rental, actor=None),
        actor=None,
        access=AccessDetails(HOST, 2222, "ubuntu", one_time_secret="x7-k2-q9"),
    )
    entry = entry_create(owner=Owner(user=customer), draft=EntryDraft(question="bf16 b16 → fp8 b32 (H100)"))
    run_create(
        entry=entry,
        draft=RunDraft(
            name="fp8 b32",
            parameters={"batch": "32", "dtype": "fp8"},
            steady=MeasurementDraft(peak_bytes_per_gpu=(61 * 1024**3,), throughput=1830.0, throughput_unit="tok/s"),
        ),
    )
    support = support_request_create(owner=customer, data=RequestInput(subject="NCCL 2.21 / torch 2.4", observed="—"))
    example = "&".join(f"{key}={value}" for key, value in EXAMPLES[0][1].items())
    return {
        "catalog": "/",
        "gpu": "/gpus/b200-2x180gb/",
        "estimator": f"/estimate/?{example}",
        "guides": "/guides/",
        "guide": "/guides/h100-80gb/llm-serving/pilot/",
        "glossary": "/glossary/",
        "checkout": "/checkout/?gpu=a100-80gb&term=7&lots=2",
        "order": f"/rentals/{unpaid.ref}/",
        "rentals": "/rentals/",
        "rental": f"/rentals/{rental.ref}/",
        "receipt": f"/rentals/{rental.ref}/receipt/",
        "summary": "/rentals/summary/",
        "balance": "/balance/",
        "top-up": f"/balance/deposits/{top_up.ref}/",
        "journal": "/journal/",
        "journal-entry": f"/journal/{entry.public_id}/",
        "support": "/support/",
        "support-request": f"/support/{support.ref}/",
        "support-new": "/support/new/",
        "account": "/account/",
        "help": "/help/",
        "terms": "/terms/",
        "privacy": "/privacy/",
        "backoffice": "/backoffice/login/",  # Django's admin: its own words and language, checked for fit only
    }


def test_main_pages_in_four_languages_at_desktop_and_phone_widths(
    live_server, browser, demo_catalog, usdt_on_tron, django_user_model
):
    customer = django_user_model.objects.create_user("linh@example.com", "a long passphrase 42", first_name="Linh")
    pages = the_customers_things(customer)
    assert PaymentIntent.objects.filter(deposit__isnull=False, status="confirmed").count() == 1
    client = Client()
    client.force_login(customer)
    session = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    folder = ARTIFACTS / "walk"
    folder.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for language in LANGUAGES:
        django_user_model.objects.filter(pk=customer.pk).update(language=language)
        for width in WIDTHS:
            context = browser.new_context(viewport={"width": width, "height": 844})
            context.add_cookies([{**session, "url": live_server.url}])
            page = context.new_page()
            for name, path in pages.items():
                response = page.goto(live_server.url + path)
                assert response is not None, (language, width, name)
                assert response.ok, (language, width, name, response.status)
                shop_page = name != "backoffice"
                if shop_page and page.evaluate("document.documentElement.lang") != language:
                    problems.append(f"{name} {language} {width}: <html lang> is not {language}")
                # The text is the same at both widths: it is read once, at the phone's.
                for finding in page_findings(page, language=language, texts=shop_page and width == 390):
                    problems.append(f"{name} {language} {width}: {finding}")
                # JPEG, and the whole page only on the phone: a PNG of every full page doubles the walk's time.
                shot = folder / f"{language}-{width}-{name}.jpg"
                page.screenshot(path=str(shot), full_page=width == 390, quality=70)
            context.close()
    assert problems == [], "\n".join(problems)


def test_the_phone_menu_opens_without_javascript(live_server, browser, demo_catalog):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + "/")
    header = page.locator(".site-header")
    expect(page.get_by_role("link", name="Estimator")).to_be_hidden()
    assert header.bounding_box()["height"] <= 64  # one row: the brand and the menu button
    page.get_by_text("Menu", exact=True).click()
    expect(page.get_by_role("link", name="Estimator")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "walk" / "en-390-menu-open.png"))
    page.get_by_role("link", name="Estimator").click()
    expect(page).to_have_url(live_server.url + "/estimate/")
    page.set_viewport_size({"width": 1280, "height": 844})
    expect(page.get_by_text("Menu", exact=True)).to_be_hidden()
    expect(page.get_by_role("link", name="Estimator")).to_be_visible()
    context.close()


# The header's items: how many rows the wide screen's navigation takes, and whether it stays on the brand's row.
HEADER_ROWS = """() => {
  const brand = document.querySelector(".header-row .brand").getBoundingClientRect();
  const items = [...document.querySelectorAll(".site-nav li")].map(item => item.getBoundingClientRect());
  return {
    items: items.length,
    rows: new Set(items.map(item => Math.round(item.top))).size,
    besideBrand: items.every(item => item.top < brand.bottom && item.bottom > brand.top),
  };
}"""
MENU_ITEMS_CUT = """() => [...document.querySelectorAll(".site-menu nav a, .site-menu nav button")]
  .filter(item => !item.getClientRects().length || item.scrollWidth > item.clientWidth
    || item.getBoundingClientRect().right > innerWidth)
  .map(item => item.textContent.trim())"""


def test_the_signed_in_menu_is_one_row_at_1280_and_whole_in_the_phone_menu_in_four_languages(
    live_server, browser, demo_catalog, django_user_model
):
    """QA (decision 0541's open point): at 1280 px the signed-in menu went under the brand, on a second row, in
    Vietnamese (113 px short) and Turkish (8 px short). All eleven items stay, on the brand's row."""
    customer = django_user_model.objects.create_user("an@example.com", "a long passphrase 42", first_name="An")
    client = Client()
    client.force_login(customer)
    session = {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}
    for language in LANGUAGES:
        django_user_model.objects.filter(pk=customer.pk).update(language=language)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies([{**session, "url": live_server.url}])
        page = context.new_page()
        page.goto(live_server.url + "/estimate/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert page.evaluate(HEADER_ROWS) == {"items": 11, "rows": 1, "besideBrand": True}, language
        page.screenshot(path=str(ARTIFACTS / "walk" / f"{language}-1280-signed-in-header.png"))
        # A phone: the brand and the Menu button on one row; the open menu shows every item whole.
        page.set_viewport_size({"width": 390, "height": 844})
        expect(page.locator(".site-nav")).to_be_hidden()
        assert page.locator(".site-header").bounding_box()["height"] <= 64
        page.locator(".site-menu-toggle").click()
        assert page.locator(".site-menu nav").get_by_role("link").count() == 10  # and the Log out button
        assert page.evaluate(MENU_ITEMS_CUT) == [], language
        assert page.evaluate("document.documentElement.scrollWidth") == 390
        page.screenshot(path=str(ARTIFACTS / "walk" / f"{language}-390-signed-in-menu-open.png"))
        context.close()


def test_the_walk_checks_flag_overflow_broken_tokens_and_english_left_in_spanish(page):
    page.set_viewport_size({"width": 390, "height": 600})
    page.set_content(
        '<body><div class="table-wrap" style="overflow-x:auto"><table><tr><td style="white-space:nowrap">'
        + "wide " * 80
        + '</td></tr></table></div><p style="width:600px">too wide</p><p style="width:60px"><span class="ref">'
        "R-8H2K HT56</span></p></body>"
    )
    found = page_findings(page, language="es", texts=False)
    assert found[0] == "the page is 608 px wide in a 390 px viewport"
    assert found[1].startswith('<p> "too wide" spans 8..608 px')
    assert found[2] == '<span.ref> "R-8H2K HT56" breaks inside the token'
    assert len(found) == 3  # the declared scroller's wide table is not a finding
    assert untranslated(
        ["Saldo", "Balance", "bert-base-cased", "NVIDIA H100 · 80 GiB", "Quedan 6d 23h left"], "es"
    ) == [
        "'Balance' (msgid, translated 'Saldo')",
        "'Quedan 6d 23h left' (English words: left)",
    ]


def test_the_fit_checks_flag_a_wide_card_a_broken_reference_cut_texts_a_bare_fieldset_and_stuck_fields(page):
    """The QA walk's layout defects, each in a few lines of HTML: the walk now reports every one (they passed it)."""
    page.set_viewport_size({"width": 390, "height": 600})
    page.set_content(
        '<body style="margin:0;font:16px sans-serif">'
        '<div class="table-wrap" style="overflow-x:auto;width:300px"><table class="stack-table" style="display:block">'
        '<tr style="display:block"><td data-label="x" style="display:block;white-space:nowrap">'
        + "06/12/2026 10:52 UTC "
        * 3
        + '</td></tr></table></div><h1 style="width:150px">Order R-EQS6-HG1Z</h1>'
        '<span class="chart-label" style="display:block;width:60px;overflow:hidden;white-space:nowrap;'
        'text-overflow:ellipsis">B200 (2 × 180GB)</span><form><fieldset><legend>Extend</legend></fieldset>'
        '<div class="field">GPU model</div><div class="field">Observed result</div>'
        '<select name="gpu" style="width:120px"><option>Same as the order, or not GPU-specific</option></select>'
        "</form></body>"
    )
    assert page_findings(page, language="en", texts=False) == [
        '<table.stack-table> "06/12/2026 10:52 UTC 06/12/2026 10:52 UTC 06/12/20" is 501 px wide in its 300 px box',
        'reference R-EQS6-HG1Z breaks over two lines in <h1> "Order R-EQS6-HG1Z"',
        '<span.chart-label> "B200 (2 × 180GB)" is cut off (129 px of text in 60 px)',
        '<fieldset> "Extend" shows the browser\'s default fieldset border',
        '<div.field> "Observed result" is 0 px under the field above it',
        'chosen option cut off: gpu: "Same as the order, or not GPU-specific" needs 254 px of 120',
    ]
