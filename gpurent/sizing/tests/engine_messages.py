"""Print, as JSON, the constant messages the engine raises `InvalidInput` with, in the files named on the
command line (a sorted list of strings).

`test_engine_errors.py` runs this script in a fresh interpreter instead of calling `ast.parse` in the test
process, for the reason `tests/module_imports.py` gives: CPython 3.11 can raise "SystemError: AST constructor
recursion depth mismatch" when a parse follows a test that changed the interpreter's recursion state.
"""

import ast
import json
import sys
from pathlib import Path


def fixed_messages(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call) or getattr(node.func, "id", None) != "InvalidInput":
            continue
        if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            found.add(node.args[1].value)
    return found


if __name__ == "__main__":
    json.dump(sorted(set().union(*(fixed_messages(Path(name)) for name in sys.argv[1:]))), sys.stdout)
