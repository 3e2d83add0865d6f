"""Issue 14's journey in real Chromium: an SSH key on the account, a rental that shows it installed, a 7-day
extension paid from the balance before the term ends, the receipt PDF with every reference, the catalog
filtered without JavaScript, and no sideways scroll at 390 px."""

import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order
from gpurent.orders.provisioning import AccessDetails, provision_ready, provision_start

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ana@laptop"
FINGERPRINT = "SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA"  # as `ssh-keygen -lf` printed it


def no_sideways_scroll(page: Page, what: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{what} scrolls sideways on a phone"


def pdf_text(path: Path) -> str:
    """The text a PDF reader extracts (the receipt embeds a Unicode font, so its streams hold glyph ids)."""
    content = path.read_bytes()
    assert content.startswith(b"%PDF-")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_key_rental_extension_and_receipt_on_a_phone(
    live_server, page, demo_catalog, django_user_model, screenshot, console_errors, tmp_path
):
    customer = django_user_model.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="S")
    transfer_post(
        reference="deposit:B-TEST",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(200_000),
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/account/login/")
    page.get_by_label("Email").fill("ana@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # 1. An SSH key on the account, with the fingerprint ssh-keygen gives.
    page.goto(live_server.url + "/account/")
    page.get_by_label("Key name").fill("laptop")
    page.get_by_label("Public key").fill(KEY)
    page.get_by_role("button", name="Add key").click()
    expect(page.get_by_test_id("ssh-key-fingerprint")).to_have_text(FINGERPRINT)
    no_sideways_scroll(page, "the account page")
    screenshot("rental-1-account-key-phone")

    # 2. Rent an H100 for 3 days: the first step shows the lot price and the total; the key is ticked.
    page.goto(live_server.url + "/checkout/?gpu=h100-80gb&term=3&lots=1")
    expect(page.get_by_test_id("checkout-lot-price")).to_have_text("$170.00")
    expect(page.get_by_test_id("checkout-total")).to_have_text("$170.00")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_label(re.compile(r"laptop"))).to_be_checked()
    page.get_by_role("button", name=re.compile("^Place order")).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Order R-"))).to_be_visible()
    page.get_by_role("button", name="Pay $170.00 from my balance").click()
    expect(page.get_by_test_id("order-paid")).to_have_text("$170.00")
    rental = Order.objects.get(extends__isnull=True)

    # 3. The operator delivers the machine with the chosen key; the rental page shows it installed.
    provision_ready(
        order=provision_start(order=rental, actor=None),
        actor=None,
        access=AccessDetails("gpu-9.example.net", 22, "ubuntu"),
    )
    page.reload()
    expect(page.get_by_test_id("ssh-command")).to_have_text("ssh -p 22 ubuntu@gpu-9.example.net")
    expect(page.get_by_test_id("installed-keys")).to_contain_text(FINGERPRINT)
    no_sideways_scroll(page, "the ready rental")
    screenshot("rental-2-ready-phone")

    # 4. Extend by 7 days before the end, paid from the balance: the term end moves by exactly 7 × 24 h.
    old_end = Order.objects.get(pk=rental.pk).term_ends_at
    assert old_end is not None
    page.get_by_label(re.compile(r"^7 days")).check()
    page.get_by_role("button", name="Extend", exact=True).click()
    expect(page.get_by_test_id("extends")).to_contain_text(rental.ref)
    page.get_by_role("button", name="Pay $370.00 from my balance").click()
    expect(page.get_by_test_id("order-paid")).to_have_text("$370.00")
    extension = Order.objects.get(extends=rental)
    assert extension.payment_status == "paid"
    assert Order.objects.get(pk=rental.pk).term_ends_at == old_end + timedelta(days=7)
    no_sideways_scroll(page, "the extension's page")
    screenshot("rental-3-extension-paid-phone")

    # 5. The receipt PDF of the extension, downloaded from its page, carries every reference.
    with page.expect_download() as download_info:
        page.get_by_test_id("receipt-pdf-link").click()
    saved = tmp_path / "receipt.pdf"
    download_info.value.save_as(saved)
    text = pdf_text(saved)
    for reference in [extension.ref, f"Order {extension.ref}", rental.ref, "IteraGPU"]:
        assert reference in text, reference
    page.goto(f"{live_server.url}/rentals/{extension.ref}/receipt/")
    expect(page.get_by_test_id("receipt-references")).to_contain_text(f"Order {extension.ref}")
    no_sideways_scroll(page, "the receipt")
    screenshot("rental-4-receipt-phone")
    assert console_errors == []


def test_catalog_filters_to_80_gb_in_stock_cuda_without_javascript(live_server, browser, demo_catalog, tmp_path):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server.url + "/")
    filters = page.get_by_test_id("catalog-filters")
    filters.get_by_label("Memory").select_option("80")
    filters.get_by_label("Software").select_option("CUDA")
    filters.get_by_label("In stock only").check()
    filters.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(re.compile(r"memory=80"))
    names = page.locator("article.gpu-card h2").all_inner_texts()
    assert names == ["A100 80GB", "H100 80GB", "H200 141GB", "B200 (2 × 180GB)"]
    no_sideways_scroll(page, "the filtered catalog")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "catalog-filtered-nojs-phone.png"), full_page=True)
    context.close()
