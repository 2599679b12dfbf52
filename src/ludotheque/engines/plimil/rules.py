"""Plimil rules (``RULES.md`` beside this module): secret setup, moves, captures, rotations, rule of 7.

The game has two phases. Setup: 26 moves, Blue's 13 then Red's 13 (one ``stems`` move, then one
``block`` move per start cell in board order). Play: Blue first, one block per turn.

>>> import ludotheque
>>> state = ludotheque.load("plimil").new_state()
>>> moves = state.legal_moves()
>>> len(moves), str(moves[0]), str(moves[-1])
(70, 'stems SSSSTTTT', 'stems TTTTSSSS')
>>> state = state.play("stems STSTSTST")
>>> [str(m) for m in state.legal_moves()][:3]
['block d1 BBB', 'block d1 BBN', 'block d1 BBR']

Test positions are built with :meth:`PlimilGame.from_position` (everything public there):

>>> game = ludotheque.load("plimil", variant="open")
>>> blue = "d1 e1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3".split()
>>> red = "c6 d6 e6 f6 b7 c7 d7 e7 f7 g7 d8 e8".split()
>>> spec = {s: f"{s} BBB" for s in blue} | {s: f"{s} RRR" for s in red}
>>> position = game.from_position(spec)
>>> [str(m) for m in position.legal_moves()][:4]
['b2-b4', 'c2-a4', 'f2-h4', 'g2-g4']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from ...core.contract import JSON, Game, Player, Result, State, StoredState, check_viewer
from ...core.errors import IllegalMoveError, Reason
from . import view as views
from .board import (
    BACK_DIAGONALS,
    BALL_LETTERS,
    BLOCK_COUNT,
    BLOCK_OF_START,
    BLOCK_START,
    BLOCKS_PER_PLAYER,
    BLUE,
    CCW,
    CELLS,
    CW,
    FILE_FLANKS,
    FIXED,
    FIXED_TALL,
    INDEX,
    NAMES,
    NEUTRAL,
    NO_SQUARE,
    ON_BOARD,
    PLANTED,
    QUIET_LIMIT,
    RANK_FLANKS,
    RED,
    REPETITION_LIMIT,
    SOURCE,
    START_CELLS,
    STEPS,
    SUPPLY,
    TURNED,
    VARIANTS,
    WINDOW,
    Ball,
    Mask,
    Square,
    Triple,
    file_of,
    rank_of,
    rotate_mask,
)
from .notation import PASS, Move

SETUP_MOVES_PER_PLAYER = 1 + BLOCKS_PER_PLAYER
SETUP_PLIES = 2 * SETUP_MOVES_PER_PLAYER
SEVEN = 7


def _triple_text(triple: Triple) -> str:
    return "".join(BALL_LETTERS[ball] for ball in triple)


# Every triple in the ASCII order of its text (B < N < R), the order of ``block`` moves.
TRIPLES: list[Triple] = sorted(
    ((a, b, c) for a in range(3) for b in range(3) for c in range(3)), key=_triple_text
)
TRIPLE_OF_TEXT: dict[str, Triple] = {_triple_text(t): t for t in TRIPLES}
BLOCK_MOVES: dict[Square, list[Move]] = {
    s: [Move("block", s, letters=_triple_text(t)) for t in TRIPLES] for s in BLOCK_START
}


def _stem_moves(count: int) -> list[Move]:
    texts = {
        "".join("T" if i in talls else "S" for i in range(count))
        for talls in combinations(range(count), count // 2)
    }
    return [Move("stems", letters=text) for text in sorted(texts)]


STEM_MOVES: dict[str, list[Move]] = {v: _stem_moves(len(PLANTED[v][BLUE])) for v in VARIANTS}

# Interned play moves and the generator's tables: OWN_OPTIONS[player][origin] lists, for a block
# of the mover's colour, (landing, jumped, two-stem move, captures, rotations); NEUTRAL_OPTIONS
# lists (landing, captures) for a neutral. A capture is (captured cell, destination, move).
Capture = tuple[Square, Square, Move]
OwnOption = tuple[Square, Square, Move | None, list[Capture], tuple[Move, ...]]
OWN_OPTIONS: list[list[list[OwnOption]]] = []
NEUTRAL_OPTIONS: list[list[list[tuple[Square, list[Capture]]]]] = []
for _player in (BLUE, RED):
    _own: list[list[OwnOption]] = []
    _neutral: list[list[tuple[Square, list[Capture]]]] = []
    for _origin in range(64):
        _own.append([
            (
                landing, jumped,
                Move("play", _origin, landing) if jumped != NO_SQUARE else None,
                [(c, d, Move("play", _origin, landing, c)) for c, d in RANK_FLANKS[landing]]
                if jumped == NO_SQUARE else [],
                (Move("play", _origin, landing, turn=CCW), Move("play", _origin, landing, turn=CW))
                if jumped == NO_SQUARE else (),
            )
            for landing, jumped in STEPS[_player][_origin]
        ])
        _neutral.append([
            (landing, [(c, d, Move("play", _origin, landing, c)) for c, d in FILE_FLANKS[landing]])
            for landing in BACK_DIAGONALS[_player][_origin]
        ])
    OWN_OPTIONS.append(_own)
    NEUTRAL_OPTIONS.append(_neutral)


def _block_code(block: int, flips: int) -> int:
    return 1 + 2 * block + (flips & 1)


def _position_code(cells: tuple[int, ...], flips: tuple[int, ...]) -> int:
    """Every cell's block and its turned-over parity, 6 bits a square (no secret in it)."""
    code = 0
    for s in CELLS:
        block = cells[s]
        if block >= 0:
            code |= _block_code(block, flips[block]) << (6 * s)
    return code


