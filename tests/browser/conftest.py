"""Browser tests: Playwright drives Debian's Chromium (/usr/bin/chromium), never a downloaded build.

They run in their own pytest process (`make test-browser`, `pytest -m browser`) because Playwright's sync API
keeps an event loop in the main thread, which requires DJANGO_ALLOW_ASYNC_UNSAFE for the Django ORM.
Screenshots go to artifacts/ (git-ignored), or to $ARTIFACTS_DIR.
"""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("ARTIFACTS_DIR", Path(__file__).resolve().parents[2] / "artifacts"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Only for the browser run: Playwright's loop in the main thread would otherwise make every ORM call
    # raise SynchronousOnlyOperation. Set here, not at import, so other test runs keep the protection.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh (Debian's chromium package)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture
def screenshot(page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(name: str, *, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def console_errors(page):
    """Console errors of the page (a CSP violation shows up here); a test asserts the list stays empty."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
