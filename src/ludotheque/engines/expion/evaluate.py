"""A quick heuristic value of an Ex*Pion position for the computer opponents.

``evaluate(state, player)`` is in [-1, 1], from ``player``'s point of view (their team's):

- a finished game is worth its score (+1 win, -1 loss, 0 draw);
- a win in one move for the team to move (a push of the EX*PION into an enemy camp that is
  legal now) is worth ±0.9: the only threat that ends the game at once;
- otherwise 0.6 × the marble balance (team marbles minus enemy marbles, over 14: losing every
  marble loses the game) plus 0.3 × the EX*PION's lean: how much nearer it stands to the enemy
  camps' edges than to one's own (its goal), over 3, the widest gap the play area allows.

>>> import ludotheque
>>> state = ludotheque.load("expion").new_state()
>>> evaluate(state, 0), evaluate(state, 1)
(0.0, 0.0)
"""

from __future__ import annotations

from ...core.contract import LevelSpec, Player, State
from .board import CAMP_AT, INDEX, NEIGHBOUR, SIZE
from .rules import ExpionState

MATERIAL_WEIGHT = 0.6
EXPION_WEIGHT = 0.3
THREAT_VALUE = 0.9
_STEP_DIRECTION = {SIZE: 0, 1: 1, -SIZE: 2, -1: 3}


def evaluate(state: State, player: Player) -> float:
    """The value of ``state`` for ``player``'s team, in [-1, 1] (see the module docstring)."""
    assert isinstance(state, ExpionState)
    if state.is_over:
        return float(state.result().scores[player])
    game = state.game
    team = game.team_of[player]
    mover = state.to_move
    assert mover is not None
    expion = INDEX[state.expion]
    if _has_winning_push(state, expion):
        return THREAT_VALUE if game.team_of[mover] == team else -THREAT_VALUE
    material = (state.team_marbles(team) - state.team_marbles(1 - team)) / 14
    value = MATERIAL_WEIGHT * material + EXPION_WEIGHT * _expion_lean(expion, team)
    return max(-1.0, min(1.0, value))


def _expion_lean(expion: int, team: int) -> float:
    """+1 when the EX*PION hugs an enemy camp's edge and is far from one's own camps."""
    rank, file = divmod(expion, SIZE)
    to_east_west = min(file, SIZE - 1 - file)
    to_north_south = min(rank, SIZE - 1 - rank)
    # North+South (team 0) push toward the East and West camps, East+West toward North and South.
    to_enemy, to_own = (to_east_west, to_north_south) if team == 0 else (to_north_south, to_east_west)
    return (to_own - to_enemy) / 3


def _has_winning_push(state: ExpionState, expion: int) -> bool:
    """Whether a legal move of the player to move pushes the EX*PION (on ``expion``) into a
    camp (a win: pushes into one's own team's camps are never legal)."""
    for move in state.legal_moves():
        if move.target == expion:
            beyond = NEIGHBOUR[expion][_STEP_DIRECTION[expion - move.source]]
            if CAMP_AT[beyond] >= 0:
                return True
    return False


# The bot levels tuned for this game (``GameInfo.levels``: players -> level; 0: every count).
# Every player count: 3 and 4 players are two teams, searched as two sides. UCT with one
# tree per player (3,000 iterations, even 12,000) beat 600 only 52.5% with 3 players: the
# lone North+South player won 39 of 40 games whoever held it.
# ``kernel``: the level's search inside the compiled kernel (``search.py``), where it runs;
# without it (no Numba), and as ``<level>-plain``, the plain engine's options around it. Easy
# and medium search the same tree in both (the kernel's evaluator is this one), only faster.
LEVELS: dict[int, dict[str, LevelSpec]] = {
    0: {
        "easy": LevelSpec("alphabeta", {"kernel": {"depth": 1, "margin": 0.08},
                                        "depth": 1, "margin": 0.08},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"kernel": {"depth": 2, "nodes": 10_000},
                                          "depth": 2, "nodes": 10_000},
                            description="alpha-beta, 2 plies"),
        # Ex*Pion positions cost about 10 times Pylos ones to generate and key (plain engine).
        "hard": LevelSpec("alphabeta", {"kernel": {"depth": 64, "nodes": 1_000_000},
                                        "depth": 6, "nodes": 6_000},
                          description="alpha-beta in the compiled kernel, within 1,000,000 positions; "
                                      "on the plain engine, up to 6 plies within 6,000 positions"),
    },
}
