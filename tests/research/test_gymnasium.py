"""Gymnasium: one seat against our bots passes ``check_env`` for every game and player count;
rewards, seats, illegal actions, seeding."""

from __future__ import annotations

import numpy as np
import pytest

import ludotheque
from ludotheque.core import info

research_gymnasium = pytest.importorskip("ludotheque.research.gymnasium")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")

GAMES = [(g, p) for g in ludotheque.games() if info(g).actions for p in info(g).player_counts]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_check_env_passes(game_id: str, players: int) -> None:
    env = research_gymnasium.make(game_id, opponent="easy", players=players, render_mode="ansi")
    env_checker.check_env(env, skip_render_check=True)


def test_a_game_against_random_ends_with_the_seat_result() -> None:
    env = research_gymnasium.make("pylos", opponent="random", variant="kids", seat=1)
    observation, info_ = env.reset(seed=3)
    assert info_["to_move"] == 1 and len(info_["moves"]) == 1  # the bot opened
    rng = np.random.default_rng(0)
    terminated, reward = False, 0.0
    while not terminated:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info_ = env.step(action)
        assert not truncated
    state = env.node.state
    assert reward == (1.0 if 1 in state.result().winners else -1.0 if state.result().winners else 0.0)


def test_an_illegal_action_ends_the_episode_with_a_loss() -> None:
    env = research_gymnasium.make("pylos")
    env.reset(seed=0)
    _, reward, terminated, _, info_ = env.step(29)
    assert (reward, terminated, info_["illegal_action"]) == (-1.0, True, True)


def test_seeds_fix_the_game_and_the_bots() -> None:
    first = research_gymnasium.make("imbrication", opponent="easy", seat=1)
    second = research_gymnasium.make("imbrication", opponent="easy", seat=1)
    assert first.reset(seed=8)[1]["moves"] == second.reset(seed=8)[1]["moves"]
    assert first.node.state.to_json() == second.node.state.to_json()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        research_gymnasium.make("pylos", opponent="grandmaster")
    with pytest.raises(ValueError, match="no seat"):
        research_gymnasium.make("pylos", seat=2)
    with pytest.raises(ValueError, match="unknown game"):
        research_gymnasium.make("chess")


def test_each_game_is_registered_with_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    assert set(research_gymnasium.ENVIRONMENTS) == {
        f"ludotheque/{g}-v0" for g in ludotheque.games() if info(g).actions
    }
    env = gymnasium.make("ludotheque/pylos-v0", opponent="random", variant="kids")
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].shape == (186,)
