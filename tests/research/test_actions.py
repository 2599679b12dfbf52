"""Each game's fixed integer action encoding (``engines/<id>/actions.py``), both ways, on every legal
move of sampled positions; its range, as RULES.md derives it; its observation planes, which show
exactly ``view(player)``: two states that differ only in a secret give a player who may not see
it the same planes, strings and history."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, info
from ludotheque.research.encoding import Encoding, Node, replay

from .conftest import POSITIONS, configurations, sampled_nodes, sampled_positions

GAMES = ["expion", "imbrication", "plimil", "pylos"]


def test_every_game_declares_its_action_module() -> None:
    assert sorted(g for g in ludotheque.games() if info(g).actions) == GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_move_round_trips_through_its_actions(game_id: str) -> None:
    """Move -> actions -> move on every legal move of the sampled positions; the actions lie in
    the configuration's range, tell the moves of a position apart, and none is a prefix of
    another (a chain's hops never spell a shorter move)."""
    module = info(game_id).load_actions()
    assert module is not None
    checked = 0
    for state in sampled_positions(game_id, POSITIONS):
        game = state.game
        count = module.action_count(game.variant, game.players)
        legal = state.legal_moves()
        legal_set = set(legal)
        encoded = [module.encode(move) for move in legal]
        assert len(set(encoded)) == len(encoded)
        prefixes = {actions[:k] for actions in encoded for k in range(1, len(actions))}
        assert not prefixes & set(encoded)
        if game_id != "pylos":  # ids in the order of legal_moves() (Pylos: its turns without removals)
            assert encoded == sorted(encoded)
        for move, actions in zip(legal, encoded, strict=True):
            assert all(0 <= a < count for a in actions), (str(move), actions, count)
            assert module.decode(state, actions, legal_set) == move
        checked += len(legal)
    assert checked > POSITIONS


@pytest.mark.parametrize("game_id", GAMES)
def test_a_node_plays_the_moves_its_actions_spell(game_id: str) -> None:
    rng = random.Random(1)
    for state in sampled_positions(game_id, 30, seed=2):
        if state.is_over:
            continue
        node = Node(Encoding.of(state.game.id, state.game.variant, state.game.players), state)
        for move in rng.sample(state.legal_moves(), min(3, len(state.legal_moves()))):
            after = node
            for action in node.encoding.encode(move):
                assert action in after.legal_actions()
                assert after.to_move == state.to_move
                after = after.apply(action)
            assert after.state == state.play(move) and not after.pending


@pytest.mark.parametrize(
    ("game_id", "counts"),
    [
        # RULES.md, "Action encoding": the derivation of each range.
        ("pylos", {"kids": 186, "standard": 23801, "advanced": 23801}),
        ("expion", {"standard": 84 + 168}),
        ("imbrication", {"standard": 64 + 1456 + 2 * 1036}),
        ("plimil", {"standard": 1064 + 1 + 336 + 70, "open": 1471, "setup10": 1471 + 252}),
    ],
)
def test_the_action_ranges_are_the_documented_ones(game_id: str, counts: dict[str, int]) -> None:
    module = info(game_id).load_actions()
    assert module is not None
    for variant, players in configurations(game_id):
        assert module.action_count(variant, players) == counts[variant]


def test_actions_that_spell_no_legal_move_are_refused() -> None:
    pylos = ludotheque.load("pylos")
    module = info("pylos").load_actions()
    assert module is not None
    state = pylos.new_state()
    with pytest.raises(IllegalMoveError):
        module.decode(state, (29,))  # the top, on an empty board
    with pytest.raises(ValueError, match="not an action sequence"):
        module.decode(state, (10**6,))
    node = Node.start(Encoding.of("pylos"))
    with pytest.raises(ValueError, match="is not legal"):
        node.apply(29)
    imbrication = info("imbrication").load_actions()
    assert imbrication is not None
    hop = imbrication.encode(ludotheque.load("imbrication").parse_move(
        ludotheque.load("imbrication").position(
            ["........"] * 4 + ["...D....", "........", "...L....", "........"],
            drawn=1, placed="d2", tile="ljump"),
        "d2xd5",
    ))
    with pytest.raises(ValueError, match="not an action sequence"):
        imbrication.text((*hop, *hop))


def test_a_pair_of_removals_is_one_action_whichever_order_it_is_played_in() -> None:
    pylos = ludotheque.load("pylos")
    module = info("pylos").load_actions()
    assert module is not None
    state = pylos.new_state()
    for text in ("1a1", "1c1", "1b1", "1c2", "1a2", "1d4"):
        state = state.play(text)
    move = pylos.parse_move(state, "1b2x1a1x1b1")
    swapped = pylos.parse_move(state, "1b2x1b1x1a1")
    assert move == swapped and module.encode(move) == module.encode(pylos.parse_move(state, "1b2x1a1x1b1"))
    # Taking back the ball just played frees a support: only that order works, one action.
    module_text = module.action_text(module.encode(move)[0])
    assert module_text == "1b2x1a1x1b1"


def test_imbrication_chains_are_one_action_per_hop() -> None:
    game = ludotheque.load("imbrication")
    rows = ["........"] * 3 + ["...D....", "........", "...D....", "...L....", "........"]
    state = game.position(rows, drawn=1, placed="d2", tile="jump")
    node = Node(Encoding.of("imbrication"), state)
    assert [str(m) for m in state.legal_moves()] == ["d2xd4", "d2xd4xd6"]
    first = node.legal_actions()
    assert [node.encoding.action_text(a) for a in first] == ["d2xd4", "d2xd4+"]
    stop, more = first
    assert node.apply(stop).state == state.play("d2xd4")
    middle = node.apply(more)
    assert middle.state == state and middle.to_move == 0 and middle.pending == (more,)
    assert [middle.encoding.action_text(a) for a in middle.legal_actions()] == ["d4xd6"]
    assert "pending d2xd4+" in middle.observation_string(1)
    assert middle.apply(middle.legal_actions()[0]).state == state.play("d2xd4xd6")


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_imbrication_chance_draws_are_the_seeded_shuffles(seed: int) -> None:
    encoding = Encoding.of("imbrication")
    state = encoding.game.new_state(seed)
    draws = encoding.draws(state)
    assert len(draws) == len(encoding.chance_draws) == 16
    assert all(0 <= d < n for d, n in zip(draws, encoding.chance_draws, strict=True))
    assert encoding.state_from_draws(draws).to_json() == state.to_json()
    node = Node.start(encoding)
    assert node.is_chance and node.chance_outcomes() == [(a, 1 / 9) for a in range(9)]
    for draw in draws:
        node = node.apply(draw)
    assert node.state == state and node.to_move == 0
    assert replay("imbrication", "standard", 2, node.action_history()).state == state


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_have_their_declared_shape_and_bounds(game_id: str) -> None:
    for state in sampled_positions(game_id, 20, seed=3):
        encoding = Encoding.of(state.game.id, state.game.variant, state.game.players)
        node = Node(encoding, state)
        for player in (*range(state.game.players), None):
            planes = node.observation(player)
            assert planes.shape == encoding.observation_shape and planes.dtype == np.float32
            assert planes.min() >= 0.0 and planes.max() <= 1.0


@pytest.mark.parametrize("game_id", ["plimil", "imbrication"])
def test_nothing_hidden_reaches_a_player_through_the_encoding(game_id: str) -> None:
    """A state and its determinization for a player differ only in what that player cannot
    know: the player's planes, observation and information-state strings stay the same."""
    rng = random.Random(4)
    differ = 0
    for node in sampled_nodes(game_id, 40, seed=5):
        state = node.state
        if state is None or state.is_over:
            continue
        for player in range(state.game.players):
            other = node.resample(player, rng)
            assert np.array_equal(other.observation(player), node.observation(player))
            assert other.observation_string(player) == node.observation_string(player)
            assert other.information_state_string(player) == node.information_state_string(player)
            if other.state is not None and other.state.to_json() != state.to_json():
                differ += 1
    assert differ > 0, "some determinization changes a secret"
