"""The ``perfect`` level: perfect play where a position is solved, the ``hard`` level elsewhere.

Pylos is solved into tables (``ludotheque solve pylos --variant V``): under the kids rules every
position (``engines/pylos/solver.py``), under the standard and advanced rules the positions a
retrograde analysis proved won or lost so far, and, once it is finished, the draws
(``engines/pylos/solve_cycles.py``). Where the position is solved, this bot plays a move of the
best exact value: a win in the fewest plies, else a draw, else the loss that lasts longest; its
analysis says ``perfect`` and the exact value ("wins in 12"). Elsewhere (another game, tables not
built or not that far yet) it asks its ``fallback`` bot, the ``hard`` level, and says so in the
analysis's algorithm: ``alphabeta (perfect: not solved here)``.

>>> exact_words(Exact(True, 12), "en"), exact_words(Exact(False, 9), "fr")
('wins in 12', 'perd en 9')
>>> exact_words(Exact(False, 0, draw=True), "fr")
'nulle'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol, cast

from ...ai.base import Analysis, Bot, Progress
from ...core import load
from ...core.contract import Game, State
from . import board, rules
from .rules import PylosState
from .solve_cycles import CyclesTable, read_cycles_progress
from .solver import KidsTable, Solved, tables_dir

ALGORITHM = "perfect"
FALLBACK_NOTE = "perfect: not solved here"
_WORDS = {
    "en": ("wins in {n}", "loses in {n}", "draw"),
    "fr": ("gagne en {n}", "perd en {n}", "nulle"),
}


class Tables(Protocol):
    """What the bot asks of solved tables (``KidsTable``, ``CyclesTable``): the balls a player
    they were built for, whether they hold anything, a position's value, and its draws."""

    balls: int

    @property
    def available(self) -> bool: ...

    def probe(self, light: int, dark: int, mover: int) -> Solved | None: ...

    def is_draw(self, light: int, dark: int, mover: int) -> bool: ...


@dataclass(frozen=True)
class Exact:
    """A move's or a position's exact value for the player to move: whether they win, and in how
    many plies (turns of either player) the game ends under perfect play; or a draw."""

    wins: bool
    plies: int
    draw: bool = False

    @property
    def score(self) -> float:
        """``+1`` won, ``0`` drawn, ``-1`` lost: the analyses' scale."""
        return 0.0 if self.draw else 1.0 if self.wins else -1.0

    def key(self) -> tuple[int, int]:
        """Sorts the best first: wins by fewest plies, draws, then losses by most plies."""
        if self.draw:
            return (1, 0)
        return (0, self.plies) if self.wins else (2, -self.plies)


def exact_words(value: Exact, lang: str) -> str:
    """``wins in N``, ``loses in N`` or ``draw`` (French: ``gagne en N``, ``perd en N``, ``nulle``)."""
    win, loss, draw = _WORDS.get(lang, _WORDS["en"])
    return draw if value.draw else (win if value.wins else loss).format(n=value.plies)


def _engine_balls() -> int:
    """The balls a player has in the plain engine (15; a test may play a smaller game)."""
    return int(getattr(rules, "BALLS_PER_PLAYER", board.BALLS_PER_PLAYER))


def solved_table(state: State, table: Tables | None = None) -> Tables | None:
    """The tables that can answer for ``state``: ``table``, else those of its rule set in the data
    folder; ``None`` for another game, or tables of another number of balls than the engine's."""
    if state.game.id != "pylos":
        return None
    if table is None:
        table = _default_table(state.game.variant)
    if table is None:
        return None
    return table if table.available and table.balls == _engine_balls() else None


def _default_table(variant: str) -> Tables | None:
    folder = tables_dir(variant)
    if variant == "kids":
        return KidsTable(folder)
    if read_cycles_progress(folder) is None:
        return None
    return CyclesTable(folder, variant)


def _value(table: Tables, state: State) -> Exact | None:
    """The exact value of a position that is not over, for its player to move."""
    pylos = cast(PylosState, state)
    light, dark, mover = pylos.balls(0), pylos.balls(1), pylos.to_move
    if mover is None:
        return None
    solved = table.probe(light, dark, mover)
    if solved is not None:
        return Exact(solved.wins, solved.distance)
    return Exact(False, 0, draw=True) if table.is_draw(light, dark, mover) else None


def move_values(state: State, table: Tables | None = None) -> dict[Any, Exact | None] | None:
    """Every legal move's exact value for the player to move (``None`` for a move whose position
    the tables do not hold yet); ``None`` where no table answers for this game at all."""
    found = solved_table(state, table)
    if found is None or state.is_over:
        return None
    values: dict[Any, Exact | None] = {}
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_over:
            winners = child.result().winners
            values[move] = Exact(state.to_move in winners, 1, draw=not winners)
            continue
        value = _value(found, child)
        values[move] = None if value is None else (
            value if value.draw else Exact(not value.wins, value.plies + 1))
    return values


def position_value(state: State, table: Tables | None = None) -> Exact | None:
    """The exact value of ``state`` for its player to move, where it is solved."""
    found = solved_table(state, table)
    if found is None or state.is_over or state.to_move is None:
        return None
    return _value(found, state)


class PerfectBot(Bot):
    """Perfect play from the tables, ``fallback`` (the hard level) where they do not reach."""

    algorithm = ALGORITHM

    def __init__(self, game: Game, *, rng: random.Random | None = None, fallback: Bot,
                 table: Tables | None = None) -> None:
        super().__init__(game, rng=rng)
        self.fallback = fallback
        # The tables of the data folder, opened once (their layers stay mapped between moves).
        if table is None and game.id == "pylos":
            table = _default_table(game.variant)
        self.table = table
        self.engine = "tables"

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        self._check_playable(state)
        value = position_value(state, self.table)
        values = move_values(state, self.table) if value is not None else None
        known = {move: v for move, v in (values or {}).items() if v is not None}
        # A won position needs its winning move known; a lost or drawn one, every move.
        if value is None or not known or (not value.wins and len(known) < len(values or {})):
            said = self.fallback.analyse(state, progress)
            return Analysis(said.value, said.best_move, said.principal_variation, said.visits,
                            said.iterations, said.depth,
                            f"{said.algorithm or 'hard'} ({FALLBACK_NOTE})")
        best = min(v.key() for v in known.values())
        choices = [move for move, v in known.items() if v.key() == best]
        move = self.rng_for(state).choice(choices)
        return Analysis(known[move].score, move, (str(move),), iterations=len(known),
                        depth=known[move].plies, algorithm=ALGORITHM)


def win_in_puzzles(plies: int, count: int, *, seed: int = 0, table: Tables | None = None,
                   tries: int = 100_000) -> list[State]:
    """Up to ``count`` positions of Pylos (kids rules), from random games, where the player to
    move wins in exactly ``plies`` plies (odd) with perfect play: "win in N" puzzles, drawn from
    the tables. Fewer (or none) where the tables do not reach that far; ``tries`` random games
    at most."""
    game = load("pylos", variant="kids")
    rng = random.Random(seed)
    found: list[State] = []
    seen: set[tuple[int, int, int | None]] = set()
    for _ in range(tries):
        if len(found) >= count:
            break
        state = game.new_state()
        while not state.is_over:
            value = position_value(state, table)
            key = (state.balls(0), state.balls(1), state.to_move)  # type: ignore[attr-defined]
            if value is not None and value.wins and value.plies == plies and key not in seen:
                seen.add(key)
                found.append(state)
                break
            state = state.play(rng.choice(state.legal_moves()))
    return found
