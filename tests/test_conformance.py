"""One conformance suite for every registered game (docs/style.md §7): it branches on declared facts,
never on game names, so a game is enrolled by registering it."""

from __future__ import annotations

import json
import random

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError, Record, State, info, replay

from .conftest import game_configurations

CONFIGURATIONS = game_configurations()
IDS = [f"{g}-{v}-{p}p" for g, v, p in CONFIGURATIONS]
SEEDS = range(12)
REQUIRED_VIEW_KEYS = {"game", "variant", "players", "viewer", "to_move", "phase", "result"}
MALFORMED = ["", "   ", "@@", "zz99-zz98", "x" * 300, "1a1--", "\n", "pass pass"]


def playout(game: ludotheque.Game, seed: int) -> tuple[list[State], list[str]]:
    """A uniformly random game from ``new_state(seed)``, with every state and move text."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states, texts = [state], []
    for _ in range(info(game.id).max_plies):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        texts.append(str(move))
        state = state.play(move)
        states.append(state)
    return states, texts


@pytest.fixture(scope="module", params=CONFIGURATIONS, ids=IDS)
def played(request: pytest.FixtureRequest) -> tuple[ludotheque.Game, list[tuple[list[State], list[str]]]]:
    game_id, variant, players = request.param
    game = ludotheque.load(game_id, variant=variant, players=players)
    return game, [playout(game, seed) for seed in SEEDS]


def test_registry_lists_the_four_games_sorted() -> None:
    assert ludotheque.games() == sorted(ludotheque.games())
    assert "pylos" in ludotheque.games()
    for game_id in ludotheque.games():
        game = ludotheque.load(game_id)
        assert game.id == game_id
        assert game.variant == info(game_id).default_variant
        assert game.players == info(game_id).default_players


@pytest.mark.parametrize("bad", [{"game_id": "chess"}, {"game_id": "pylos", "variant": "nope"},
                                 {"game_id": "pylos", "players": 7}])
def test_load_refuses_unknown_names_with_a_value_error(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"unknown|cannot be played"):
        ludotheque.load(**bad)  # type: ignore[arg-type]


def test_playouts_end_with_a_result_in_range(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    for states, _ in games:
        final = states[-1]
        assert final.is_over, f"{game!r} did not end within {info(game.id).max_plies} plies"
        result = final.result()
        assert len(result.scores) == game.players
        assert set(result.winners) <= set(range(game.players))
        assert list(result.winners) == sorted(set(result.winners))
        assert final.to_move is None and final.legal_moves() == []


def test_moves_exist_exactly_while_the_game_is_not_over(played) -> None:  # type: ignore[no-untyped-def]
    _, games = played
    for states, _ in games:
        for state in states[:-1]:
            moves = state.legal_moves()
            assert not state.is_over and moves
            assert state.to_move in range(state.game.players)
            assert len(set(moves)) == len(moves), "duplicate legal moves"
            assert len({str(m) for m in moves}) == len(moves), "two moves share a text"
            with pytest.raises(ValueError):
                state.result()


def test_every_legal_move_round_trips_through_its_text(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    for states, _ in games[:4]:
        for state in states[:-1:3]:
            for move in state.legal_moves():
                text = str(move)
                assert game.parse_move(state, text) == move
                assert game.parse_move(state, f"  {text.upper()} ") == move
                assert type(move).from_text(text) == move
                assert hash(type(move).from_text(text)) == hash(move)


def test_play_leaves_its_input_unchanged_and_accepts_text(played) -> None:  # type: ignore[no-untyped-def]
    _, games = played
    states, texts = games[0]
    for state, text, following in zip(states[:-1], texts, states[1:], strict=False):
        before = state.to_json()
        by_text = state.play(text)
        assert state.to_json() == before
        assert by_text.to_json() == following.to_json()


def test_malformed_and_illegal_moves_raise_and_change_nothing(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    states, _ = games[1]
    all_texts = {str(m) for s in states[:-1] for m in s.legal_moves()}
    for state in states[:-1:5]:
        before = state.to_json()
        for text in MALFORMED:
            with pytest.raises(InvalidMoveError) as caught:
                game.parse_move(state, text)
            assert isinstance(caught.value, ValueError)
            with pytest.raises(InvalidMoveError):
                state.play(text)
        legal_here = {str(m) for m in state.legal_moves()}
        for text in sorted(all_texts - legal_here)[:25]:
            with pytest.raises(IllegalMoveError) as error:
                game.parse_move(state, text)
            assert repr(text) in str(error.value)
            with pytest.raises(IllegalMoveError):
                state.play(text)
        assert state.to_json() == before
    final = states[-1]
    with pytest.raises(IllegalMoveError):
        final.play(str(states[-2].legal_moves()[0]))


def test_to_json_round_trips_exactly(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    for states, _ in games[:3]:
        for state in [*states[::4], states[-1]]:
            data = json.loads(json.dumps(state.to_json()))
            rebuilt = game.state_from_json(data)
            assert rebuilt.to_json() == state.to_json()
            assert [str(m) for m in rebuilt.legal_moves()] == [str(m) for m in state.legal_moves()]
            assert rebuilt.view(None) == state.view(None)


def test_views_are_json_with_the_common_fields(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    for states, _ in games[:3]:
        for state in [*states[::3], states[-1]]:
            for viewer in [None, *range(game.players)]:
                view = state.view(viewer)
                assert set(view) >= REQUIRED_VIEW_KEYS
                assert view["viewer"] == viewer and view["to_move"] == state.to_move
                assert view["game"] == game.id and view["players"] == game.players
                assert json.loads(json.dumps(view)) == view
                assert "seed" not in json.dumps(view)
    with pytest.raises(ValueError):
        games[0][0][0].view(game.players)


def test_a_game_that_hides_nothing_shows_every_reader_the_same_view(played) -> None:  # type: ignore[no-untyped-def]
    """Nothing hidden: each reader's view is the spectator's with its own ``viewer``, and each move's
    text reads the same to everyone (the server builds one view per change and shares it)."""
    game, games = played
    if game.has_hidden_information:
        return
    for states, texts in games[:3]:
        for state in [*states[::3], states[-1]]:
            spectator = state.view(None)
            for viewer in range(game.players):
                assert state.view(viewer) == {**spectator, "viewer": viewer}
        for number, text in enumerate(texts):
            mover = states[number].to_move
            assert mover is not None
            for reader in [None, *range(game.players)]:
                assert game.mask_move_text(text, mover, reader) == text


def test_determinize_keeps_the_view(played) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    rng = random.Random(7)
    for states, _ in games[:3]:
        for state in states[::5]:
            for viewer in [None, *range(game.players)]:
                guess = state.determinize(viewer, rng)
                assert guess.view(viewer) == state.view(viewer)
                if not game.has_hidden_information:
                    assert guess.to_json() == state.to_json()


def test_records_replay_identically(played, tmp_path) -> None:  # type: ignore[no-untyped-def]
    game, games = played
    for seed, (states, texts) in enumerate(games[:4]):
        record = Record.start(game, seed).with_moves(texts).finished(states[-1].result())
        path = tmp_path / f"{seed}.json"
        record.save(path)
        again = Record.read(path)
        assert again == record
        replayed = replay(again)
        assert [s.to_json() for s in replayed] == [s.to_json() for s in states]
        assert replayed[-1].result() == record.result
