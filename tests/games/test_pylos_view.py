"""Pylos views: what a page draws from (issue 14), and the layering behind them.

A view reads the state through ``view.PylosPosition`` only: ``view.py`` imports nothing from
``rules.py``, and no module of the package but ``rules.py`` reads a private field of a state.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError
from ludotheque.engines.pylos import view as view_module
from ludotheque.engines.pylos.board import NAMES
from ludotheque.engines.pylos.rules import VARIANTS, PylosGame, PylosState

from .test_pylos import known

PACKAGE = Path(view_module.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """The modules ``path`` imports from, relative ones written with their leading dots."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_view_module_imports_nothing_from_the_rules() -> None:
    modules = imported_modules(PACKAGE / "view.py")
    assert not any(module.endswith("rules") for module in modules), modules
    assert ".view" in imported_modules(PACKAGE / "rules.py"), "rules.py calls the view module"


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "rules.py"))
def test_no_module_but_the_rules_reads_a_private_field(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text())
    # A class's own private attributes (``self._…``) are its business; another object's are not.
    private = [
        ast.unparse(node) for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert private == []


def test_the_state_offers_what_the_view_protocol_names() -> None:
    protocols = (view_module.PylosPosition, *view_module.PylosPosition.__bases__)
    names = {name for protocol in protocols for name in vars(protocol) if not name.startswith("_")}
    assert names == {"game", "to_move", "is_over", "ply", "result", "balls", "reserve",
                     "repetitions", "legal_moves"}
    assert all(hasattr(PylosState, name) for name in names)


def test_levels_list_every_cell_once_level_by_level_in_cell_order() -> None:
    view = ludotheque.load("pylos").new_state().view(1)
    assert [len(level) for level in view["levels"]] == [16, 9, 4, 1]
    assert [cell for level in view["levels"] for cell in level] == NAMES
    assert view["levels"][1][:4] == ["2a1", "2b1", "2c1", "2a2"], "rank by rank, files within"


def test_first_removals_are_the_balls_each_square_may_give_back_first() -> None:
    state = known("square_ready")
    assert state.view(None)["first_removals"] == {"1b2": ["1a1", "1b1", "1a2", "1b2", "1d4"]}
    # Taking 2a1 back first frees 1a1: 1a1 is no first removal, and that pair has one order.
    freed = known("freed_by_first").view(0)["first_removals"]
    assert freed == {"1d4": ["1c3", "1d3", "1c4", "1d4", "2a1"]}
    assert ludotheque.load("pylos").new_state().view(None)["first_removals"] == {}


def test_first_removals_follow_a_raise_and_are_empty_once_over() -> None:
    raised = known("raise_completes_square").view(None)["first_removals"]
    assert "1a4-2b2" in raised and "1a4" not in raised["1a4-2b2"], "the raised ball left 1a4"
    final = known("top_only").play("4a1")
    assert final.view(None)["first_removals"] == {} and final.view(None)["available"] == []


def played_states(variant: str, games: int, seed: int) -> list[PylosState]:
    """Every state of ``games`` random games that mostly take back balls (many squares)."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = PylosGame(variant).new_state()
        while not state.is_over:
            states.append(state)
            moves = state.legal_moves()
            squares = [m for m in moves if m.removals]
            state = state.play(rng.choice(squares if squares and rng.random() < 0.7 else moves))
    return states


@pytest.mark.parametrize("variant", VARIANTS)
def test_first_removals_tell_exactly_which_pairs_work_in_either_order(variant: str) -> None:
    """What the page relies on (``pylos.js`` ``paths``): the second ball of a listed pair is a
    first removal exactly when the pair may be made in the other order too."""
    game = ludotheque.load("pylos", variant=variant)
    pairs = 0
    for state in played_states(variant, 6, seed=len(variant)):
        legal = [str(move) for move in state.legal_moves()]
        firsts = state.view(None)["first_removals"]
        heads = {text.split("x")[0] for text in legal if "x" in text}
        assert firsts == {head: [cell for cell in NAMES if f"{head}x{cell}" in legal] for head in heads}
        for text in legal:
            head, *removals = text.split("x")
            if len(removals) != 2:
                continue
            pairs += 1
            swapped = f"{head}x{removals[1]}x{removals[0]}"
            try:
                either = str(game.parse_move(state, swapped)) == text
            except IllegalMoveError:
                either = False
            assert either == (removals[1] in firsts[head]), (text, firsts)
    assert pairs > 0 or variant == "kids"


def test_a_view_is_plain_json_and_the_same_for_every_reader() -> None:
    state = known("random_advanced_22", variant="advanced")
    views = [state.view(reader) for reader in (None, 0, 1)]
    assert all({k: v for k, v in view.items() if k != "viewer"} ==
               {k: v for k, v in views[0].items() if k != "viewer"} for view in views)
    assert json.loads(json.dumps(views[0])) == views[0]
    assert views[0]["first_removals"], "Light may close squares and lines here"