class PlimilState(StoredState["PlimilGame", Move]):
    """A Plimil position with its secrets, what has been made public, and its history.

    Squares are in the table's frame (``board``): turning the board permutes ``cells``,
    ``tall`` and ``public``. ``balls[b]`` is block ``b``'s triple as built, ``flips[b]`` how many
    times it was turned over since; ``known[b]`` the built slots ever seen by everyone.
    """

    __slots__ = (
        "_balls", "_cells", "_code", "_colour", "_counts", "_flips", "_history", "_known",
        "_mover", "_passes", "_public", "_quiet", "_rotation", "_seen", "_start", "_tall",
    )

    def __init__(
        self,
        game: PlimilGame,
        *,
        ply: int,
        mover: Player,
        cells: tuple[int, ...],
        tall: Mask,
        public: Mask,
        rotation: int,
        balls: tuple[Triple | None, ...],
        flips: tuple[int, ...],
        known: tuple[int, ...],
        passes: int,
        quiet: int,
        seen: dict[int, int],
        result: Result | None,
        history: tuple[Move, ...],
        start: JSON | None,
    ) -> None:
        self._game = game
        self._ply = ply
        self._mover = mover
        self._cells = cells
        self._tall = tall
        self._public = public
        self._rotation = rotation
        self._balls = balls
        self._flips = flips
        self._known = known
        self._passes = passes
        self._quiet = quiet
        self._seen = seen
        self._result = result
        self._history = history
        self._start = start
        self._colour: tuple[Ball, ...] = tuple(
            -1 if triple is None else triple[self._window(block)]
            for block, triple in enumerate(balls)
        )
        self._counts = tuple(self._colour.count(ball) for ball in (BLUE, RED, NEUTRAL))
        self._code = _position_code(cells, flips)
        self._legal: list[Move] | None = None

    # -- the contract --------------------------------------------------------------------------
    @property
    def to_move(self) -> Player | None:
        return None if self._result is not None else self._mover

    def _generate_legal_moves(self) -> list[Move]:
        return self._setup_moves() if self.in_setup else self._play_moves()

    def _apply(self, move: Move) -> PlimilState:
        """The state after the legal ``move``: a setup move plants or builds, a play move moves
        a block (then captures or turns the board, unless it changed colour) or passes."""
        if move.is_setup:
            return self._after_setup(move)
        return self._after_play(move)

    def _view(self, player: Player | None) -> JSON:
        return views.view(self, player)

    def hidden_facts(self, player: Player | None) -> int:
        """The other player's hidden stems and unseen balls (``view.hidden_facts``): a fall in
        the count is a reveal, which the server never takes back."""
        return views.hidden_facts(self, player)

    def to_json(self) -> JSON:
        return {
            **self._json_header(),
            "ply": self._ply,
            "mover": self._mover,
            "rotation": self._rotation,
            "tall": [NAMES[s] for s in CELLS if self._tall >> s & 1],
            "public_stems": [NAMES[s] for s in CELLS if self._public >> s & 1],
            "blocks": [self._block_json(block) for block in range(BLOCK_COUNT)],
            "passes": self._passes,
            "quiet": self._quiet,
            "seen": [[format(key, "x"), count] for key, count in self._seen.items()],
            "result": self._result.to_json() if self._result else None,
            "moves": [str(move) for move in self._history],
            "start": self._start,
        }

    def determinize(self, player: Player | None, rng: random.Random) -> PlimilState:
        """A state ``player`` cannot tell from this one: the other player's hidden stems and
        unseen balls re-drawn from ``rng`` in a canonical order (both players' for ``None``)."""
        check_viewer(self, player)
        if not self._game.has_hidden_information:
            return self
        return views.determinized(self, player, rng)

    def __hash__(self) -> int:
        return hash((self._code, self._ply, self._mover, self._rotation))

    def __repr__(self) -> str:
        return f"<PlimilState {self._game.variant} ply {self._ply} to move {self.to_move}>"

    # -- public facts for views, evaluators and tests -------------------------------------------
    @property
    def in_setup(self) -> bool:
        return self._ply < SETUP_PLIES and self._start is None

    @property
    def phase(self) -> str:
        """``setup``, ``play`` or ``over``."""
        return "over" if self.is_over else ("setup" if self.in_setup else "play")

    @property
    def counts(self) -> tuple[int, int, int]:
        """Blocks showing blue, red and neutral."""
        blue, red, neutral = self._counts
        return blue, red, neutral

    @property
    def rotation(self) -> int:
        """Net clockwise quarter turns of the board, modulo 4."""
        return self._rotation

    @property
    def quiet_plies(self) -> int:
        """Plies in a row without a colour change (a draw at 100)."""
        return self._quiet

    @property
    def repetitions(self) -> int:
        """How many times the current position has occurred (a draw on the third)."""
        return self._seen.get(self._key(), 0)

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move since ``new_state`` (or since ``from_position``)."""
        return self._history

    def block_at(self, cell: str) -> str | None:
        """The block on ``cell``, named by its start cell, or ``None``."""
        block = self._cells[INDEX[cell]]
        return None if block < 0 else NAMES[BLOCK_START[block]]

    def colour_at(self, cell: str) -> str | None:
        """The colour (``B``, ``R``, ``N``) the block on ``cell`` shows, or ``None``."""
        block = self._cells[INDEX[cell]]
        return None if block < 0 else BALL_LETTERS[self._colour[block]]

    def is_tall(self, cell: str) -> bool:
        """Whether the stem on ``cell`` is tall (a secret while planted and covered)."""
        return bool(self._tall >> INDEX[cell] & 1)

    def hand(self, player: Player) -> tuple[int, int, int]:
        """The balls ``player`` has not yet put in a block (blue, red, neutral)."""
        left = list(SUPPLY[player])
        for block in range(player * BLOCKS_PER_PLAYER, (player + 1) * BLOCKS_PER_PLAYER):
            triple = self._balls[block]
            if triple is not None:
                for ball in triple:
                    left[ball] -= 1
        return left[0], left[1], left[2]

    def planter(self, square: Square) -> Player | None:
        """Who plants the stem now on ``square`` (``None`` for a fixed stem)."""
        home = TURNED[-self._rotation % 4][square]
        for player in (BLUE, RED):
            if home in PLANTED[self._game.variant][player]:
                return player
        return None

    def has_planted(self, player: Player) -> bool:
        """Whether ``player``'s stems stand on the board (always, after ``from_position``)."""
        return self._start is not None or self._ply > player * SETUP_MOVES_PER_PLAYER

    @property
    def setup_step(self) -> tuple[Player, int] | None:
        """During the setup, whose it is and which of their 13 moves comes next (0: the stems,
        ``i``: the block on their ``i``-th start cell); ``None`` once play has begun."""
        return self._setup_step() if self.in_setup else None

    @property
    def start_to_move(self) -> Player | None:
        """Who moved first after ``from_position``; ``None`` for a game that began with its
        setup (``new_state``)."""
        return None if self._start is None else int(self._start["to_move"])

    @property
    def passes(self) -> int:
        """Passes in a row (two end the game)."""
        return self._passes

    # The whole position, secrets included, as read-only values (``view.ViewedState``): views
    # redact from them; squares are in the table's frame and blocks numbered 0-23 (``board``).
    @property
    def cells(self) -> tuple[int, ...]:
        """The block on each of the 64 squares, ``-1`` where there is none."""
        return self._cells

    @property
    def balls(self) -> tuple[Triple | None, ...]:
        """Each block's balls as built, ``None`` until it is built."""
        return self._balls

    @property
    def flips(self) -> tuple[int, ...]:
        """How many times each block was turned over since it was built."""
        return self._flips

    @property
    def colours(self) -> tuple[Ball, ...]:
        """The colour each block shows (``BLUE``, ``RED``, ``NEUTRAL``; ``-1`` until built)."""
        return self._colour

    @property
    def shown_slots(self) -> tuple[int, ...]:
        """Each block's built slots that everyone has seen in a window, as a 3-bit mask."""
        return self._known

    @property
    def tall_stems(self) -> Mask:
        """The squares whose stems are tall (planted ones included: a secret)."""
        return self._tall

    @property
    def public_stems(self) -> Mask:
        """The squares whose stem height everyone knows (fixed, or uncovered since)."""
        return self._public

    def with_secrets(
        self, *, tall: Mask, balls: tuple[Triple | None, ...], history: tuple[Move, ...]
    ) -> PlimilState:
        """The same position with other stem heights and balls, and the setup moves that name
        them (``determinize``): no check that they agree with what was seen."""
        return self._replace(tall=tall, balls=balls, history=history)

    # -- helpers ---------------------------------------------------------------------------------
    def _where(self, block: int) -> Square:
        return self._cells.index(block) if block in self._cells else NO_SQUARE

    def _window(self, block: int) -> int:
        return WINDOW[self._tall >> self._where(block) & 1][self._flips[block] & 1]

    def _key(self) -> int:
        return self._code << 3 | self._rotation << 1 | self._mover

    def _block_json(self, block: int) -> JSON:
        where = self._where(block)
        triple = self._balls[block]
        return {
            "start": NAMES[BLOCK_START[block]],
            "cell": None if where == NO_SQUARE else NAMES[where],
            "balls": None if triple is None else _triple_text(triple),
            "flips": self._flips[block],
            "known": self._known[block],
        }

    def _setup_step(self) -> tuple[Player, int]:
        """Whose setup it is and which of their 13 moves (0: stems, i: i-th block)."""
        player = 0 if self._ply < SETUP_MOVES_PER_PLAYER else 1
        return player, self._ply - player * SETUP_MOVES_PER_PLAYER

    def _setup_moves(self) -> list[Move]:
        player, step = self._setup_step()
        if step == 0:
            return list(STEM_MOVES[self._game.variant])
        cell = START_CELLS[player][step - 1]
        slot = WINDOW[self._tall >> cell & 1][0]
        hand = self.hand(player)
        still_to_build = BLOCKS_PER_PLAYER - step
        moves = []
        for triple, move in zip(TRIPLES, BLOCK_MOVES[cell], strict=True):
            if triple[slot] != player:
                continue  # the window must show the builder's colour (setup constraint)
            used = [triple.count(ball) for ball in (BLUE, RED, NEUTRAL)]
            if any(used[ball] > hand[ball] for ball in (BLUE, RED, NEUTRAL)):
                continue
            # Each block still to build needs one ball of the builder's colour in its window.
            if hand[player] - used[player] >= still_to_build:
                moves.append(move)
        return moves

    def _play_moves(self) -> list[Move]:
        cells, colour, mover = self._cells, self._colour, self._mover
        opponent = 1 - mover
        may_turn = self._counts[NEUTRAL] > 0
        own_options, neutral_options = OWN_OPTIONS[mover], NEUTRAL_OPTIONS[mover]
        moves: list[Move] = []
        for origin in CELLS:
            block = cells[origin]
            if block < 0:
                continue
            shown = colour[block]
            if shown == mover:
                for landing, jumped, two_stems, captures, turns in own_options[origin]:
                    if cells[landing] >= 0:
                        continue
                    if jumped != NO_SQUARE:
                        if cells[jumped] < 0 and two_stems is not None:
                            moves.append(two_stems)
                        continue
                    for captured, destination, move in captures:
                        victim = cells[captured]
                        if victim >= 0 and colour[victim] == opponent and cells[destination] < 0:
                            moves.append(move)
                    if may_turn:
                        moves.extend(turns)
            elif shown == NEUTRAL:
                for landing, captures in neutral_options[origin]:
                    if cells[landing] >= 0:
                        continue
                    for captured, destination, move in captures:
                        victim = cells[captured]
                        if victim >= 0 and colour[victim] == opponent and cells[destination] < 0:
                            moves.append(move)
        return moves or [PASS]

    def _replace(self, **changes: Any) -> PlimilState:
        fields: dict[str, Any] = {
            "ply": self._ply, "mover": self._mover, "cells": self._cells, "tall": self._tall,
            "public": self._public, "rotation": self._rotation, "balls": self._balls,
            "flips": self._flips, "known": self._known, "passes": self._passes,
            "quiet": self._quiet, "seen": self._seen, "result": self._result,
            "history": self._history, "start": self._start,
        }
        fields.update(changes)
        return PlimilState(self._game, **fields)

    def _after_setup(self, move: Move) -> PlimilState:
        """``_apply`` for a setup move: plant the mover's stems, or build a block on its cell."""
        player, _ = self._setup_step()
        ply = self._ply + 1
        mover = player if ply < SETUP_MOVES_PER_PLAYER else (1 if ply < SETUP_PLIES else BLUE)
        history = (*self._history, move)
        if move.kind == "stems":
            tall = self._tall
            for cell, letter in zip(PLANTED[self._game.variant][player], move.letters, strict=True):
                tall = tall | 1 << cell if letter == "T" else tall & ~(1 << cell)
            return self._replace(ply=ply, mover=mover, tall=tall, history=history)
        block = BLOCK_OF_START[move.origin]
        triple = TRIPLE_OF_TEXT[move.letters]
        cells = list(self._cells)
        cells[move.origin] = block
        balls = list(self._balls)
        balls[block] = triple
        known = list(self._known)
        if self._public >> move.origin & 1:
            known[block] = 1 << WINDOW[self._tall >> move.origin & 1][0]
        state = self._replace(
            ply=ply, mover=mover, cells=tuple(cells), balls=tuple(balls), known=tuple(known),
            history=history,
        )
        if ply == SETUP_PLIES:
            # The position when play begins is its first occurrence (rules: draw rules).
            state._seen = {state._key(): 1}
        return state

    def _after_play(self, move: Move) -> PlimilState:
        """``_apply`` for a play move or a pass, then the endings (``_ending``)."""
        cells = list(self._cells)
        colour = list(self._colour)
        known = list(self._known)
        flips = self._flips
        tall, public, rotation = self._tall, self._public, self._rotation
        code = self._code
        origin, landing = move.origin, move.landing
        changed = False
        if move.kind == "play":
            block = cells[origin]
            parity = flips[block] & 1
            if not public >> origin & 1:
                # Leaving a hidden stem reveals its height, and so the ball shown there.
                public |= 1 << origin
                known[block] |= 1 << WINDOW[tall >> origin & 1][parity]
            cells[origin], cells[landing] = -1, block
            value = _block_code(block, parity)
            code += (value << 6 * landing) - (value << 6 * origin)
            slot = WINDOW[tall >> landing & 1][parity]
            known[block] |= 1 << slot
            before, after = colour[block], self._balls_of(block)[slot]
            colour[block] = after
            changed = after != before
            # A block that changes colour on landing stops the move (rules: Colour change).
            if not changed and move.captured != NO_SQUARE:
                changed, code, public, flips = self._capture(
                    move, cells, colour, known, code, public
                )
            elif not changed and move.turn:
                cells = [cells[s] for s in SOURCE[move.turn]]
                tall = rotate_mask(tall, move.turn)
                public = rotate_mask(public, move.turn)
                rotation = (rotation + move.turn) % 4
                code = _position_code(tuple(cells), flips)
        counts = tuple(colour.count(ball) for ball in (BLUE, RED, NEUTRAL))
        passes = self._passes + 1 if move.kind == "pass" else 0
        quiet = 0 if changed else self._quiet + 1
        mover = 1 - self._mover
        key = code << 3 | rotation << 1 | mover
        seen = self._seen.copy()
        seen[key] = repeats = seen.get(key, 0) + 1
        result = _ending(counts, passes, repeats, quiet)
        state = PlimilState.__new__(PlimilState)
        state._game = self._game
        state._ply = self._ply + 1
        state._mover = mover
        state._cells = tuple(cells)
        state._tall = tall
        state._public = public
        state._rotation = rotation
        state._balls = self._balls
        state._flips = flips
        state._known = tuple(known)
        state._passes = passes
        state._quiet = quiet
        state._seen = seen
        state._result = result
        state._history = (*self._history, move)
        state._start = self._start
        state._colour = tuple(colour)
        state._counts = counts
        state._code = code
        state._legal = None
        return state

    def _balls_of(self, block: int) -> Triple:
        triple = self._balls[block]
        assert triple is not None, "a block on the board has been built"
        return triple

    def _capture(
        self,
        move: Move,
        cells: list[int],
        colour: list[Ball],
        known: list[int],
        code: int,
        public: Mask,
    ) -> tuple[bool, int, Mask, tuple[int, ...]]:
        """Lift the captured block over the mover, turn it over, plant it on the other side."""
        captured, landing, tall = move.captured, move.landing, self._tall
        destination = 2 * landing - captured
        victim = cells[captured]
        old_flips = self._flips[victim]
        if not public >> captured & 1:
            public |= 1 << captured
            known[victim] |= 1 << WINDOW[tall >> captured & 1][old_flips & 1]
        flips = list(self._flips)
        flips[victim] = old_flips + 1
        cells[captured], cells[destination] = -1, victim
        code += (_block_code(victim, old_flips + 1) << 6 * destination) - (
            _block_code(victim, old_flips) << 6 * captured
        )
        slot = WINDOW[tall >> destination & 1][(old_flips + 1) & 1]
        known[victim] |= 1 << slot
        before, after = colour[victim], self._balls_of(victim)[slot]
        colour[victim] = after
        return after != before, code, public, tuple(flips)


