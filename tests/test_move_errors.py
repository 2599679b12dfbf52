"""Move errors carry a stable key and parameters besides their English text, so that the
command line (and any client) can say them in French; the English text stays as it was."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

import ludotheque
from ludotheque import i18n
from ludotheque.core import IllegalMoveError, InvalidMoveError, MoveError, State


def refusal(state: State, text: str) -> MoveError:
    with pytest.raises(MoveError) as caught:
        state.game.parse_move(state, text)
    return caught.value


def start(game_id: str, *moves: str) -> State:
    state = ludotheque.load(game_id, players=2).new_state(seed=0)
    for move in moves:
        state = state.play(move)
    return state


# (position, text, English message as it has always read, key, reason key, French reason)
CASES: list[tuple[Callable[[], State], str, str, str, str, str]] = [
    (lambda: start("pylos"), "1e9", "pylos: '1e9' is not a move: unknown cell '1e9'",
     "invalid_move", "unknown_cell", "case inconnue « 1e9 »"),
    (lambda: start("pylos"), "zz", "pylos: 'zz' is not a move: expected a cell like '1b2', a raise like "
     "'1a1-2b2', removals like 'x1c3'", "invalid_move", "not_notation", "attendu une case comme « 1b2 »"),
    (lambda: start("pylos", "1a1"), "1a1", "pylos: '1a1' is not legal at ply 1: 1a1 is not available",
     "illegal_move", "not_available", "1a1 n'est pas disponible"),
    (lambda: start("pylos", "1a1"), "1a1-2a1", "pylos: '1a1-2a1' is not legal at ply 1: no ball of yours "
     "on 1a1", "illegal_move", "not_your_ball", "aucune de vos billes en 1a1"),
    (lambda: start("expion"), "a1-a2", "expion: 'a1-a2' is not a move: 'a1' is not a cell (the corners "
     "are off the board)", "invalid_move", "not_a_cell", "« a1 » n'est pas une case"),
    (lambda: start("expion"), "e5-e6", "expion: 'e5-e6' is not legal at ply 0: no marble on e5",
     "illegal_move", "no_marble", "aucune bille en e5"),
    (lambda: start("imbrication"), "i9", "imbrication: 'i9' is not a move: unknown cell 'i9'",
     "invalid_move", "unknown_cell", "case inconnue « i9 »"),
    (lambda: start("imbrication"), "d4-d5", "imbrication: 'd4-d5' is not legal at ply 0: place a piece "
     "first (a cell like 'd4')", "illegal_move", "place_first", "posez d'abord un pion"),
    (lambda: start("plimil"), "d3-d9", "plimil: 'd3-d9' is not a move: expected a move like 'd2-d4', "
     "'d3-d4xe4', 'd3-d4@cw', 'pass', 'stems SSSSTTTT' or 'block d1 BNR'", "invalid_move",
     "not_notation", "attendu un coup comme « d2-d4 »"),
    (lambda: start("plimil"), "pass", "plimil: 'pass' is not legal at ply 0: the setup expects 'stems' "
     "with 8 letters, half S and half T", "illegal_move", "setup_stems", "la préparation attend « stems »"),
]


@pytest.mark.parametrize(("position", "text", "english", "key", "reason", "french"), CASES)
def test_errors_keep_their_english_text_and_carry_a_key_and_parameters(
    position: Callable[[], State], text: str, english: str, key: str, reason: str, french: str
) -> None:
    state = position()
    error = refusal(state, text)
    assert str(error) == english
    assert isinstance(error, InvalidMoveError if key == "invalid_move" else IllegalMoveError)
    assert error.key == key and error.params["reason"] == reason
    assert error.params["game"] == state.game.id and error.params["text"] == text
    assert error.reason is not None and french in error.reason.text("fr")
    assert french in i18n.move_error(error, "fr")
    assert english.endswith(str(error.reason))
    refused = "not a move" if key == "invalid_move" else "not legal"
    assert i18n.move_error(error, "en") == f"'{text}' is {refused}: {error.reason}"


def test_a_refused_move_object_and_a_finished_game_are_keyed_too() -> None:
    state = start("pylos", "1a1")
    foreign = start("pylos").legal_moves()[0]
    with pytest.raises(IllegalMoveError) as caught:
        state.play(foreign)
    assert str(caught.value) == "pylos: Move.from_text('1a1') is not legal at ply 1"
    assert caught.value.params["text"] == "1a1" and caught.value.reason is None
    assert i18n.move_error(caught.value, "fr") == "« 1a1 » n'est pas permis ici"
    over = ludotheque.load("pylos").state_from_json(
        {**start("pylos").to_json(), "result": {"winners": [1], "scores": [-1, 1], "reason": "top"}})
    error = refusal(over, "1a1")
    assert str(error) == "pylos: '1a1' is not legal: the game is over"
    assert error.params["reason"] == "game_over" and error.reason is not None
    assert i18n.move_error(error, "fr") == "« 1a1 » n'est pas permis : la partie est terminée"


@pytest.mark.parametrize("game_id", ["pylos", "expion", "imbrication", "plimil"])
def test_every_refusal_along_a_game_has_words_in_both_languages(game_id: str) -> None:
    import random

    rng = random.Random(1)
    state = start(game_id)
    seen: set[str] = set()
    texts = {str(m) for s in [state] for m in s.legal_moves()}
    while not state.is_over and state.ply < 80:
        # Yesterday's moves, tried again, are refused for every kind of reason.
        for text in sorted(texts)[:40]:
            try:
                state.game.parse_move(state, text)
            except MoveError as error:
                assert error.reason is not None
                assert set(error.reason.words) >= {"en", "fr"}, error.reason.key
                assert error.reason.text("fr") != error.reason.text("en")
                seen.add(error.reason.key)
        texts |= {str(m) for m in state.legal_moves()}
        state = state.play(rng.choice(state.legal_moves()))
    assert len(seen) >= 2


def test_errors_survive_pickling_with_their_parameters() -> None:
    error = refusal(start("pylos"), "1e9")
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) and copy.params == error.params and copy.key == "invalid_move"
