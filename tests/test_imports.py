"""The import graph of ``src/ludotheque``: no import cycle (an import inside a function counts:
it is a cycle postponed) and no private name (``_name``) read from another module.

A module of a package may import its package's ``__init__`` (where the package is declared) and
the package may import its modules; that is not counted as a cycle. ``KNOWN_CYCLES`` and
``KNOWN_PRIVATE`` list what is still there outside the kernels' files, for the owners of those
files to remove (then delete the line here: the test fails on a listed exception that is gone).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "ludotheque"

KNOWN_CYCLES: set[frozenset[str]] = set()
"""Cycles left for the lead to break, each as the set of its modules."""
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()
"""(reading module, module read, private name) left for the lead to remove."""


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = path.relative_to(SOURCE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, str | None]]:
    """(module imported, name taken from it or ``None``) for every import in the module."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(name, is_package, node.level, node.module)
            if source.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in known:
                    yield submodule, None
                else:
                    yield source, alias.name


def graph() -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    private: set[tuple[str, str, str]] = set()
    for name, path in known.items():
        aliases: dict[str, str] = {}
        for target, taken in imports(name, path, known):
            while target not in known and "." in target:
                target = target.rpartition(".")[0]
            if target not in known or target == name:
                continue
            if not (name.startswith(target + ".") or target.startswith(name + ".")):
                edges[name].add(target)  # a package and its own modules are not a cycle
            if taken is not None and taken.startswith("_") and not taken.startswith("__"):
                private.add((name, target, taken))
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _resolve(name, path.name == "__init__.py", node.level, node.module)
                for alias in node.names:
                    if f"{source}.{alias.name}" in known:
                        aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and alias.name in known:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                private.add((name, aliases[node.value.id], node.attr))
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    found = set(cycles(graph()[0]))
    assert found - KNOWN_CYCLES == set(), sorted(sorted(c) for c in found - KNOWN_CYCLES)
    assert KNOWN_CYCLES - found == set(), "a known cycle is gone: delete it from KNOWN_CYCLES"


def test_no_private_name_read_across_modules() -> None:
    found = graph()[1]
    assert found - KNOWN_PRIVATE == set(), sorted(found - KNOWN_PRIVATE)
    assert KNOWN_PRIVATE - found == set(), "a known private read is gone: delete it from KNOWN_PRIVATE"
