"""Every error code the shop can answer with is in docs/api-errors.md, with its HTTP status, and nothing more.

Codes are part of the public API (DESIGN §11): a script branches on them, so one that is not documented is a
code nobody can rely on, and a documented one that nothing answers is a promise the shop does not keep. The
codes are collected from the source, never listed here: every `ApplicationError` subclass once every module
is imported, and every literal code `tests/literal_error_codes.py` finds (in a fresh interpreter).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import config
import gpurent
from gpurent.core.errors import ApplicationError

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api-errors.md"
# A table row: | `code` | 409 | … (the HTTP cell may hold several statuses, or words for a fallback).
ROW = re.compile(r"^\| `([a-z][a-z0-9_]*)` \| ([^|]*) \|", re.MULTILINE)
# "409 `out_of_stock`" in an endpoint's description: a status followed by the code it answers with.
STATUS_AND_CODE = re.compile(r"\b([1-5][0-9]{2})\s+`([a-z][a-z0-9_]*)`")

Codes = dict[str, set[int | None]]  # code -> statuses; None for a status decided at run time
Documented = dict[str, set[int]]


def _import_every_module() -> None:
    """Import the project's modules (not tests, migrations or settings) so that every subclass is defined."""
    for package in (gpurent, config):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if (
                not _is_project_module(module.name)
                or ".migrations" in module.name
                or module.name.startswith("config.settings")
            ):
                continue
            importlib.import_module(module.name)


def _is_project_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] in ("gpurent", "config") and "tests" not in parts


def _error_classes() -> list[type[ApplicationError]]:
    found: list[type[ApplicationError]] = []
    waiting: list[type[ApplicationError]] = [ApplicationError]
    while waiting:
        cls = waiting.pop()
        found.append(cls)
        waiting.extend(cls.__subclasses__())
    return found


def _source_files() -> list[str]:
    files = [*(ROOT / "gpurent").rglob("*.py"), *(ROOT / "config").rglob("*.py")]
    return sorted(
        str(path.relative_to(ROOT))
        for path in files
        if "tests" not in path.relative_to(ROOT).parts and "migrations" not in path.parts
    )


@pytest.fixture(scope="module")
def literal() -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-I", str(ROOT / "tests" / "literal_error_codes.py"), *_source_files()],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def emitted(literal: dict[str, Any]) -> Codes:
    """Code -> the statuses it is answered with (None: a status decided at run time)."""
    _import_every_module()
    codes: Codes = defaultdict(set)
    for cls in _error_classes():
        # Tests define errors of their own (a made-up code to check the handlers); those answer nothing.
        if _is_project_module(cls.__module__):
            codes[cls.code].add(cls.status)
    for code, status, _where in literal["literal"]:
        codes[code].add(status)
    return dict(codes)


def documented_codes(text: str) -> Documented:
    """Code -> the statuses its row names; a row named twice counts as a wrong document."""
    codes: Documented = {}
    for code, statuses in ROW.findall(text):
        assert code not in codes, f"`{code}` has two rows in {DOC.name}"
        codes[code] = {int(status) for status in re.findall(r"\b[1-5][0-9]{2}\b", statuses)}
    return codes


def differences(emitted: Codes, documented: Documented) -> list[str]:
    """What the document gets wrong, in words; empty when it matches the code base."""
    wrong = [f"`{code}` is answered but not documented" for code in sorted(emitted.keys() - documented.keys())]
    wrong += [f"`{code}` is documented but nothing answers it" for code in sorted(documented.keys() - emitted.keys())]
    for code in sorted(emitted.keys() & documented.keys()):
        known = {status for status in emitted[code] if status is not None}
        if known != documented[code]:
            wrong.append(f"`{code}` is answered with {sorted(known)}, documented with {sorted(documented[code])}")
    return wrong


def test_the_finder_reads_every_code_it_meets(literal):
    """A code produced in a way the finder cannot read would be missed: it must be taught that way first."""
    assert literal["unreadable"] == []


def test_every_error_code_is_documented_with_its_status_and_no_other(emitted):
    assert differences(emitted, documented_codes(DOC.read_text())) == []


def test_a_code_left_out_of_the_document_or_added_to_it_is_reported(emitted):
    """The comparison can fail: without the `too_many_runs` row, or with a row for a code nothing answers, or
    with a wrong status, the document is wrong (compared with what is wrong already, so that this test fails
    only for its own reason)."""
    text = DOC.read_text()
    already = set(differences(emitted, documented_codes(text)))

    def new_differences(changed: str) -> list[str]:
        return [line for line in differences(emitted, documented_codes(changed)) if line not in already]

    row = next(line for line in text.splitlines() if line.startswith("| `too_many_runs` |"))
    assert new_differences(text.replace(row + "\n", "")) == ["`too_many_runs` is answered but not documented"]
    invented = text + "| `no_such_code` | 418 | API | never | nothing |\n"
    assert new_differences(invented) == ["`no_such_code` is documented but nothing answers it"]
    wrong_status = text.replace(row, row.replace("| 409 |", "| 422 |"))
    assert new_differences(wrong_status) == ["`too_many_runs` is answered with [409], documented with [422]"]


def test_the_design_codes_scripts_use_are_found_in_the_source(emitted):
    """The codes DESIGN §11.1 names for scripts, with their statuses: a check that the collection itself
    works (a finder that found nothing would make the document's check pass for an empty table)."""
    design = {
        "idempotency_key_reused": {422},
        "idempotency_key_in_use": {409},
        "insufficient_balance": {422},
        "out_of_stock": {409},
        "not_found": {404},
        "invalid_request": {400, 422},
        "rate_unavailable": {503},
        "unsupported_pair": {422},
    }
    assert {code: emitted.get(code, set()) for code in design} == design


def _openapi_mentions() -> list[tuple[str, str, int, str]]:
    """(path, method, status, code) for each "STATUS `code`" in an operation's or a parameter's description."""
    from config.api import api

    mentions = []
    for path, operations in api.get_openapi_schema()["paths"].items():
        for method, operation in operations.items():
            texts = [operation.get("description", "")]
            texts += [parameter.get("description", "") for parameter in operation.get("parameters", [])]
            for text in texts:
                for status, code in STATUS_AND_CODE.findall(text):
                    mentions.append((path, method, int(status), code))
    return mentions


def test_openapi_descriptions_name_documented_codes_with_their_status():
    """An endpoint that says it answers "409 `too_many_runs`" agrees with docs/api-errors.md, and declares
    that status among its responses (so the fuzz test and generated clients expect it)."""
    documented = documented_codes(DOC.read_text())
    mentions = _openapi_mentions()
    assert len(mentions) > 10  # the descriptions do name codes; a changed wording must not empty this check
    wrong = [
        f"{method.upper()} {path}: {status} `{code}`"
        for path, method, status, code in mentions
        if status not in documented.get(code, set())
    ]
    assert wrong == []


def test_openapi_operations_declare_the_statuses_their_descriptions_name():
    from config.api import api

    paths = api.get_openapi_schema()["paths"]
    undeclared = sorted(
        {
            f"{method.upper()} {path}: {status}"
            for path, method, status, _code in _openapi_mentions()
            if status not in {int(key) for key in paths[path][method].get("responses", {})}
        }
    )
    assert undeclared == []
