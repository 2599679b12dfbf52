"""The games' compiled searches run on the one shared module (``engines/searches.py``): each
game's ``search.py`` gives it its pieces (evaluator, ordering, keys, playouts) and binds the
searches ``searches.build`` made (Imbrication's with wide moves: a word and a capture mask)."""

from __future__ import annotations

import importlib

import pytest

from ludotheque.engines import searches

SHARED = {"pylos": ("alphabeta", "uct", "pimc", "ismcts"), "expion": ("alphabeta", "uct"),
          "plimil": ("ismcts",), "imbrication": ("pimc", "ismcts")}


@pytest.mark.parametrize("game_id", sorted(SHARED))
def test_the_games_searches_are_built_by_the_shared_module(game_id: str) -> None:
    module = importlib.import_module(f"ludotheque.engines.{game_id}.search")
    assert isinstance(module.SEARCHES, searches.Searches)
    for name in SHARED[game_id]:
        assert callable(getattr(module, name))


def test_build_names_what_a_kernel_lacks() -> None:
    with pytest.raises(ValueError, match="needs"):
        searches.build({"generate": None}, max_moves=4, root=lambda state: state, players=lambda state: 2)
