"""Pylos rules (``RULES.md`` beside this module): kids, standard and advanced rule sets.

>>> import ludotheque
>>> state = ludotheque.load("pylos").new_state()
>>> for text in ("1a1", "1c1", "1b1", "1c2", "1a2", "1d4"):
...     state = state.play(text)
>>> [str(m) for m in state.legal_moves()][:3]
['1d1', '1b2x1a1', '1b2x1a1x1b1']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.contract import JSON, Game, Player, Result, State, StoredState, check_viewer
from ...core.errors import IllegalMoveError, Reason
from .board import (
    ALL,
    BALLS_PER_PLAYER,
    BIT,
    HIGHER,
    NAMES,
    SQUARES_AND_LINES_AT,
    SQUARES_AT,
    SUPPORTS,
    TOP,
    Mask,
    available,
    bits,
    covered,
)
from .notation import PLACEMENTS, RAISES, RESERVE, Move
from .view import view as view_of

VARIANTS = ("standard", "kids", "advanced")
LIGHT, DARK = 0, 1
_KEY_SHIFT = 30


class PylosState(StoredState["PylosGame", Move]):
    """A Pylos position: two bit masks of balls, the player to move and the positions seen."""

    __slots__ = ("_balls", "_mover", "_seen")

    def __init__(
        self,
        game: PylosGame,
        balls: tuple[Mask, Mask],
        mover: Player,
        ply: int,
        seen: dict[int, int],
        result: Result | None,
    ) -> None:
        self._game = game
        self._balls = balls
        self._mover = mover
        self._ply = ply
        self._seen = seen
        self._result = result
        self._legal: list[Move] | None = None

    # -- the contract --------------------------------------------------------------------------
    @property
    def to_move(self) -> Player | None:
        return None if self._result is not None else self._mover

    def balls(self, player: Player) -> Mask:
        """The cells holding ``player``'s balls, as a mask (``board.bits`` lists them)."""
        return self._balls[player]

    def reserve(self, player: Player) -> int:
        """Balls ``player`` still holds: those of their 15 that are not on the board."""
        return BALLS_PER_PLAYER - self._balls[player].bit_count()

    def owner(self, cell: int) -> Player | None:
        """The player whose ball stands on ``cell``, or ``None``."""
        for player in (LIGHT, DARK):
            if self._balls[player] & BIT[cell]:
                return player
        return None

    @property
    def repetitions(self) -> int:
        """How many times the current position has occurred (draw on the third)."""
        return self._seen[self._key(self._balls, self._mover)]

    def _generate_legal_moves(self) -> list[Move]:
        return _generate(self._balls, self._mover, self._game.figures_at)

    def _view(self, player: Player | None) -> JSON:
        return view_of(self, player)

    def to_json(self) -> JSON:
        return self._json_header() | {
            "light": self._balls[LIGHT],
            "dark": self._balls[DARK],
            "mover": self._mover,
            "ply": self._ply,
            "seen": [[key, count] for key, count in self._seen.items()],
            "result": self._result.to_json() if self._result else None,
        }

    def determinize(self, player: Player | None, rng: random.Random) -> PylosState:
        check_viewer(self, player)
        return self

    def __hash__(self) -> int:
        return hash((self._balls, self._mover, self._ply))

    def __repr__(self) -> str:
        return f"<PylosState {self._game.variant} ply {self._ply} to move {self.to_move}>"

    # -- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _key(balls: tuple[Mask, Mask], mover: Player) -> int:
        return balls[LIGHT] | balls[DARK] << _KEY_SHIFT | mover << (2 * _KEY_SHIFT)

    def _apply(self, move: Move) -> PylosState:
        """The ball goes on (placed or raised), the removals go back to the reserve, the new
        position is counted, then the endings are tested in the rules' order: the top, the
        opponent's empty reserve, the third occurrence."""
        mover = self._mover
        own = self._balls[mover]
        if move.source != RESERVE:
            own &= ~BIT[move.source]
        own |= BIT[move.target]
        for removed in move.removals:
            own &= ~BIT[removed]
        balls = (own, self._balls[1]) if mover == LIGHT else (self._balls[0], own)
        opponent = 1 - mover
        seen = self._seen.copy()
        key = self._key(balls, opponent)
        seen[key] = count = seen.get(key, 0) + 1
        result = None
        if move.target == TOP:
            result = _win(mover, "top")
        elif balls[opponent].bit_count() == BALLS_PER_PLAYER:
            result = _win(mover, "empty_reserve")
        elif count >= 3:
            result = Result((), (0, 0), "repetition")
        return PylosState(self._game, balls, opponent, self._ply + 1, seen, result)


