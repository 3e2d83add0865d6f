import pytest
from playwright.sync_api import expect

from gpurent.catalog.demo import DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD
from gpurent.catalog.models import GpuModel
from gpurent.core.models import AuditLogEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_operator_logs_in_and_changes_stock_with_an_audit_row(
    live_server, page, demo_catalog, screenshot, console_errors
):
    page.goto(live_server.url + "/backoffice/")
    page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    page.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="GPU models")).to_be_visible()
    page.get_by_role("link", name="GPU models").click()
    page.get_by_role("link", name="H100 80GB").click()
    page.get_by_label("Stock (lots)").fill("9")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    screenshot("backoffice-gpu-models")
    assert GpuModel.objects.get(slug="h100-80gb").stock_lots == 9
    entry = AuditLogEntry.objects.get(action="admin.change")
    assert entry.actor_label == DEMO_OPERATOR_EMAIL
    assert (entry.before or {})["stock_lots"] == 5
    assert (entry.after or {})["stock_lots"] == 9
    assert console_errors == []


def test_backoffice_login_is_throttled_after_five_failures(live_server, page, demo_catalog):
    for _ in range(5):
        page.goto(live_server.url + "/backoffice/login/")
        page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
        page.get_by_label("Password").fill("wrong passphrase")
        page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/backoffice/login/")
    page.get_by_label("Email address").fill(DEMO_OPERATOR_EMAIL)
    page.get_by_label("Password").fill(DEMO_OPERATOR_PASSWORD)
    response_status = []
    page.on("response", lambda response: response_status.append(response.status))
    page.get_by_role("button", name="Log in").click()
    # Locked out for an hour even with the right password, and the page says exactly what a wrong password
    # gets (AXES_LOCKOUT_CALLABLE): the lockout is not revealed.
    assert response_status[0] == 200
    expect(page.locator(".errornote")).to_contain_text("Please enter the correct email address and password")
    expect(page.get_by_role("link", name="GPU models")).to_have_count(0)
