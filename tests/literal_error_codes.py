"""Print, as JSON, every error code written as a literal in the Python files named on the command line.

`tests/test_error_codes_documented.py` runs this script in a fresh interpreter (see `tests/module_imports.py`
for why no test parses Python in its own process). `ApplicationError` subclasses are collected by that test
from the imported classes; this script finds the codes that no class carries:

- the first argument of `error_body(code, message)`, with the `status=` of the call around it
  (`JsonResponse(error_body(...), status=405)`);
- the third argument of the API's `respond(request, status, code, message)` handler helper, with its second;
- the `"code"` of an `{"error": {"code": ...}}` literal, with the status given to the call around it
  (`Outcome(422, {...})`);
- each entry of a status-to-code map (a dict literal of HTTP statuses to code strings), and the default of a
  `.get(status, "code")` on one.

A code written any other way (a variable other than the helpers' own `code` parameter or an error's `.code`)
is reported as unreadable, so that a new way of producing a code fails the test instead of passing unseen.

Output: {"literal": [[code, status or null, "path:line"], ...], "unreadable": ["path:line: expression", ...]}.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

CODE = re.compile(r"[a-z][a-z0-9_]*")
# Callee name: (position of the code argument, position of the status argument or None).
HELPERS = {"error_body": (0, None), "respond": (2, 1)}
# Expressions that pass a code through rather than name one: the helpers' own parameter and an error's class
# attribute, which the test collects from the classes themselves.
PASS_THROUGH = {"code", "exc.code", "self.code", "exception.code", "error.code"}


def _callee(call: ast.Call) -> str:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return ""


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _int(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int and 100 <= node.value <= 599:
        return node.value
    return None


def _status_of_call(call: ast.Call) -> int | None:
    """The HTTP status a call gives its response: a `status=` keyword or a first positional integer."""
    for keyword in call.keywords:
        if keyword.arg == "status":
            return _int(keyword.value)
    return _int(call.args[0]) if call.args else None


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.calls: list[ast.Call] = []  # the calls around the node being visited, innermost last
        self.literal: list[list[object]] = []
        self.unreadable: list[str] = []

    def _where(self, node: ast.AST) -> str:
        return f"{self.path}:{getattr(node, 'lineno', 0)}"

    def _enclosing_status(self) -> int | None:
        for call in reversed(self.calls):
            status = _status_of_call(call)
            if status is not None:
                return status
        return None

    def _code(self, node: ast.AST, status: int | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value):
            self.literal.append([node.value, status, self._where(node)])
        elif (
            isinstance(node, ast.Call)
            and _callee(node) == "get"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            # `_CODES_BY_STATUS.get(status, "error")`: the map's entries are found as a dict literal; its
            # default is a code of its own, answered with whatever status had no entry.
            self.literal.append([node.args[1].value, None, self._where(node)])
        elif ast.unparse(node) not in PASS_THROUGH:
            self.unreadable.append(f"{self._where(node)}: {ast.unparse(node)}")

    def visit_Call(self, node: ast.Call) -> None:
        helper = HELPERS.get(_callee(node))
        if helper is not None:
            code_at, status_at = helper
            code = node.args[code_at] if len(node.args) > code_at else _keyword(node, "code")
            # A call without a code (`respond(outcome)` of the idempotency helpers) is another function's.
            if code is not None:
                status = node.args[status_at] if status_at is not None and len(node.args) > status_at else None
                found = _int(status if status is not None else _keyword(node, "status"))
                self._code(code, found if found is not None else self._enclosing_status())
        self.calls.append(node)
        self.generic_visit(node)
        self.calls.pop()

    def visit_Dict(self, node: ast.Dict) -> None:
        pairs = list(zip(node.keys, node.values, strict=True))
        for key, value in pairs:
            if isinstance(key, ast.Constant) and key.value == "error" and isinstance(value, ast.Dict):
                for inner_key, inner_value in zip(value.keys, value.values, strict=True):
                    if isinstance(inner_key, ast.Constant) and inner_key.value == "code":
                        self._code(inner_value, self._enclosing_status())
        statuses = [_int(key) for key, _ in pairs]
        if pairs and all(status is not None for status in statuses):
            for status, (_, value) in zip(statuses, pairs, strict=True):
                if isinstance(value, ast.Constant) and isinstance(value.value, str) and CODE.fullmatch(value.value):
                    self.literal.append([value.value, status, self._where(value)])
        self.generic_visit(node)


def find(paths: list[str]) -> dict[str, list[object]]:
    literal: list[object] = []
    unreadable: list[object] = []
    for name in paths:
        finder = _Finder(name)
        finder.visit(ast.parse(Path(name).read_text(), filename=name))
        literal.extend(finder.literal)
        unreadable.extend(finder.unreadable)
    return {"literal": literal, "unreadable": unreadable}


if __name__ == "__main__":
    json.dump(find(sys.argv[1:]), sys.stdout)
