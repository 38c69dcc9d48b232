"""The problem catalog is complete: every code used is documented, every documented code
is used, every problem and error carries one, and no library message names a flag."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from duplicate.problems import CATALOG
from tests.conftest import ROOT

PACKAGE = ROOT / "duplicate"
ERRORS = {"UsageError", "InputOutputError", "OutOfRange"}


def calls() -> list[tuple[Path, ast.Call, str]]:
    """Every construction of a Problem or an error in the package, with its name."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name == "Problem" or name in ERRORS:
                    found.append((path, node, name))
    return found


def code_of(node: ast.Call, name: str) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == "code":
            return keyword.value
    if name in ERRORS and len(node.args) >= 2:
        return node.args[1]
    return None


def literal_codes() -> dict[str, str]:
    """Every code written as a literal where a code is given: code -> where."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                value = code_of(node, name) if name in ERRORS else None
                for keyword in node.keywords:
                    if keyword.arg == "code":
                        value = keyword.value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found[value.value] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_every_problem_and_error_carries_a_code() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{node.lineno} {name}"
        for path, node, name in calls()
        if code_of(node, name) is None
    ]
    assert missing == []


def test_every_code_used_is_in_the_catalog() -> None:
    unknown = {code: where for code, where in literal_codes().items() if code not in CATALOG}
    assert unknown == {}


def test_every_code_in_the_catalog_is_used() -> None:
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py") if p.name != "problems.py"
    )
    unused = [code for code in CATALOG if f'"{code}"' not in source]
    assert unused == []


def test_no_library_message_names_a_flag() -> None:
    """The command line names settings by their flags ({opt:name} in a message); the
    library's own words name none."""
    flagged = []
    for path, node, _ in calls():
        if "cli" in path.relative_to(PACKAGE).parts:
            continue
        for part in ast.walk(node):
            text = part.value if isinstance(part, ast.Constant) else None
            if isinstance(text, str) and re.search(r"(^|[\s(`])--[a-z]", text):
                flagged.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}")
    assert flagged == []
