"""Levels answer to their French names too, wherever a level is named; the design's names stay the
canonical ones, and an unknown name is still a ``ValueError``."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import ai


@pytest.mark.parametrize(("french", "english"), [
    ("facile", "easy"), ("moyen", "medium"), ("difficile", "hard"), ("aléatoire", "random"),
    ("aleatoire", "random"), ("hasard", "random"), ("Difficile", "hard"), (" facile ", "easy"),
])
def test_french_names_stand_for_designs_names(french: str, english: str) -> None:
    assert ai.canonical_level(french) == english
    game = ludotheque.load("pylos")
    state = game.new_state()
    assert ai.bot(french, game, seed=5).choose(state) == ai.bot(english, game, seed=5).choose(state)


def test_canonical_names_are_their_own_and_algorithms_keep_theirs() -> None:
    for name in ai.NAMES:
        assert ai.canonical_level(name) == name


@pytest.mark.parametrize("name", ["grandmaster", "", "easy hard", "difficult"])
def test_an_unknown_name_is_still_a_value_error_with_designs_message(name: str) -> None:
    with pytest.raises(ValueError, match=r"unknown bot .*; names: random, easy, medium, hard, alphabeta"):
        ai.bot(name, ludotheque.load("pylos"))


def test_level_specs_and_labels_answer_to_french_names() -> None:
    game = ludotheque.load("expion", players=4)
    assert ai.level_for(game, "difficile") == ai.level_for(game, "hard")
    assert [ai.level_label(name, "fr") for name in ("random", "easy", "medium", "hard")] == [
        "aléatoire", "facile", "moyen", "difficile"]
    assert ai.level_label("difficile", "en") == "hard" and ai.level_label("mcts", "fr") == "mcts"
