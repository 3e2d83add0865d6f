"""Every HTML action goes through one helper (`form_action`), every API
write through `api_idempotent`: no view assembles the key, the owner and the fingerprint by hand."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOW_LEVEL = re.compile(r"\b(run_idempotent|form_key|form_params|owner_of|request_fingerprint)\b")


def test_views_and_apis_use_the_shared_idempotency_helpers_only():
    modules = sorted((ROOT / "gpurent").glob("*/views.py")) + sorted((ROOT / "gpurent").glob("*/api.py"))
    assert len(modules) >= 10
    offenders = [str(path.relative_to(ROOT)) for path in modules if LOW_LEVEL.search(path.read_text())]
    assert offenders == []


def test_no_view_module_writes_its_own_form_action_helper():
    copies = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "gpurent").glob("*/views.py"))
        if re.search(r"def _form_action\b|_NOT_FINGERPRINTED|csrfmiddlewaretoken", path.read_text())
    ]
    assert copies == []
