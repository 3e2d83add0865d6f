"""Every HTML POST runs its idempotent action through one helper, `form_action` (issue 15: five variants had
grown in orders, payments, support and sizing; the checkout, the extension and the payouts desk were the last).
A module that calls the lower-level functions itself fails here: no exceptions.

A plain text search, not an AST walk: it cannot trip over the recursion state of the parser.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HELPER = ROOT / "gpurent" / "core" / "idempotency" / "request.py"
# The keys themselves: where `run_idempotent` is defined, and called by the variants beside it.
KEYS = ROOT / "gpurent" / "core" / "idempotency" / "keys.py"
# The form runner (private to idempotency/request.py) and the key runner beneath it and `api_idempotent`.
FORM_RUNNER = re.compile(r"\b_?form_idempotent\b")
KEY_RUNNER = re.compile(r"\brun_idempotent\(")


def _modules() -> list[Path]:
    """Every Python module of the shop but the helper, the keys beneath it and the tests (which test them)."""
    return sorted(
        path
        for path in (ROOT / "gpurent").rglob("*.py")
        if path not in (HELPER, KEYS) and "tests" not in path.relative_to(ROOT).parts and "migrations" not in path.parts
    )


def test_there_are_modules_to_check():
    modules = {str(path.relative_to(ROOT)) for path in _modules()}
    assert len(modules) >= 100
    # The three that called the form runner directly until issue 15 are among them.
    assert {"gpurent/orders/views.py", "gpurent/backoffice/payouts_admin.py"} <= modules


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_runs_an_idempotent_action_by_itself(path):
    text = path.read_text()
    assert not FORM_RUNNER.findall(text), f"{path.relative_to(ROOT)}: use gpurent.core.idempotency.request.form_action"
    assert not KEY_RUNNER.findall(text), f"{path.relative_to(ROOT)}: use form_action (HTML) or api_idempotent (API)"


def test_the_form_runner_is_private_and_called_once_by_form_action():
    text = HELPER.read_text()
    assert "def _form_idempotent(" in text
    assert '"form_idempotent"' not in text  # not exported
    assert len(re.findall(r"\b_form_idempotent\(", text)) == 2  # its definition and form_action's call
