"""Print, as JSON, the absolute imports of each Python file named on the command line.

`tests/test_architecture.py` runs this script in a fresh interpreter instead of calling `ast.parse` in the
test process: CPython 3.11 can raise "SystemError: AST constructor recursion depth mismatch" when a parse
follows code that changed the interpreter's recursion state (a test that hit deep recursion), and a new
process has no such state. Output: {"path": ["module.name", ...], ...}; `import a.b` gives "a.b",
`from a.b import c` gives "a.b"; relative imports are left out.
"""

import ast
import json
import sys
from pathlib import Path


def absolute_imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


if __name__ == "__main__":
    json.dump({name: absolute_imports(Path(name)) for name in sys.argv[1:]}, sys.stdout)
