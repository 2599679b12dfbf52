"""``ludotheque.research`` stands on the contract: it imports nothing of the project but
``ludotheque.core`` (the contract and the registry) and, for Gymnasium's opponents, ``ludotheque.ai``;
the games' action modules are reached through ``GameInfo.actions`` only."""

from __future__ import annotations

import ast
from pathlib import Path

import ludotheque.research

RESEARCH = Path(ludotheque.research.__file__).parent
ALLOWED = {"ludotheque.core", "ludotheque.research", "ludotheque.ai"}


def project_imports(path: Path) -> set[str]:
    """The project modules that ``path`` imports, as absolute names."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the research package
                base = "ludotheque" if node.level == 2 else "ludotheque.research"
                if node.module:
                    found.add(f"{base}.{node.module}")
                else:
                    found.update(f"{base}.{alias.name}" for alias in node.names)
            elif node.module and node.module.startswith("ludotheque"):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("ludotheque"))
    return found


def test_research_imports_only_the_contract_and_the_bots() -> None:
    for path in sorted(RESEARCH.glob("*.py")):
        for name in project_imports(path):
            assert any(name == a or name.startswith(a + ".") for a in ALLOWED), (path.name, name)
            if name.startswith("ludotheque.ai"):
                assert path.name == "gymnasium.py", (path.name, name)
