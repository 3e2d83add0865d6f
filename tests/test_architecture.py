"""The dependency direction of DESIGN §10, checked on the import statements of every module."""

import ast
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
    "payments": {"core", "catalog", "accounts", "orders", "ledger"},
    "chains": {"core", "catalog", "accounts", "orders", "ledger", "payments"},
    "ledger": {"core", "accounts"},
    "sizing": {"core", "catalog", "accounts", "glossary", "vramcalc"},
    "journal": {"core", "catalog", "accounts", "orders", "sizing", "vramcalc"},
    "support": {"core", "catalog", "accounts", "orders"},
    "guides": {"core", "catalog", "glossary", "sizing", "vramcalc"},
}


def project_imports(path: Path) -> set[str]:
    """The project packages a module imports: `gpurent.<app>` becomes `<app>`; `vramcalc` stays."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
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
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & {"django", "gpurent", "config", "ninja"}, module