def _ending(counts: tuple[int, ...], passes: int, repeats: int, quiet: int) -> Result | None:
    """The endings in the order of the rules file; the first that holds ends the game."""
    blue, red, neutral = counts
    if blue <= SEVEN or red <= SEVEN or neutral >= SEVEN:
        return _by_counts(blue, red, "rule_of_7")
    if passes >= 2:
        return _by_counts(blue, red, "two_passes")
    if repeats >= REPETITION_LIMIT:
        return Result((), (blue, red), "repetition")
    if quiet >= QUIET_LIMIT:
        return Result((), (blue, red), "hundred_plies")
    return None


def _by_counts(blue: int, red: int, reason: str) -> Result:
    winners = (BLUE,) if blue > red else (RED,) if red > blue else ()
    return Result(winners, (blue, red), reason)


class PlimilGame(Game):
    """Plimil in one variant: ``standard``, ``setup10`` or ``open`` (nothing hidden)."""

    def __init__(self, variant: str = "standard", players: int = 2) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"plimil: unknown variant {variant!r}")
        super().__init__(variant, players)

    @property
    def has_hidden_information(self) -> bool:
        return self.variant != "open"

    def new_state(self, seed: int = 0) -> PlimilState:
        """The empty board with its fixed stems, Blue to set up; ``seed`` is ignored."""
        return PlimilState(
            self, ply=0, mover=BLUE, cells=(-1,) * 64, tall=FIXED_TALL[self.variant],
            public=FIXED[self.variant], rotation=0, balls=(None,) * BLOCK_COUNT,
            flips=(0,) * BLOCK_COUNT, known=(0,) * BLOCK_COUNT, passes=0, quiet=0, seen={},
            result=None, history=(), start=None,
        )

    def from_position(
        self,
        blocks: Mapping[str, str],
        *,
        to_move: Player = BLUE,
        stems: Mapping[str, str] | None = None,
        rotation: int = 0,
        quiet_plies: int = 0,
    ) -> PlimilState:
        """A play-phase position for tests and studies, in which everything is public.

        ``blocks`` maps each of the 24 blocks' cells to ``"<start cell> <balls>"`` or
        ``"<start cell> <balls> <flips>"``: the block (named by its start cell), its balls as
        they stand now from bottom to top (``B``/``R``/``N``) and how many times it has been
        turned over (0 by default). ``quiet_plies`` starts the count of plies without a colour
        change (a draw at 100). Stems follow the standard parity rule (tall where file +
        rank is even, ``a1`` counting as tall) except where ``stems`` gives ``"S"`` or ``"T"``.
        The ball supply is not checked. Raises ``ValueError`` on a malformed position.
        """
        spec = {
            "blocks": dict(sorted(blocks.items())),
            "stems": dict(sorted((stems or {}).items())),
            "to_move": to_move,
            "rotation": rotation,
            "quiet_plies": quiet_plies,
        }
        return _from_position(self, spec)

    def parse_move(self, state: State, text: str) -> Move:
        if not isinstance(state, PlimilState):
            raise TypeError(f"plimil: not a Plimil state: {state!r}")
        move = Move.from_text(text)
        if state.is_over:
            raise IllegalMoveError.game_over("plimil", text, ply=state.ply)
        legal = state.legal_moves()
        if move in legal:
            return legal[legal.index(move)]
        raise IllegalMoveError.here("plimil", text, state.ply, _why(state, move))

    def mask_move_text(self, text: str, mover: Player, reader: Player | None) -> str:
        if reader == mover or not self.has_hidden_information:
            return text
        from .notation import masked_text

        try:
            return masked_text(Move.from_text(text))
        except ValueError:
            return text

    def state_from_json(self, data: Mapping[str, Any]) -> PlimilState:
        """Rebuild a state from ``to_json()``; raises ``ValueError`` on malformed data, or on
        the state of another game, variant or player count."""
        self.check_json_header(data)
        try:
            state = _state_from_json(self, data)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError(f"plimil: malformed state: {error!r}") from None
        if state.to_json() != dict(data):
            raise ValueError("plimil: malformed state: it does not describe itself exactly")
        return state


