"""Steps per second through each research interface against the bare contract, per game, and the
action round trip on every legal move of 1,000 random positions per game.

Usage: ``python benchmarks/research_speed.py [--seconds S] [--seed N] [--game ID] [--positions N]``
(needs ``pip install -e '.[research]'``). Prints one JSON line per game and loop, then one per game
for the round trip. Every loop plays uniformly random legal actions from the start until the end,
again and again for ``S`` seconds, single thread:

- ``contract``: ``s = s.play(rng.choice(s.legal_moves()))`` (docs/design.md, "How figures are measured");
- ``node``: the shared layer of the three interfaces (``Node.apply`` on its legal actions);
- ``openspiel``: ``state.apply_action`` on ``state.legal_actions()`` (chance outcomes sampled);
- ``pettingzoo``: ``env.last()`` (the agent's observation and mask) then ``env.step``;
- ``gymnasium``: ``env.step`` on the mask of ``info``, seat 0 against ``random`` bots (their moves
  are played inside ``step``; only the agent's steps are counted).

A step is an action: an Imbrication capture chain takes one per hop, so its step counts exceed its
plies. ``--positions`` (default 1,000) sets the positions of the round trip, which checks every
legal move both ways (move -> actions -> move), as ``tests/research`` does on fewer by default.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ludotheque
from ludotheque.core import info
from ludotheque.research.encoding import Encoding, Node

Loop = Callable[[Encoding, random.Random, float], tuple[int, int, float]]


def contract_loop(encoding: Encoding, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    """(steps, games, elapsed) of the bare contract's random playouts."""
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = encoding.game.new_state(rng.randrange(2**53))
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def node_loop(encoding: Encoding, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        node = Node.start(encoding, rng.randrange(2**53))
        while not node.is_over:
            node = node.apply(rng.choice(node.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def openspiel_loop(encoding: Encoding, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    import pyspiel

    from ludotheque.research.openspiel import short_name

    game = encoding.game
    spiel = pyspiel.load_game(short_name(game.id), {"variant": game.variant, "players": game.players})
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def pettingzoo_loop(encoding: Encoding, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    from ludotheque.research.pettingzoo import env as make_env

    game = encoding.game
    env: Any = make_env(game.id, variant=game.variant, players=game.players)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=rng.randrange(2**32))
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def gymnasium_loop(encoding: Encoding, rng: random.Random, seconds: float) -> tuple[int, int, float]:
    from ludotheque.research.gymnasium import make

    game = encoding.game
    env = make(game.id, opponent="random", variant=game.variant, players=game.players)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, details = env.reset(seed=rng.randrange(2**32))
        terminated = env.node.is_over
        while not terminated:
            action = int(rng.choice(np.flatnonzero(details["action_mask"])))
            _, _, terminated, _, details = env.step(action)
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


LOOPS: dict[str, Loop] = {
    "contract": contract_loop,
    "node": node_loop,
    "openspiel": openspiel_loop,
    "pettingzoo": pettingzoo_loop,
    "gymnasium": gymnasium_loop,
}


def round_trip(game_id: str, positions: int, seed: int) -> dict[str, Any]:
    """Every legal move of ``positions`` random positions (spread over the variants and player
    counts) through ``encode`` then ``decode``; raises ``AssertionError`` on a mismatch."""
    facts = info(game_id)
    configurations = [(v, p) for v in facts.variants for p in facts.player_counts]
    module = facts.load_actions()
    assert module is not None
    rng = random.Random(seed)
    seen = moves = 0
    start = time.perf_counter()
    game_number = 0
    while seen < positions:
        variant, players = configurations[game_number % len(configurations)]
        state = ludotheque.load(game_id, variant, players).new_state(rng.randrange(2**32))
        states = [state]
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            states.append(state)
        for position in rng.sample(states, min(8, len(states), positions - seen)):
            legal = position.legal_moves()
            legal_set = set(legal)
            count = module.action_count(variant, players)
            encoded = {module.encode(move): move for move in legal}
            assert len(encoded) == len(legal), "two moves share their actions"
            for actions, move in encoded.items():
                assert all(0 <= a < count for a in actions), (str(move), actions)
                assert module.decode(position, actions, legal_set) == move, str(move)
            moves += len(legal)
            seen += 1
        game_number += 1
    return {"game": game_id, "loop": "round_trip", "positions": seen, "moves": moves,
            "seconds": round(time.perf_counter() - start, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=[g for g in ludotheque.games() if info(g).actions])
    parser.add_argument("--positions", type=int, default=1000)
    arguments = parser.parse_args()
    game_ids = [arguments.game] if arguments.game else [g for g in ludotheque.games() if info(g).actions]
    for game_id in game_ids:
        encoding = Encoding.of(game_id)
        base = 0.0
        for name, loop in LOOPS.items():
            steps, games, elapsed = loop(encoding, random.Random(arguments.seed), arguments.seconds)
            rate = steps / elapsed
            base = base or rate
            print(json.dumps({
                "game": game_id, "variant": encoding.game.variant, "players": encoding.game.players,
                "loop": name, "steps_per_s": round(rate), "games": games,
                "vs_contract": round(rate / base, 3),
            }), flush=True)
    for game_id in game_ids:
        print(json.dumps(round_trip(game_id, arguments.positions, arguments.seed)), flush=True)


if __name__ == "__main__":
    main()
