"""Shared helpers of the research-interface tests: sampled positions of every configuration."""

from __future__ import annotations

import os
import random

import ludotheque
from ludotheque.core import State, info
from ludotheque.research.encoding import Encoding, Node

# Random positions per game for the action round trips (every legal move of each, both ways):
# the full 1,000 of issue 16, a few seconds; ``LUDOTHEQUE_RESEARCH_POSITIONS`` changes it, and
# ``benchmarks/research_speed.py --positions N`` runs the same check outside the tests.
POSITIONS = int(os.environ.get("LUDOTHEQUE_RESEARCH_POSITIONS", "1000"))


def configurations(game_id: str) -> list[tuple[str, int]]:
    """Every (variant, players) that ``game_id`` declares."""
    facts = info(game_id)
    return [(v, p) for v in facts.variants for p in facts.player_counts]


def sampled_positions(game_id: str, count: int, seed: int = 0, per_game: int = 8) -> list[State]:
    """``count`` positions of ``game_id`` spread over its variants and player counts: seeded
    random playouts, ``per_game`` positions drawn from each (the end included)."""
    rng = random.Random(seed)
    found: list[State] = []
    configs = configurations(game_id)
    game_number = 0
    while len(found) < count:
        variant, players = configs[game_number % len(configs)]
        state = ludotheque.load(game_id, variant, players).new_state(seed=rng.randrange(2**32))
        states = [state]
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            states.append(state)
        found.extend(rng.sample(states, min(per_game, len(states), count - len(found))))
        game_number += 1
    return found


def sampled_nodes(game_id: str, count: int, seed: int = 0, per_game: int = 8) -> list[Node]:
    """Like :func:`sampled_positions`, as research nodes (which know the moves played)."""
    rng = random.Random(seed)
    found: list[Node] = []
    configs = configurations(game_id)
    game_number = 0
    while len(found) < count:
        variant, players = configs[game_number % len(configs)]
        node = Node.start(Encoding.of(game_id, variant, players), rng.randrange(2**32))
        nodes = [node]
        while not node.is_over:
            assert node.state is not None
            node = node.play(rng.choice(node.state.legal_moves()))
            nodes.append(node)
        found.extend(rng.sample(nodes, min(per_game, len(nodes), count - len(found))))
        game_number += 1
    return found
