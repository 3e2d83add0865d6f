"""Every HTML POST runs its idempotent action through one helper, `form_action` (issue 15: five variants had
grown in orders, payments, support and sizing). A view that calls the lower-level functions again fails here.

A plain text search, not an AST walk: it cannot trip over the recursion state of the parser.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LOWER_LEVEL = re.compile(r"\b(?:form_idempotent|run_idempotent)\(")
# orders/views.py keeps its two checkout calls (place, extend) until the engineer changing that file now has
# merged; each answers a stored out-of-stock failure with its own page (see the report of issue 15).
NOT_YET = {"gpurent/orders/views.py"}


def _view_modules() -> list[Path]:
    apps = ROOT / "gpurent"
    return sorted([*apps.glob("*/views.py"), *apps.glob("*/views/*.py")])


def test_there_are_views_to_check():
    assert len(_view_modules()) >= 8


@pytest.mark.parametrize("path", _view_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_html_views_run_idempotent_actions_only_through_form_action(path):
    relative = str(path.relative_to(ROOT))
    calls = LOWER_LEVEL.findall(path.read_text())
    if relative in NOT_YET:
        assert len(calls) <= 2, f"{relative}: no new direct calls; use form_action"
    else:
        assert not calls, f"{relative} calls {calls}: use gpurent.core.idempotency.form_action"
