"""The ``perfect`` level: perfect play where a position is solved, the ``hard`` level elsewhere.

Pylos is solved into tables (``ludotheque solve pylos --variant V``): under the kids rules every
position (``engines/pylos/solver.py``), under the standard and advanced rules the positions a
retrograde analysis proved won or lost so far, and, once it is finished, the draws
(``engines/pylos/solve_cycles.py``). Where the position is solved, this bot plays a move of the
best exact value: a win in the fewest plies, else a draw, else the loss that lasts longest; its
analysis says ``perfect`` and the exact value ("wins in 12"). Elsewhere (another game, tables not
built or not that far yet) it asks its ``fallback`` bot, the ``hard`` level, and says so in the
analysis's algorithm: ``alphabeta (perfect: not solved here)``.

The rest of the project asks this module through ``ludotheque.solved`` (no game named outside
``engines/``): ``available(variant)`` and ``complete(variant)`` (the server offers ``perfect``
only where the tables are built), ``position_value``, ``move_value`` and ``move_values`` (the
exact values of the analysis of a game), and ``win_lines`` ("win in N" puzzles drawn from the
kids tables, ``python -m ludotheque.puzzles solved pylos``).

>>> exact_words(Exact(True, 12), "en"), exact_words(Exact(False, 9), "fr")
('wins in 12', 'perd en 9')
>>> exact_words(Exact(False, 0, draw=True), "fr")
'nulle'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from ...ai.base import Analysis, Bot, Progress
from ...core import load
from ...core.contract import Game, State
from . import board, rules
from .rules import PylosState
from .solve_cycles import CyclesTable, read_cycles_progress
from .solve_index import kids_index
from .solver import KidsTable, Solved, tables_dir

ALGORITHM = "perfect"
# The rule set of the "win in N" puzzles: the one solved everywhere.
PUZZLE_VARIANT = "kids"
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
    """The tables of ``variant`` in the data folder, opened once per state of their progress file:
    a server asks on every catalog request and every analysed ply, and a solve still running
    (or finished since) is seen at its next checkpoint."""
    folder = tables_dir(variant)
    try:
        stamp = (folder / "progress.json").stat().st_mtime_ns
    except OSError:
        return None
    key = (str(folder), variant)
    cached = _OPENED.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    table = _open_table(folder, variant)
    _OPENED[key] = (stamp, table)
    return table


def _open_table(folder: Path, variant: str) -> Tables | None:
    try:
        if variant == "kids":
            return KidsTable(folder)
        if read_cycles_progress(folder) is None:
            return None
        return CyclesTable(folder, variant)
    except (OSError, ValueError):  # a folder of another rule set, a file cut short
        return None


_OPENED: dict[tuple[str, str], tuple[int, Tables | None]] = {}


def available(variant: str) -> bool:
    """Whether this machine holds solved tables of Pylos under ``variant`` that the engine can
    play from (the server offers the ``perfect`` level only then)."""
    table = _default_table(variant)
    return table is not None and table.available and table.balls == _engine_balls()


def complete(variant: str) -> bool:
    """Whether every position of ``variant`` is solved here (the kids rules once every layer is
    done; the others once their analysis is finished, draws included): ``perfect`` then never
    falls back."""
    table = _default_table(variant)
    if not available(variant) or table is None:
        return False
    if isinstance(table, KidsTable):
        return table.done >= set(range(kids_index(table.balls).top_layer + 1))
    return isinstance(table, CyclesTable) and table.progress.finished


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


def move_value(state: State, move: Any, table: Tables | None = None) -> Exact | None:
    """The exact value of playing ``move`` (a move or its text) in ``state``, for the player who
    plays it, where the position after it is solved or over; ``None`` elsewhere (the analysis of
    a game asks this of the move played)."""
    found = solved_table(state, table)
    if found is None or state.is_over or state.to_move is None:
        return None
    child = state.play(move)
    if child.is_over:
        winners = child.result().winners
        return Exact(state.to_move in winners, 1, draw=not winners)
    value = _value(found, child)
    if value is None or value.draw:
        return value
    return Exact(not value.wins, value.plies + 1)


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


@dataclass(frozen=True)
class WinLine:
    """A "win in N" puzzle drawn from the tables (kids rules): the moves from the start to its
    position, the solution line to the end of the game (the solver's fastest win at each of their
    turns, the loser's longest defence between), the legal moves at the position, and ``only``:
    whether each of the solver's moves is their only winning move (else only the fastest)."""

    moves: tuple[str, ...]
    line: tuple[str, ...]
    legal: int
    only: bool
    variant: str = PUZZLE_VARIANT

    @property
    def plies(self) -> int:
        return len(self.line)


def win_lines(plies: int, count: int, *, seed: int = 0, table: Tables | None = None,
              tries: int = 20_000) -> list[WinLine]:
    """Up to ``count`` "win in ``plies``" puzzles of Pylos (kids rules), from random games
    (``seed``; ``tries`` games at most, one puzzle a game): positions with two legal moves or
    more where exactly one move wins in the fewest plies, and at each later turn of the winner
    again exactly one, so that the only right answer is the line's. Those where that move is
    also the only one that wins at all (``only``) come first; the others fill up to ``count``
    (a win in 3 is rarely alone). Fewer (or none) where the tables do not reach."""
    game = load("pylos", variant=PUZZLE_VARIANT)
    if solved_table(game.new_state(), table) is None:
        return []
    rng = random.Random(seed)
    alone: list[WinLine] = []
    fastest: list[WinLine] = []
    seen: set[tuple[int, int, int | None]] = set()
    for tried in range(tries):
        # Enough alone; or enough in all once a tenth of the tries found too few alone.
        if len(alone) >= count or (tried >= tries // 10 and len(alone) + len(fastest) >= count):
            break
        state, moves = game.new_state(), list[str]()
        while not state.is_over:
            pylos = cast(PylosState, state)
            key = (pylos.balls(0), pylos.balls(1), state.to_move)
            if key not in seen:
                seen.add(key)
                found = _win_line(state, plies, table, tuple(moves))
                if found is not None and found.only:
                    alone.append(found)
                    break
                if found is not None:
                    fastest.append(found)
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state = state.play(move)
    return (alone + fastest)[:count]


def _win_line(state: State, plies: int, table: Tables | None, moves: tuple[str, ...]) -> WinLine | None:
    """The "win in ``plies``" puzzle at ``state``, or ``None`` where it is not one."""
    value = position_value(state, table)
    legal = len(state.legal_moves())
    if value is None or not value.wins or value.plies != plies or legal < 2:
        return None
    solver, line, only = state.to_move, [], True
    while not state.is_over:
        values = move_values(state, table)
        if values is None or any(v is None for v in values.values()):
            return None
        known = {str(move): v for move, v in values.items() if v is not None}
        best = min(v.key() for v in known.values())
        if state.to_move == solver:
            winning = [text for text, v in known.items() if v.key() == best and v.wins]
            if len(winning) != 1:
                return None
            only = only and sum(1 for v in known.values() if v.wins) == 1
            move = winning[0]
        else:  # the longest defence, the first in move order among equals
            move = next(text for text, v in known.items() if v.key() == best)
        line.append(move)
        state = state.play(move)
    return WinLine(moves, tuple(line), legal, only) if len(line) == plies else None
