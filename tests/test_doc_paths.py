"""Every dotted `gpurent.…` path the docs, the decisions and the code's docstrings name exists.

A doc that sends the next engineer to a module that was renamed or never existed (`gpurent.backoffice.reclaim`
for `gpurent.core.tasks`) is a wrong doc; a task result whose `exception_class_path` names no class fails when
it is read. Each path must import as a module, or as a module and then attributes of it.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# `gpurent.a.b` not followed by a letter, digit, `_` or `-` (a salt such as "gpurent.accounts.email-change" is a
# name, not a path), nor by `.x`; a full stop that ends a sentence is not part of the path.
DOTTED = re.compile(r"(?<![\w/.])gpurent(?:\.[A-Za-z_]\w*)+(?![\w-]|\.\w)")


def _sources() -> list[Path]:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs/decisions").glob("*.md"))]
    code = [path for path in sorted((ROOT / "gpurent").rglob("*.py")) if "migrations" not in path.parts]
    return [path for path in [*docs, *code] if path.exists()]


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def _named_paths() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in _sources():
        for match in DOTTED.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(match.group(0), []).append(str(path.relative_to(ROOT)))
    return found


def test_the_scan_finds_the_paths_the_docs_name():
    named = _named_paths()
    assert "gpurent.core.tasks" in {path.rsplit(".", 1)[0] for path in named} | set(named)
    assert len(named) >= 20  # the docs and docstrings name many; an empty scan would prove nothing


@pytest.mark.django_db
def test_every_named_gpurent_path_exists():
    missing = {path: sorted(set(files)) for path, files in _named_paths().items() if not _resolves(path)}
    assert missing == {}
