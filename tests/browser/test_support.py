"""Support in a real browser: a request with a fake API key and a seed phrase is saved with both redacted."""

import pytest
from playwright.sync_api import expect

from gpurent.accounts.models import User
from gpurent.orders.services import Contact, order_place
from gpurent.support.models import SupportRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "velvet harbour cobalt ninety"
# Built from parts: fake, and not a literal a secret scanner would flag.
FAKE_KEY = "AKIA" + "FAKE" + "Q3EGUWZKX7YH"
SEED = "legal winner thank year wave sausage worth useful legal winner thank yellow"


def log_in(page, live_server):
    page.goto(live_server.url + "/account/login/")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_customer_submits_a_request_and_sees_key_and_seed_redacted(
    live_server, page, demo_catalog, screenshot, console_errors
):
    user = User.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="Lovelace")
    order = order_place(
        owner=user,
        gpu_slug="h100-80gb",
        term_days=7,
        lots=1,
        environment="pytorch",
        contact=Contact("Ada", "Lovelace", "ada@example.com"),
    )
    log_in(page, live_server)
    page.goto(live_server.url + "/support/")
    expect(page.get_by_role("heading", name="No support requests yet")).to_be_visible()
    screenshot("support-empty")
    page.get_by_role("link", name="New request").click()
    expect(page.get_by_role("heading", name="New support request")).to_be_visible()

    page.get_by_label("Subject").fill("Training hangs after the first checkpoint")
    page.get_by_label("Order").select_option(order.ref)
    page.get_by_label("Library versions").fill("CUDA 12.4, driver 550.54, torch 2.4.1, transformers 4.45.2")
    page.get_by_label("Steps to reproduce").fill("accelerate launch --num_processes 1 train.py --config lora.yaml")
    page.get_by_label("Expected result").fill("Training continues for the whole epoch.")
    page.get_by_label("Observed result").fill("The process hangs at step 1420, then NCCL times out.")
    page.get_by_label("Messages and logs").fill(
        f"loading dataset... ok\nexport AWS_ACCESS_KEY_ID={FAKE_KEY}\n"
        f"wallet backup: {SEED}\n<script>alert('x')</script>\nRuntimeError: NCCL watchdog timeout"
    )
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot("support-form-filled")
    page.get_by_role("button", name="Send request").click()

    notice = page.get_by_test_id("redaction-notice")
    expect(notice).to_contain_text("We removed 2 secrets before saving:")
    expect(notice).to_contain_text("AWS access key in ‘Messages and logs’, line 2")
    expect(notice).to_contain_text("Wallet seed phrase in ‘Messages and logs’, line 3")
    expect(page.locator("mark.redacted", has_text="[REDACTED: AWS access key]")).to_be_visible()
    expect(page.locator("mark.redacted", has_text="[REDACTED: Wallet seed phrase]")).to_be_visible()
    expect(page.get_by_text("<script>alert('x')</script>")).to_be_visible()  # shown as text, never run
    content = page.content()
    assert FAKE_KEY not in content
    assert "sausage worth" not in content
    screenshot("support-request-redacted")

    saved = SupportRequest.objects.get()
    assert FAKE_KEY not in saved.logs
    assert "sausage" not in saved.logs

    page.get_by_label("Your message").fill("Any update? My token is hf_" + "Ab1" * 11 + "x")
    page.get_by_role("button", name="Send message").click()
    expect(page.get_by_text("Your message was sent.")).to_be_visible()
    expect(page.locator(".thread-body mark.redacted", has_text="[REDACTED: Hugging Face token]")).to_be_visible()

    page.get_by_role("button", name="Close request").click()
    expect(page.get_by_text("Sending a message reopens the request.")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot("support-request-phone")
    # QA walk 2 (phone): the request's panel and the conversation's touched, and the hint began beside the button
    # and wrapped under it.
    request_box = page.locator("section.support-request").bounding_box()
    thread_box = page.locator("section", has=page.get_by_role("heading", name="Conversation")).bounding_box()
    assert request_box
    assert thread_box
    assert thread_box["y"] - (request_box["y"] + request_box["height"]) >= 16
    button = page.get_by_role("button", name="Send message").bounding_box()
    hint = page.get_by_text("Sending a message reopens the request.").bounding_box()
    assert button
    assert hint
    assert hint["y"] >= button["y"] + button["height"]
    page.goto(live_server.url + "/support/")
    expect(page.get_by_role("link", name=saved.ref)).to_be_visible()
    screenshot("support-list-phone")
    assert console_errors == []
