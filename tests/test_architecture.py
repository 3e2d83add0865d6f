"""The dependency direction of DESIGN §10, checked on the import statements of every module."""

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each package may import from the project (besides itself). `backoffice` may import everything.
ALLOWED = {
    "core": set(),
    "accounts": {"core"},
    "catalog": {"core"},
    "glossary": {"core"},
    "orders": {"core", "catalog", "accounts", "ledger"},
    "hosts": {"core", "catalog", "accounts", "orders", "ledger"},
    "payments": {"core", "catalog", "accounts", "orders", "ledger"},
    "chains": {"core", "catalog", "accounts", "orders", "ledger", "payments"},
    "ledger": {"core", "accounts"},
    "sizing": {"core", "catalog", "accounts", "glossary", "vramcalc"},
    "journal": {"core", "catalog", "accounts", "orders", "sizing", "vramcalc"},
    "exports": {"core", "accounts", "orders", "payments", "journal"},
    "support": {"core", "catalog", "accounts", "orders"},
    "guides": {"core", "catalog", "accounts", "glossary", "sizing", "vramcalc"},
    # The help page lists the accepted asset/network pairs from payments' registry (decision 0476).
    "pages": {"core", "payments"},
    # /metrics counts the business of every app (gpurent/monitoring, decision 0410); nothing imports it.
    "monitoring": {"core", "catalog", "accounts", "orders", "ledger", "hosts", "payments"},
}


@functools.cache
def imports_by_module() -> dict[Path, list[str]]:
    """The absolute imports of every module under gpurent/ and vramcalc/, parsed in a fresh interpreter.

    Parsing runs in a subprocess (tests/module_imports.py) so that no recursion state left by other tests in
    this process can trigger CPython 3.11's "AST constructor recursion depth mismatch" SystemError.
    """
    modules = sorted(str(path) for top in ("gpurent", "vramcalc") for path in (ROOT / top).rglob("*.py"))
    done = subprocess.run(
        [sys.executable, "-I", str(ROOT / "tests" / "module_imports.py"), *modules],
        capture_output=True,
        text=True,
        check=True,
    )
    return {Path(name): names for name, names in json.loads(done.stdout).items()}


def project_imports(path: Path) -> set[str]:
    """The project packages a module imports: `gpurent.<app>` becomes `<app>`; `vramcalc` stays."""
    found = set()
    for name in imports_by_module()[path]:
        parts = name.split(".")
        if parts[0] == "gpurent" and len(parts) > 1:
            found.add(parts[1])
        elif parts[0] == "vramcalc":
            found.add("vramcalc")
    return found


def app_modules(app: str) -> list[Path]:
    return [path for path in (ROOT / "gpurent" / app).rglob("*.py") if "tests" not in path.parts]


@pytest.mark.parametrize("app", sorted(path.name for path in (ROOT / "gpurent").iterdir() if path.is_dir()))
def test_app_imports_follow_the_dependency_direction(app):
    if app == "__pycache__":
        pytest.skip("not an app")
    if app == "backoffice":
        return
    assert app in ALLOWED, f"new app {app!r}: add its allowed imports to this test and docs/architecture.md"
    for module in app_modules(app):
        wrong = project_imports(module) - ALLOWED[app] - {app}
        assert not wrong, f"{module.relative_to(ROOT)} imports {sorted(wrong)}"


def test_nothing_imports_backoffice():
    for module in (ROOT / "gpurent").rglob("*.py"):
        if "backoffice" not in module.parts:
            assert "backoffice" not in project_imports(module), module


def test_vramcalc_imports_no_django_and_no_shop_code():
    package = ROOT / "vramcalc"
    if not package.exists():
        pytest.skip("vramcalc not written yet")
    for module in package.rglob("*.py"):
        roots = {name.split(".")[0] for name in imports_by_module()[module]}
        assert not roots & {"django", "gpurent", "config", "ninja"}, module


def test_import_parsing_does_not_share_this_process_ast_state(monkeypatch):
    """CPython 3.11's AST constructor can fail with "recursion depth mismatch" after other tests changed the
    recursion state; these checks parse in a fresh interpreter, so a broken `ast` here cannot reach them."""
    import ast

    def broken(*args, **kwargs):
        raise SystemError("AST constructor recursion depth mismatch (before=102, after=37)")

    monkeypatch.setattr(ast, "parse", broken)
    monkeypatch.setattr("builtins.compile", broken)
    fresh = imports_by_module.__wrapped__()
    assert "django.db" in fresh[ROOT / "gpurent" / "core" / "models.py"]
    assert fresh == imports_by_module()


# Scripts that `ast.parse` in a fresh interpreter (run with subprocess); no other test code may parse in-process.
FRESH_PARSERS = {
    "tests/module_imports.py",
    "tests/literal_error_codes.py",
    "gpurent/sizing/tests/engine_messages.py",
}


def test_no_test_parses_python_in_the_test_process():
    """The "AST constructor recursion depth mismatch" flake strikes any `ast.parse` in the test process, not
    only this file's: test code that needs a syntax tree runs one of the FRESH_PARSERS in a subprocess."""
    in_process = []
    for path in sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "gpurent").rglob("tests/**/*.py")]):
        relative = str(path.relative_to(ROOT))
        if relative not in FRESH_PARSERS and re.search(r"\bast\.(?:parse|walk)\(|from ast +import", path.read_text()):
            in_process.append(relative)
    assert in_process == [], "parse in a subprocess, as tests/module_imports.py does"
    assert all((ROOT / name).exists() for name in FRESH_PARSERS)
