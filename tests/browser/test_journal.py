"""The journal in a real browser: an entry from a saved estimate, two runs changing two variables, the warning."""

import re

import pytest
from playwright.sync_api import expect

from gpurent.accounts.models import User
from gpurent.sizing.models import SavedEstimate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "plum orbit ferry lantern"
GIB = 1024**3


def log_in(page, live_server):
    User.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="Souza")
    page.goto(live_server.url + "/account/login/")
    page.get_by_label("Email").fill("ana@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).not_to_have_url(re.compile(r"/login/"))


def save_estimate() -> SavedEstimate:
    user = User.objects.get(email="ana@example.com")
    return SavedEstimate.objects.create(
        user=user,
        title="llama-3.1-8b · LoRA · 1 card",
        inputs={"model": "llama-3.1-8b"},
        result={"peak_bytes": 20 * GIB, "components": [], "peak_phase": "training step", "notes": []},
        engine_version="vramcalc 1.0",
        peak_bytes=20 * GIB,
        usable_pct=90,
    )


def add_run(page, name, parameters, peak_gib):
    page.get_by_role("link", name="Add a run").click()
    page.get_by_label("Run name").fill(name)
    page.get_by_label("Parameters").fill(parameters)
    page.locator("#id_steady_peak").fill(peak_gib)
    page.locator("#id_steady_throughput").fill("1830")
    page.get_by_role("button", name="Record run").click()
    expect(page.get_by_text("Run recorded.")).to_be_visible()


def test_entry_from_estimate_two_runs_two_variables_shows_the_attribution_warning(
    live_server, page, screenshot, console_errors
):
    page.set_viewport_size({"width": 1360, "height": 900})
    log_in(page, live_server)
    estimate = save_estimate()

    page.goto(f"{live_server.url}/journal/new/?estimate={estimate.public_id}")
    expect(page.get_by_label("Saved estimate")).to_have_value(str(estimate.public_id))
    page.get_by_label("Question").fill("bf16 vs fp8 at batch 16")
    page.get_by_label("Hypothesis").fill("fp8 halves the weights and fits batch 32 on one card.")
    page.get_by_label("Stop criterion").fill("Two runs per precision, or the first out-of-memory.")
    screenshot("journal-new-entry")
    page.get_by_role("button", name="Open entry").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("bf16 vs fp8 at batch 16")
    expect(page.get_by_test_id("estimate-card")).to_contain_text("20.00 GiB")

    page.get_by_role("link", name="Add a run").click()
    page.get_by_label("Run name").fill("bf16 b16")
    page.get_by_label("Code version").fill("a1b2c3d")
    page.get_by_label("Parameters").fill("batch=16\ndtype=bf16")
    page.get_by_label("Seeds").fill("torch=0")
    page.locator("#id_steady_peak").fill("22")
    page.locator("#id_steady_throughput").fill("1830")
    screenshot("journal-run-form")
    page.get_by_role("button", name="Record run").click()
    expect(page.get_by_test_id("observed-card")).to_contain_text("22.00 GiB")
    expect(page.get_by_test_id("estimate-error")).to_contain_text("Estimate error −9.1 %")
    screenshot("journal-run")

    page.get_by_role("link", name="bf16 vs fp8 at batch 16").click()
    page.get_by_role("link", name="Add a run").click()
    expect(page.get_by_label("Parameters")).to_have_value("batch=16\ndtype=bf16")
    page.get_by_label("Run name").fill("fp8 b32")
    page.get_by_label("Parameters").fill("batch=32\ndtype=fp8")
    page.locator("#id_steady_peak").fill("18.5")
    page.get_by_role("button", name="Record run").click()
    page.get_by_role("link", name="Compare with run 1").click()

    expect(page.get_by_test_id("attribution")).to_contain_text("2 variables changed between these runs.")
    expect(page.get_by_test_id("attribution")).to_contain_text("cannot be attributed to a single factor")
    expect(page.get_by_test_id("changed-variables")).to_contain_text("Parameter dtype")
    screenshot("journal-compare")

    page.get_by_role("link", name="bf16 vs fp8 at batch 16").click()
    expect(page.get_by_test_id("runs")).to_contain_text("fp8 b32")
    screenshot("journal-entry")
    with page.expect_download() as download:
        page.get_by_role("link", name="Markdown").click()
    assert download.value.suggested_filename.endswith(".md")
    assert console_errors == []


def test_journal_on_a_phone(live_server, page, screenshot, console_errors):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server)
    page.goto(live_server.url + "/journal/")
    expect(page.get_by_role("heading", name="No entries yet")).to_be_visible()
    page.get_by_role("link", name="Open the first entry").click()
    page.get_by_label("Question").fill("Effect of context length on the KV cache")
    page.get_by_role("button", name="Open entry").click()
    add_run(page, "ctx 4k", "context=4096", "30")
    screenshot("journal-run-phone")
    page.get_by_role("link", name="Effect of context length on the KV cache").click()
    add_run(page, "ctx 8k", "context=8192", "34")
    page.get_by_role("link", name="Compare with run 1").click()
    expect(page.get_by_test_id("attribution")).to_contain_text("One variable changed: Parameter context.")
    screenshot("journal-compare-phone")
    assert console_errors == []
