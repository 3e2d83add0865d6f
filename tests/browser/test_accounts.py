import pytest
from playwright.sync_api import expect

from gpurent.accounts.models import ApiToken, User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_customer_registers_creates_a_token_shown_once_and_logs_out(
    live_server, page, demo_catalog, screenshot, console_errors
):
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Register").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    page.get_by_label("First name").fill("Ines")
    page.get_by_label("Last name").fill("Moreau")
    page.get_by_label("Email").fill("ines@example.com")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text("This password is too short. It must contain at least 12 characters.")).to_be_visible()
    screenshot("accounts-register-error")
    page.get_by_label("Password").fill("velvet harbour cobalt ninety")
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    expect(page.get_by_text("Welcome, Ines. Your account is ready.")).to_be_visible()
    expect(page.get_by_text("You have no API tokens yet.")).to_be_visible()

    page.get_by_label("Token name").fill("training cluster")
    page.get_by_role("button", name="Create token").click()
    secret = page.get_by_label("New API token").input_value()
    assert secret.startswith("gpr_")
    expect(page.get_by_text("Copy it now: it is shown only this once.")).to_be_visible()
    screenshot("accounts-token-created")
    token = ApiToken.objects.get(user=User.objects.get(email="ines@example.com"))
    assert token.digest == ApiToken.digest_of(secret)

    # Reloading resubmits the same form (same idempotency key): no second token, and the secret is not shown.
    page.reload()
    expect(page.get_by_text("This token was already created; it was shown once, when it was made.")).to_be_visible()
    expect(page.get_by_role("cell", name="training cluster", exact=True)).to_be_visible()
    assert secret not in page.content()
    screenshot("accounts-account-page")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("You are logged out.")).to_be_visible()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.goto(live_server.url + "/account/")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    screenshot("accounts-login")
    assert ApiToken.objects.count() == 1
    # Chromium logs the refused registration's page (422) as a failed load; nothing else may be logged.
    assert [error for error in console_errors if "status of 422" not in error] == []
