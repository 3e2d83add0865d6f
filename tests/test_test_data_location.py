"""Test data lives under `tests/data/`, outside the shipped package, and only tests and benches read it.

The redactor's corpus and its generators (2.3 MB) sat in `gpurent/core/tests/redaction_corpus/`, inside the
package that is installed (issue 27). Runtime code may name the folder in a docstring but never import it.
"""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _runtime_modules() -> list[Path]:
    """Every module of `gpurent/` and `vramcalc/` that is not test code (no `tests` folder in its path)."""
    return sorted(
        path
        for top in ("gpurent", "vramcalc")
        for path in (ROOT / top).rglob("*.py")
        if "tests" not in path.relative_to(ROOT).parts
    )


def test_runtime_code_imports_nothing_from_tests() -> None:
    # Parsed in a fresh interpreter, as tests/test_architecture.py does (CPython 3.11's AST recursion flake).
    done = subprocess.run(
        [sys.executable, "-I", str(ROOT / "tests" / "module_imports.py"), *map(str, _runtime_modules())],
        capture_output=True,
        text=True,
        check=True,
    )
    imports = json.loads(done.stdout)
    assert len(imports) > 100
    wrong = {
        str(Path(path).relative_to(ROOT)): names
        for path, names in imports.items()
        if [name for name in names if name == "tests" or name.startswith("tests.")]
    }
    assert wrong == {}


def test_the_package_holds_no_corpus() -> None:
    corpora = [path.relative_to(ROOT) for top in ("gpurent", "vramcalc") for path in (ROOT / top).rglob("*.jsonl")]
    assert corpora == []
    assert not list((ROOT / "gpurent").rglob("redaction_corpus"))
    assert (ROOT / "tests" / "data" / "redaction_corpus" / "scoring.py").is_file()
