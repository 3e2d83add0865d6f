"""Each module is named after the one thing it holds (docs/architecture.md, "One responsibility per module";
decision 0495, which retired the line-count test of decision 0216).

A module is split when it holds two jobs, not when it reaches a length, and that is a reviewer's judgment, not a
count. What a test can hold is the name: a module called `utils`, `helpers`, `misc` or `common` says that it
holds whatever did not fit elsewhere. Tests and migrations are not read.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES_OF_NOTHING = {"utils", "util", "helpers", "helper", "misc", "common", "stuff"}


def modules() -> list[Path]:
    return sorted(
        path
        for top in ("gpurent", "vramcalc")
        for path in (ROOT / top).rglob("*.py")
        if not {"tests", "migrations"} & set(path.relative_to(ROOT).parts)
    )


def test_modules_are_read():
    assert len(modules()) > 250


def test_no_module_is_named_for_what_did_not_fit_elsewhere():
    vague = [
        str(path.relative_to(ROOT))
        for path in modules()
        if path.stem in NAMES_OF_NOTHING or (path.name == "__init__.py" and path.parent.name in NAMES_OF_NOTHING)
    ]
    assert vague == []
