"""OpenSpiel: every game, variant and player count loads as ``python_ludotheque_<id>``, passes
OpenSpiel's own random-simulation checks (legal actions sorted and only for the player to move,
masks, clone, serialisation round trip, history, returns in range, game length), declares the
right facts, keeps secrets out of each player's information state, and OpenSpiel's MCTS and
IS-MCTS bots play through it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludotheque
from ludotheque.core import info
from ludotheque.research.encoding import Encoding

from .conftest import configurations

pyspiel = pytest.importorskip("pyspiel")
ludotheque_openspiel = pytest.importorskip("ludotheque.research.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")

CONFIGURATIONS = [(g, v, p) for g in ludotheque.games() if info(g).actions for v, p in configurations(g)]


def load(game_id: str, variant: str, players: int) -> object:
    return pyspiel.load_game(f"python_ludotheque_{game_id}(variant={variant},players={players})")


def test_each_game_is_registered_with_its_parameters() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {f"python_ludotheque_{g}" for g in ("expion", "imbrication", "plimil", "pylos")} <= names
    kids = pyspiel.load_game("python_ludotheque_pylos(variant=kids)")
    assert kids.num_distinct_actions() == 186 and kids.num_players() == 2
    assert kids.get_parameters() == {"variant": "kids", "players": 2}
    assert pyspiel.load_game("python_ludotheque_expion").num_players() == 4
    assert pyspiel.load_game("python_ludotheque_expion(players=3)").num_players() == 3
    with pytest.raises(ValueError, match="unknown variant"):
        pyspiel.load_game("python_ludotheque_pylos(variant=giant)")


@pytest.mark.parametrize(
    ("game_id", "chance", "information", "utility"),
    [
        ("pylos", "DETERMINISTIC", "PERFECT_INFORMATION", "ZERO_SUM"),
        ("expion", "DETERMINISTIC", "PERFECT_INFORMATION", "GENERAL_SUM"),  # 3 players: 1 against 2
        ("imbrication", "EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION", "ZERO_SUM"),
        ("plimil", "DETERMINISTIC", "IMPERFECT_INFORMATION", "ZERO_SUM"),
    ],
)
def test_game_types_follow_the_declared_facts(
    game_id: str, chance: str, information: str, utility: str
) -> None:
    kind = pyspiel.load_game(f"python_ludotheque_{game_id}").get_type()
    assert (kind.chance_mode.name, kind.information.name, kind.utility.name) == (chance, information, utility)
    assert kind.dynamics.name == "SEQUENTIAL" and kind.reward_model.name == "TERMINAL"
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGURATIONS)
def test_random_simulations_pass_openspiel_checks(game_id: str, variant: str, players: int) -> None:
    pyspiel.random_sim_test(load(game_id, variant, players), num_sims=1, serialize=True, verbose=False)


def test_serialisation_and_clone_round_trip() -> None:
    game = pyspiel.load_game("python_ludotheque_imbrication")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    for _ in range(60):
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)


def test_imbrication_starts_with_the_shuffles_as_chance_nodes() -> None:
    game = pyspiel.load_game("python_ludotheque_imbrication")
    state = game.new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        state.apply_action(0)
    assert sizes == [9, 8, 7, 6, 5, 4, 3, 2] * 2 and state.current_player() == 0
    assert game.max_chance_outcomes() == 9
    # The draws of random.Random(seed), replayed as chance outcomes, give new_state(seed).
    encoding = Encoding.of("imbrication")
    seeded = encoding.game.new_state(2024)
    state = game.new_initial_state()
    for draw in encoding.draws(seeded):
        state.apply_action(draw)
    assert state.node.state == seeded
    # No player's information state holds a draw before its tile is revealed.
    other = game.new_initial_state()
    for _ in range(16):
        other.apply_action(1 if other.chance_outcomes()[1:] else 0)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert np.array_equal(other.information_state_tensor(1), state.information_state_tensor(1))


def test_a_resampled_state_looks_the_same_to_its_player() -> None:
    game = pyspiel.load_game("python_ludotheque_plimil")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.move_number() < 40:
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    samples = random.Random(5)
    sampled = state.resample_from_infostate(player, samples.random)
    assert sampled.information_state_string(player) == state.information_state_string(player)
    assert sampled.observation_string(player) == state.observation_string(player)
    assert np.array_equal(sampled.information_state_tensor(player), state.information_state_tensor(player))
    assert sampled.legal_actions() == state.legal_actions()
    # The other player's secrets were re-chosen: their information differs, the history replays.
    assert sampled.information_state_string(1 - player) != state.information_state_string(1 - player)
    replayed = game.new_initial_state()
    for action in sampled.history():
        replayed.apply_action(action)
    assert str(replayed) == str(sampled)


def test_a_spectator_observation_shows_the_public_view() -> None:
    game = pyspiel.load_game("python_ludotheque_plimil")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    assert observer.string_from(state, 0) == observer.string_from(state, 1)
    assert observer.string_from(state, 0) != state.observation_string(0)


@pytest.mark.parametrize("game_id", ["pylos", "expion"])
def test_openspiel_mcts_plays_through_the_adapter(game_id: str) -> None:
    game = pyspiel.load_game(f"python_ludotheque_{game_id}")
    random_state = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state, max_length=30)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=random_state)
    state = game.new_initial_state()
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.move_number() == 4


def test_openspiel_ismcts_plays_plimil_through_the_adapter() -> None:
    game = pyspiel.load_game("python_ludotheque_plimil")
    random_state = np.random.RandomState(1)
    state = game.new_initial_state()
    while state.move_number() < 26:  # the setup, at random
        state.apply_action(int(random_state.choice(state.legal_actions())))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state, max_length=20)
    # The bot resamples a world per simulation and asserts it has the root's information state.
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=random_state)
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.move_number() == 30
