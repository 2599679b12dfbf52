"""PettingZoo: every game and player count passes ``pettingzoo.test.api_test``; observations carry
the agent's planes and an ``action_mask``; ``render_mode="ansi"`` gives the board; an agent's
observation never holds what its view hides."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ludotheque
from ludotheque.core import info

from .conftest import configurations

pettingzoo_test = pytest.importorskip("pettingzoo.test")
research_pettingzoo = pytest.importorskip("ludotheque.research.pettingzoo")

CONFIGURATIONS = [(g, v, p) for g in ludotheque.games() if info(g).actions for v, p in configurations(g)]


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGURATIONS)
def test_api_test_passes(game_id: str, variant: str, players: int) -> None:
    env = research_pettingzoo.env(game_id, variant=variant, players=players, render_mode="ansi")
    with warnings.catch_warnings():
        # PettingZoo's classic games draw the same notes: dict observations, not a bare array.
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not a NumPy)")
        pettingzoo_test.api_test(env, num_cycles=150)


def test_observations_masks_rewards_and_the_board() -> None:
    env = research_pettingzoo.env("pylos", variant="kids", render_mode="ansi")
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1"]
    observation = env.observe("player_0")
    assert observation["observation"].shape == (67,) and observation["observation"].dtype == np.float32
    assert observation["action_mask"].shape == (186,) and observation["action_mask"].sum() == 16
    assert env.observe("player_1")["action_mask"].sum() == 0
    env.step(5)
    assert env.agent_selection == "player_1"
    board = env.render()
    assert "2 .L.." in board and "reserves 14 15, to move 1" in board
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    assert sorted(env.rewards.values()) == [-1.0, 1.0]


def test_an_illegal_action_ends_the_game_against_the_agent_that_made_it() -> None:
    env = research_pettingzoo.env("pylos")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*illegal move.*")
        env.step(29)  # the top, on an empty board
    assert all(env.terminations.values()) and env.rewards == {"player_0": -1, "player_1": 0}


def test_reset_seeds_the_game() -> None:
    env = research_pettingzoo.env("imbrication")
    env.reset(seed=5)
    first = env.unwrapped.node.state.to_json()
    env.reset(seed=5)
    assert env.unwrapped.node.state.to_json() == first
    env.reset(seed=6)
    assert env.unwrapped.node.state.to_json() != first


def test_a_chain_is_one_step_per_hop_by_the_same_agent() -> None:
    env = research_pettingzoo.raw_env("imbrication")
    env.reset(seed=0)
    game = env.encoding.game
    rows = ["........"] * 3 + ["...D....", "........", "...D....", "...L....", "........"]
    env.node = type(env.node)(env.encoding, game.position(rows, drawn=1, placed="d2", tile="jump"))
    env.agent_selection = "player_0"
    mask = env.observe("player_0")["action_mask"]
    _, more = np.flatnonzero(mask)
    env.step(int(more))
    assert env.agent_selection == "player_0" and env.node.pending == (more,)
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    assert not env.node.pending and env.agent_selection == "player_1"
    assert [str(m) for _, m in env.node.moves] == ["d2xd4xd6"]
