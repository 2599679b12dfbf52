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


def test_a_level_may_be_declared_per_player_count_and_its_plain_baseline_follows() -> None:
    """Ex*Pion's 3-player ``hard`` searches further (its pair must defend against a lone player
    who moves either colour); the 2- and 4-player rows and every ``-plain`` level are unchanged."""
    from ludotheque.ai.levels import spec_for

    def kernel_nodes(players: int, name: str) -> object:
        options = spec_for(ludotheque.load("expion", players=players), name).options
        return options.get("kernel", {}).get("nodes")

    assert [kernel_nodes(players, "hard") for players in (2, 3, 4)] == [1_000_000, 3_000_000, 1_000_000]
    assert {str(spec_for(ludotheque.load("expion", players=players), "hard-plain").options)
            for players in (2, 3, 4)} == {"{'depth': 6, 'nodes': 6000}"}
    assert kernel_nodes(3, "medium") == kernel_nodes(4, "medium") == 10_000