def _cell(name: Any) -> Square:
    square = INDEX.get(str(name).lower(), NO_SQUARE)
    if square == NO_SQUARE or not ON_BOARD[square]:
        raise ValueError(f"plimil: {name!r} is not a cell of the board")
    return square


def _triple(text: Any) -> Triple:
    triple = TRIPLE_OF_TEXT.get(str(text).upper())
    if triple is None:
        raise ValueError(f"plimil: {text!r} is not three balls among B, R, N")
    return triple


def _mask(names: Iterable[Any]) -> Mask:
    mask = 0
    for name in names:
        mask |= 1 << _cell(name)
    return mask


def _from_position(game: PlimilGame, spec: JSON) -> PlimilState:
    cells = [-1] * 64
    balls: list[Triple | None] = [None] * BLOCK_COUNT
    flips = [0] * BLOCK_COUNT
    for cell_name, text in spec["blocks"].items():
        start, letters, *rest = str(text).split()
        block = BLOCK_OF_START.get(_cell(start))
        if block is None or balls[block] is not None:
            raise ValueError(f"plimil: {start!r} is not the start cell of an unplaced block")
        cell = _cell(cell_name)
        if cells[cell] >= 0:
            raise ValueError(f"plimil: two blocks on {cell_name!r}")
        turns = int(rest[0]) if rest else 0
        if turns < 0:
            raise ValueError(f"plimil: negative flips in {text!r}")
        now = _triple(letters)
        cells[cell], flips[block] = block, turns
        balls[block] = now[::-1] if turns & 1 else now
    if any(triple is None for triple in balls):
        raise ValueError("plimil: a position places all 24 blocks")
    tall = sum(1 << s for s in CELLS if (file_of(s) + rank_of(s)) % 2 == 0)
    for cell_name, height in spec["stems"].items():
        if height not in ("S", "T"):
            raise ValueError(f"plimil: stem height {height!r} is not S or T")
        bit = 1 << _cell(cell_name)
        tall = tall | bit if height == "T" else tall & ~bit
    mover, rotation, quiet = spec["to_move"], spec["rotation"], spec["quiet_plies"]
    if mover not in (BLUE, RED) or rotation not in range(4) or quiet not in range(QUIET_LIMIT):
        raise ValueError("plimil: to_move is 0 or 1, rotation 0 to 3, quiet_plies 0 to 99")
    state = PlimilState(
        game, ply=0, mover=mover, cells=tuple(cells), tall=tall, public=sum(1 << s for s in CELLS),
        rotation=rotation, balls=tuple(balls), flips=tuple(flips), known=(7,) * BLOCK_COUNT,
        passes=0, quiet=quiet, seen={}, result=None, history=(), start=spec,
    )
    state._seen = {state._key(): 1}
    return state


