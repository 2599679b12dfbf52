"""Stored search results: each game's compiled searches on a few positions at fixed seeds and
budgets (chosen move, value, depth, nodes, root scores, line), its perft and its playouts, so that
"a refactoring changes no result" is a test (``test_golden.py``).

``python -m tests.kernels.golden`` (from the repository root) writes ``data/searches.json`` anew:
only when a change of results is intended, and said so.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ludotheque
from ludotheque.core.contract import State

DATA = Path(__file__).parent / "data" / "searches.json"

# (game id, load options, plies of random moves before each position, searches with options)
CASES: tuple[tuple[str, dict[str, Any], tuple[int, ...], dict[str, dict[str, Any]]], ...] = (
    ("pylos", {}, (0, 7, 15, 24),
     {"alphabeta": {"depth": 6, "nodes": 20_000},
      "uct": {"iterations": 600},
      "uct-solver": {"iterations": 600, "greedy": 0.5, "solver": True},
      "pimc": {"depth": 4, "nodes": 5_000},
      "ismcts": {"iterations": 400}}),
    ("imbrication", {}, (0, 5, 14, 70),
     {"pimc": {"depth": 3, "nodes": 20_000, "samples": 4},
      "ismcts": {"iterations": 600, "samples": 8},
      "ismcts-evaluator": {"iterations": 600, "samples": 8, "use_evaluator": True},
      "pimc-turns": {"depth": 2, "nodes": 15_000, "samples": 1, "depth_step": 2, "whole_turns": True},
      "pimc-exact": {"depth": 2, "nodes": 3_000, "samples": 1, "exact_root": True,
                     "weights": {"pocket": 2}},
      "pimc-small": {"depth": 4, "nodes": 300, "samples": 3},
      "ismcts-territory": {"iterations": 400, "samples": 5, "keeps_territory": True}}),
    ("expion", {"players": 2}, (0, 9, 20),
     {"alphabeta": {"depth": 5, "nodes": 20_000},
      "uct": {"iterations": 400}}),
    ("expion", {"players": 4}, (0, 9),
     {"uct": {"iterations": 300}}),
    ("plimil", {}, (0, 12, 30, 45),
     {"ismcts": {"iterations": 800, "samples": 8}}),
)
SEED = 7
WORLDS = 4


def search_function(game_id: str, name: str) -> Callable[..., Any]:
    """The game's compiled search ``name`` (its search module's, else its kernel's)."""
    for module in ("search", "kernel"):
        found = getattr(importlib.import_module(f"ludotheque.engines.{game_id}.{module}"), name, None)
        if callable(found):
            return found  # type: ignore[no-any-return]
    raise LookupError(f"{game_id}: no compiled {name}")


def position(game_id: str, options: dict[str, Any], plies: int) -> State:
    """The state after ``plies`` random moves (a generator seeded by the game and ply count)."""
    game = ludotheque.load(game_id, **options)
    state = game.new_state(seed=plies)
    rng = random.Random(f"{game_id}/{plies}")
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def answer(found: Any) -> dict[str, Any]:
    return {"move": int(found.move), "value": round(float(found.value), 9), "depth": int(found.depth),
            "nodes": int(found.nodes), "moves": [int(m) for m in found.moves],
            "scores": [round(float(s), 6) for s in found.scores], "line": [int(m) for m in found.line]}


def compute() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for game_id, options, plies_list, searches in CASES:
        kernel = importlib.import_module(f"ludotheque.engines.{game_id}.kernel")
        label = game_id + "".join(f"/{k}={v}" for k, v in options.items())
        for plies in plies_list:
            state = position(game_id, options, plies)
            where = f"{label}@{plies}"
            playouts = kernel.playouts(state, 20, SEED)
            results[f"{where}/playouts"] = {"wins": [int(w) for w in playouts.wins],
                                            "draws": int(playouts.draws),
                                            "lengths": [int(n) for n in playouts.lengths]}
            results[f"{where}/perft"] = kernel.perft(2, state)
            for kind, budget in searches.items():
                name = kind.split("-")[0]
                budget = dict(budget)
                function = search_function(game_id, name)
                if name in ("pimc", "ismcts"):
                    rng = random.Random(SEED)
                    player = state.to_move
                    samples = budget.pop("samples", WORLDS)
                    worlds = [state.determinize(player, rng) for _ in range(samples)]
                    found = function(worlds, seed=SEED, **budget)
                else:
                    found = function(state, seed=SEED, **budget)
                results[f"{where}/{kind}"] = answer(found)
    return results


def main() -> None:
    results = compute()
    DATA.write_text(json.dumps(results, indent=0, sort_keys=True) + "\n")
    print(f"wrote {len(results)} results to {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