class PylosGame(Game):
    """Pylos under one rule set."""

    def __init__(self, variant: str = "standard", players: int = 2) -> None:
        super().__init__(variant, players)
        # The figures a ball may complete, by cell: none for kids (only raises save balls).
        self.figures_at: list[tuple[Mask, ...]] | None = {
            "kids": None,
            "standard": SQUARES_AT,
            "advanced": SQUARES_AND_LINES_AT,
        }[variant]

    def new_state(self, seed: int = 0) -> PylosState:
        """The empty pyramid, Light to move; Pylos has no chance, so ``seed`` is ignored."""
        start = (0, 0)
        return PylosState(self, start, LIGHT, 0, {PylosState._key(start, LIGHT): 1}, None)

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move ``text`` names; a pair of removals may be given in either order
        when both orders work (the listed form is returned)."""
        if not isinstance(state, PylosState):
            raise TypeError(f"pylos: not a Pylos state: {state!r}")
        move = Move.from_text(text)
        if state.is_over:
            raise IllegalMoveError.game_over("pylos", text)
        legal = state.legal_moves()
        if move in legal:
            return legal[legal.index(move)]
        if len(move.removals) == 2 and move.removals[0] > move.removals[1]:
            # Listed once in cell order only when both orders work: then either is accepted.
            swapped = Move(move.target, move.source, move.removals[::-1])
            if swapped in legal:
                return legal[legal.index(swapped)]
        raise IllegalMoveError.here("pylos", text, state.ply, _why(state, move))

    def state_from_json(self, data: Mapping[str, Any]) -> PylosState:
        """Rebuild a state from ``to_json()``; raises ``ValueError`` on inconsistent data,
        a state of another game or rule set included (``check_json_header``)."""
        self.check_json_header(data)
        try:
            light, dark, mover = int(data["light"]), int(data["dark"]), int(data["mover"])
            seen = {int(key): int(count) for key, count in data["seen"]}
            result = Result.from_json(data["result"]) if data["result"] else None
            ply = int(data["ply"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"pylos: malformed state: {error!r}") from None
        if light & dark or (light | dark) & ~ALL or mover not in (0, 1):
            raise ValueError("pylos: malformed state: overlapping or off-board balls")
        if max(light.bit_count(), dark.bit_count()) > BALLS_PER_PLAYER:
            raise ValueError("pylos: malformed state: more than 15 balls of one colour")
        return PylosState(self, (light, dark), mover, ply, seen, result)


def _win(player: Player, reason: str) -> Result:
    return Result((player,), (1, -1) if player == LIGHT else (-1, 1), reason)


def _generate(
    balls: tuple[Mask, Mask], mover: Player, figures_at: list[tuple[Mask, ...]] | None
) -> list[Move]:
    """Every legal turn, in the canonical order of the rules file."""
    own = balls[mover]
    occupied = balls[0] | balls[1]
    open_cells = available(occupied)
    moves: list[Move] = []
    for target in bits(open_cells):
        after = own | BIT[target]
        if figures_at is not None and _completes(after, figures_at[target]):
            moves.extend(_with_removals(RESERVE, target, after, occupied | BIT[target]))
        else:
            moves.append(PLACEMENTS[target])
    for source in bits(own & ~covered(occupied)):
        for target in bits(open_cells & HIGHER[source]):
            if SUPPORTS[target] & BIT[source]:
                continue
            after = own & ~BIT[source] | BIT[target]
            if figures_at is not None and _completes(after, figures_at[target]):
                moves.extend(
                    _with_removals(source, target, after, occupied & ~BIT[source] | BIT[target])
                )
            else:
                moves.append(RAISES[source, target])
    return moves


def _completes(own: Mask, figures: tuple[Mask, ...]) -> bool:
    return any(own & figure == figure for figure in figures)


def _with_removals(source: int, target: int, own: Mask, occupied: Mask) -> list[Move]:
    """The removal variants of a turn that completed a figure: one or two own free balls,
    the second possibly freed by the first; a pair that works in both orders listed once."""
    variants = []
    free = own & ~covered(occupied)
    for first in bits(free):
        variants.append(Move(target, source, (first,)))
        rest_occupied = occupied & ~BIT[first]
        free_after = own & ~BIT[first] & ~covered(rest_occupied)
        for second in bits(free_after):
            if second > first or not free & BIT[second]:
                variants.append(Move(target, source, (first, second)))
    return variants


# Why a move is not legal, in the words of each language (``Reason``: key, parameters, words).
_WHY = {
    "not_your_ball": {"en": "no ball of yours on {cell}", "fr": "aucune de vos billes en {cell}"},
    "not_free": {"en": "the ball on {cell} is not free", "fr": "la bille en {cell} n'est pas libre"},
    "supports": {"en": "{source} supports {target}", "fr": "{source} soutient {target}"},
    "not_available": {"en": "{cell} is not available", "fr": "{cell} n'est pas disponible"},
    "bad_removals": {
        "en": "these removals are not possible here (a square or line is needed, and free own balls)",
        "fr": "ces retraits sont impossibles ici (il faut un carré ou une ligne, et vos propres "
              "billes libres)",
    },
    "removal_needed": {
        "en": "this turn completes a figure: take back one or two of your free balls (e.g. x1a1)",
        "fr": "ce coup forme une figure : reprenez une ou deux de vos billes libres (par ex. x1a1)",
    },
}


def _why(state: PylosState, move: Move) -> Reason:
    """A short reason why ``move`` is not legal in ``state``, for people."""
    occupied = state._balls[0] | state._balls[1]
    mover = state._mover
    open_cells = available(occupied)

    def said(key: str, **params: str) -> Reason:
        return Reason(key, params, _WHY[key])

    if move.source != RESERVE:
        if not state._balls[mover] & BIT[move.source]:
            return said("not_your_ball", cell=NAMES[move.source])
        if covered(occupied) & BIT[move.source]:
            return said("not_free", cell=NAMES[move.source])
        if SUPPORTS[move.target] & BIT[move.source]:
            return said("supports", source=NAMES[move.source], target=NAMES[move.target])
    if not open_cells & BIT[move.target]:
        return said("not_available", cell=NAMES[move.target])
    if move.removals:
        return said("bad_removals")
    return said("removal_needed")