def _state_from_json(game: PlimilGame, data: Mapping[str, Any]) -> PlimilState:
    start = data["start"]
    if start is not None:
        _from_position(game, start)  # validates the start position
    cells = [-1] * 64
    balls: list[Triple | None] = [None] * BLOCK_COUNT
    flips = [0] * BLOCK_COUNT
    known = [0] * BLOCK_COUNT
    if len(data["blocks"]) != BLOCK_COUNT:
        raise ValueError("plimil: 24 blocks expected")
    for block, entry in enumerate(data["blocks"]):
        if entry["start"] != NAMES[BLOCK_START[block]]:
            raise ValueError(f"plimil: block {block} should start on {NAMES[BLOCK_START[block]]}")
        if (entry["cell"] is None) != (entry["balls"] is None):
            raise ValueError(f"plimil: block {entry['start']} is built exactly when placed")
        if entry["cell"] is not None:
            cell = _cell(entry["cell"])
            if cells[cell] >= 0:
                raise ValueError(f"plimil: two blocks on {entry['cell']}")
            cells[cell] = block
            balls[block] = _triple(entry["balls"])
        flips[block], known[block] = int(entry["flips"]), int(entry["known"])
        if flips[block] < 0 or not 0 <= known[block] <= 7:
            raise ValueError(f"plimil: bad flips or knowledge for block {entry['start']}")
    ply, mover = int(data["ply"]), int(data["mover"])
    if ply < 0 or mover not in (BLUE, RED) or int(data["rotation"]) not in range(4):
        raise ValueError("plimil: bad ply, mover or rotation")
    history = tuple(Move.from_text(text) for text in data["moves"])
    if len(history) != ply:
        raise ValueError("plimil: the move list does not match the ply")
    return PlimilState(
        game, ply=ply, mover=mover, cells=tuple(cells),
        tall=_mask(data["tall"]), public=_mask(data["public_stems"]),
        rotation=int(data["rotation"]), balls=tuple(balls), flips=tuple(flips),
        known=tuple(known), passes=int(data["passes"]), quiet=int(data["quiet"]),
        seen={int(key, 16): int(count) for key, count in data["seen"]},
        result=Result.from_json(data["result"]) if data["result"] else None,
        history=history, start=start,
    )


