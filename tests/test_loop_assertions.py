"""Tests that cannot pass by asserting nothing (issue 27): an assertion inside a loop over a list that may be empty
checks nothing when the list is empty. Every such loop in the tests iterates something asserted non-empty before it,
a literal, a module constant, or says on its line why it may be empty."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MAY_BE_EMPTY = "# may be empty"
"""Written on a loop's line when an empty iterable is a case the test means to pass (a property test's input)."""


def _known_nonempty(loop: ast.For, function: ast.FunctionDef, source_line: str) -> bool:
    iterable = loop.iter
    if MAY_BE_EMPTY in source_line or isinstance(iterable, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Constant)):
        return True
    root = iterable
    while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
        root = root.value if not isinstance(root, ast.Call) else root.func
    if isinstance(root, (ast.Dict, ast.List, ast.Tuple)) or isinstance(root, ast.Name) and root.id.isupper():
        return True  # NOTE: a literal, or a module constant written in the test file or the code
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range" and all(
            isinstance(a, ast.Constant) or isinstance(a, ast.Name) and a.id.isupper() for a in iterable.args):
        return True
    names = {n.id for n in ast.walk(iterable) if isinstance(n, ast.Name)}
    for node in ast.walk(function):
        if getattr(node, "lineno", loop.lineno) >= loop.lineno:
            continue
        if isinstance(node, ast.Assert) and names & {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
            return True
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Dict, ast.List, ast.Tuple)) and node.value \
                and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            return True
    return False


def unguarded_loops(folder: Path = TESTS) -> list[str]:
    """Loops with an assertion in their body over an iterable not known to hold anything: "file:line"."""
    found = []
    for path in sorted(folder.glob("test_*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test")):
            for loop in (n for n in ast.walk(function) if isinstance(n, ast.For)):
                if any(isinstance(n, ast.Assert) for part in loop.body for n in ast.walk(part)) \
                        and not _known_nonempty(loop, function, lines[loop.lineno - 1]):
                    found.append(f"{path.name}:{loop.lineno}")
    return found


def test_every_asserting_loop_runs_over_something():
    assert unguarded_loops() == []


def test_the_check_finds_a_loop_over_a_list_never_asserted(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "def test_a(items):\n    for item in items:\n        assert item\n\n"
        "def test_b(items):\n    assert items\n    for item in items:\n        assert item\n\n"
        "def test_c():\n    for item in (1, 2):\n        assert item\n")
    assert unguarded_loops(tmp_path) == ["test_x.py:2"]
