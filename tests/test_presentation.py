"""Each game's presentation lives in its own folder: outside ``engines/``, no line of code names a
built-in game (its boards, picture, styles, lesson rules, bot scores and lobby rank come from its
package, as an installed game's do). Docstrings and comments may name games in examples."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ludotheque.core import games, info
from ludotheque.server.botratings import bot_ratings
from ludotheque.server.presentation import lobby_default

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ludotheque"
BUILT_IN = ("pylos", "expion", "imbrication", "plimil")
NAMED = re.compile(r"\b(?:" + "|".join(BUILT_IN) + r")\b|ex\*pion", re.IGNORECASE)
COMMENT_STARTS = ("//", "*", "/*", "#")


def docstring_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def naming_lines() -> list[str]:
    """``path:line`` of every code line outside ``engines/`` that names a built-in game."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "engines" or not path.is_file() or "__pycache__" in relative.parts:
            continue
        if path.suffix == ".py":
            text = path.read_text("utf-8")
            skipped = docstring_lines(ast.parse(text))
            lines = [(n, line.split("#")[0])
                     for n, line in enumerate(text.splitlines(), 1) if n not in skipped]
        elif path.suffix in (".js", ".css", ".html"):
            lines = [(n, line) for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                     if not line.strip().startswith(COMMENT_STARTS)]
        else:
            continue
        found += [f"{relative}:{n}" for n, code in lines if NAMED.search(code)]
    return found


def test_no_shared_file_names_a_game() -> None:
    assert naming_lines() == []


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_each_game_ships_its_presentation(game_id: str) -> None:
    facts = info(game_id)
    for name in ("page_board.js", "page_board.css", "picture.svg", "terminal_board.py", "presentation.json",
                 "lessons.json", "RULES.md"):
        assert facts.resource(name) is not None, f"{game_id} ships no {name}"
    assert bot_ratings(game_id, min(facts.player_counts))["random"] == 600


def test_the_lobby_opens_on_the_lowest_ranked_game() -> None:
    assert lobby_default() == "pylos" and lobby_default() in games()