# Why a move is not legal, in the words of each language (``Reason``: key, parameters, words).
_WHY = {
    "setup_stems": {
        "en": "the setup expects 'stems' with {count} letters, half S and half T",
        "fr": "la préparation attend « stems » avec {count} lettres, moitié S et moitié T",
    },
    "setup_block": {
        "en": "the setup expects the block on {cell} ('block {cell} ...')",
        "fr": "la préparation attend le bloc en {cell} (« block {cell} ... »)",
    },
    "block_balls": {
        "en": "the window must show your colour, and the balls left must complete every block",
        "fr": "la fenêtre doit montrer votre couleur, et les billes restantes doivent compléter "
              "chaque bloc",
    },
    "setup_over": {"en": "the setup is over", "fr": "la préparation est terminée"},
    "pass_only_when_stuck": {
        "en": "a player passes only when no other move exists",
        "fr": "on ne passe que si aucun autre coup n'existe",
    },
    "off_board": {"en": "{cell} is not a cell of the board", "fr": "{cell} n'est pas une case du plateau"},
    "no_block": {"en": "no block on {cell}", "fr": "aucun bloc en {cell}"},
    "opponent_block": {
        "en": "the block on {cell} shows your opponent's colour",
        "fr": "le bloc en {cell} montre la couleur adverse",
    },
    "not_free": {"en": "{cell} is not free", "fr": "{cell} n'est pas libre"},
    "no_neutral": {
        "en": "the board turns only when a neutral block is on it",
        "fr": "le plateau ne tourne que si un bloc neutre s'y trouve",
    },
    "no_such_move": {
        "en": "no such move from here (see the rules: direction, distance, capture or rotation)",
        "fr": "pas de tel coup d'ici (voir les règles : direction, distance, prise ou rotation)",
    },
}


def _why(state: PlimilState, move: Move) -> Reason:
    """A short reason why ``move`` is not legal in ``state``, for people."""

    def said(key: str, **params: str | int) -> Reason:
        return Reason(key, params, _WHY[key])

    if state.in_setup:
        player, step = state._setup_step()
        if step == 0:
            return said("setup_stems", count=len(PLANTED[state.game.variant][player]))
        cell = NAMES[START_CELLS[player][step - 1]]
        if move.kind != "block" or NAMES[move.origin] != cell:
            return said("setup_block", cell=cell)
        return said("block_balls")
    if move.is_setup:
        return said("setup_over")
    if move.kind == "pass":
        return said("pass_only_when_stuck")
    for square in (move.origin, move.landing, move.captured):
        if square != NO_SQUARE and not ON_BOARD[square]:
            return said("off_board", cell=NAMES[square])
    block = state._cells[move.origin]
    if block < 0:
        return said("no_block", cell=NAMES[move.origin])
    shown = state._colour[block]
    if shown not in (state._mover, NEUTRAL):
        return said("opponent_block", cell=NAMES[move.origin])
    if state._cells[move.landing] >= 0:
        return said("not_free", cell=NAMES[move.landing])
    if move.turn and state.counts[NEUTRAL] == 0:
        return said("no_neutral")
    return said("no_such_move")
