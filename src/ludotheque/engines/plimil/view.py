"""What each Plimil reader may know, and the states they cannot tell apart.

This module is the only place where hidden information is redacted. A player knows the public
part (fixed stems, every stem that stood free, every ball that showed in a window on a stem of
known height, the colour every block shows) plus what they built: their planted stems and their
blocks' balls. A spectator (``None``) knows the public part. In ``open`` everything is public.

A view reads the state through :class:`ViewedState`, the read-only properties and methods it
needs (``rules.PlimilState`` has them): this module imports nothing from ``rules``. Beside what
the reader may know, a view carries what a page needs to draw it without copying the rules:
each cell's ``zone`` (wherever the board has turned it), its ``window`` (which of a block's
``balls`` the stem shows) and the ``quiet_limit`` of the draw rule.

>>> import ludotheque
>>> state = ludotheque.load("plimil").new_state().play("stems STSTSTST").play("block d1 BBN")
>>> mine, theirs = state.view(0)["board"][0], state.view(1)["board"][0]
>>> mine["stem"], mine["block"]["balls"], theirs["stem"], theirs["block"]["balls"]
('S', ['B', 'B', 'N'], None, [None, None, None])
>>> mine["zone"], mine["window"], theirs["window"], state.view(None)["quiet_limit"]
('blue_wedge', 1, None, 100)
"""

from __future__ import annotations

import random
from typing import Protocol, Self, TypeVar

from ...core.contract import JSON, Player, Position, base_view
from .board import (
    BALL_LETTERS,
    BLOCK_START,
    BLOCKS_PER_PLAYER,
    BLUE,
    CELLS,
    NAMES,
    NO_SQUARE,
    PLANTED,
    QUIET_LIMIT,
    RED,
    START_CELLS,
    SUPPLY,
    TURNED,
    WINDOW,
    ZONE_IDS,
    Ball,
    Mask,
    Square,
    Triple,
    current_slot,
    owner,
    window_slot,
)
from .notation import Move, masked_text

ALL_SLOTS = 0b111


class ViewedState(Position, Protocol):
    """What views read of a Plimil state (``rules.PlimilState``), all of it read-only: the
    position with its secrets, which this module alone redacts."""

    @property
    def phase(self) -> str: ...
    @property
    def rotation(self) -> int: ...
    @property
    def counts(self) -> tuple[int, int, int]: ...
    @property
    def quiet_plies(self) -> int: ...
    @property
    def repetitions(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def history(self) -> tuple[Move, ...]: ...
    @property
    def setup_step(self) -> tuple[Player, int] | None: ...
    @property
    def start_to_move(self) -> Player | None: ...
    @property
    def cells(self) -> tuple[int, ...]: ...
    @property
    def balls(self) -> tuple[Triple | None, ...]: ...
    @property
    def flips(self) -> tuple[int, ...]: ...
    @property
    def colours(self) -> tuple[Ball, ...]: ...
    @property
    def shown_slots(self) -> tuple[int, ...]: ...
    @property
    def tall_stems(self) -> Mask: ...
    @property
    def public_stems(self) -> Mask: ...
    def planter(self, square: Square) -> Player | None: ...
    def has_planted(self, player: Player) -> bool: ...
    def hand(self, player: Player) -> tuple[int, int, int]: ...
    def with_secrets(
        self, *, tall: Mask, balls: tuple[Triple | None, ...], history: tuple[Move, ...]
    ) -> Self: ...


S = TypeVar("S", bound=ViewedState)


def is_open(state: ViewedState) -> bool:
    return not state.game.has_hidden_information


def knows_stem(state: ViewedState, viewer: Player | None, square: int) -> bool:
    """Whether ``viewer`` knows the height of the stem on ``square`` (planted ones included)."""
    planter = state.planter(square)
    if planter is None:
        return True
    if not state.has_planted(planter):
        return False
    return bool(state.public_stems >> square & 1) or viewer == planter or is_open(state)


def known_slots(state: ViewedState, viewer: Player | None, block: int) -> int:
    """The built slots of ``block`` whose balls ``viewer`` knows, as a 3-bit mask."""
    if viewer == owner(block) or is_open(state):
        return ALL_SLOTS
    return state.shown_slots[block]


def hidden_facts(state: ViewedState, viewer: Player | None) -> int:
    """How many facts ``viewer`` does not know: the other player's planted stems still hidden
    and the unseen balls of the other player's blocks (both players' for a spectator). A fact
    exists once planted or built; the count falls when a stem or a ball is uncovered.

    >>> import ludotheque
    >>> state = ludotheque.load("plimil").new_state().play("stems STSTSTST").play("block d1 BBN")
    >>> hidden_facts(state, 0), hidden_facts(state, 1), hidden_facts(state, None)
    (0, 11, 11)
    """
    if is_open(state):
        return 0
    stems = sum(
        1
        for square in CELLS
        if (planter := state.planter(square)) is not None
        and planter != viewer
        and state.has_planted(planter)
        and not knows_stem(state, viewer, square)
    )
    balls = 0
    for block, triple in enumerate(state.balls):
        if triple is not None and owner(block) != viewer:
            balls += 3 - known_slots(state, viewer, block).bit_count()
    return stems + balls


def view(state: ViewedState, viewer: Player | None) -> JSON:
    """What ``viewer`` may know of the Plimil position."""
    data = base_view(state, viewer, state.phase)
    data["rotation"] = state.rotation
    data["board"] = [_cell_view(state, viewer, square) for square in CELLS]
    blue, red, neutral = state.counts
    data["counts"] = {"blue": blue, "red": red, "neutral": neutral}
    data["draw"] = {
        "quiet_plies": state.quiet_plies,
        "repetitions": state.repetitions,
        "passes": state.passes,
    }
    data["setup"] = _setup_view(state)
    data["hands"] = [
        list(state.hand(p)) if viewer == p or is_open(state) else None for p in (BLUE, RED)
    ]
    data["moves"] = [
        str(move) if viewer == mover or is_open(state) else masked_text(move)
        for move, mover in zip(state.history, _movers(state), strict=True)
    ]
    # The draw by 100 plies without a colour change, for pages that count toward it.
    data["quiet_limit"] = QUIET_LIMIT
    return data


def _movers(state: ViewedState) -> list[Player]:
    """Who played each move of the history: Blue's 13 setup moves, Red's 13, then in turn."""
    count = len(state.history)
    first = state.start_to_move
    if first is not None:
        return [first ^ (index & 1) for index in range(count)]
    return [
        BLUE if index < 13 else RED if index < 26 else (index - 26) & 1 for index in range(count)
    ]


def _cell_view(state: ViewedState, viewer: Player | None, square: int) -> JSON:
    stem = window = None
    if knows_stem(state, viewer, square):
        is_tall = bool(state.tall_stems >> square & 1)
        stem = "T" if is_tall else "S"
        # ``balls`` below stand as they are now, bottom first: the window is in the same
        # place for every block on this stem (the slot of a block never turned over).
        window = window_slot(is_tall, flips=0)
    block = state.cells[square]
    entry: JSON = {
        "cell": NAMES[square], "stem": stem, "planted_by": state.planter(square), "block": None,
    }
    if block >= 0:
        triple = state.balls[block]
        assert triple is not None, "a block on the board has been built"
        flips = state.flips[block]
        slots = known_slots(state, viewer, block)
        now: list[str | None] = [None, None, None]
        for built in range(3):
            if slots >> built & 1:
                now[current_slot(built, flips)] = BALL_LETTERS[triple[built]]
        entry["block"] = {
            "id": NAMES[BLOCK_START[block]],
            "owner": owner(block),
            "colour": BALL_LETTERS[state.colours[block]],
            "flips": flips,
            "balls": now,
        }
    # Where the balls of ``block`` show (see above; ``None`` while the stem is unknown), and the
    # zone of the board this cell belongs to, wherever the board has turned it.
    entry["window"] = window
    entry["zone"] = ZONE_IDS[TURNED[-state.rotation % 4][square]]
    return entry


def _setup_view(state: ViewedState) -> JSON | None:
    step = state.setup_step
    if step is None:
        return None
    player, index = step
    if index == 0:
        return {"player": player, "next": "stems", "cell": None}
    return {"player": player, "next": "block", "cell": NAMES[START_CELLS[player][index - 1]]}


# -- determinize ---------------------------------------------------------------------------------
def determinized(state: S, player: Player | None, rng: random.Random) -> S:
    """Re-draw what ``player`` cannot know: the other player's (both for ``None``) hidden
    stems, then the unseen balls of their blocks, from canonical orders; their setup move
    texts are rewritten so that the history replays."""
    tall = state.tall_stems
    balls = list(state.balls)
    history = list(state.history)
    for other in (BLUE, RED):
        if other == player or state.start_to_move is not None or not state.has_planted(other):
            continue
        tall = _redraw_stems(state, other, tall, rng)
        _redraw_balls(state, other, tall, balls, rng)
        _rewrite_setup(state, other, tall, balls, history)
    return state.with_secrets(tall=tall, balls=tuple(balls), history=tuple(history))


def _redraw_stems(state: ViewedState, other: Player, tall: int, rng: random.Random) -> int:
    planted = PLANTED[state.game.variant][other]
    turned = TURNED[state.rotation]
    public = state.public_stems
    hidden = [turned[home] for home in planted if not public >> turned[home] & 1]
    known_tall = sum(tall >> turned[home] & 1 for home in planted if public >> turned[home] & 1)
    chosen = set(rng.sample(hidden, len(planted) // 2 - known_tall))
    for square in hidden:
        tall = tall | 1 << square if square in chosen else tall & ~(1 << square)
    return tall


def _redraw_balls(
    state: ViewedState, other: Player, tall: int, balls: list[Triple | None], rng: random.Random
) -> None:
    pool = list(SUPPLY[other])
    forced: list[tuple[int, int]] = []
    unknown: list[tuple[int, int]] = []
    unbuilt = 0
    cells, public, shown = state.cells, state.public_stems, state.shown_slots
    for block in range(other * BLOCKS_PER_PLAYER, (other + 1) * BLOCKS_PER_PLAYER):
        triple = balls[block]
        if triple is None:
            unbuilt += 1
            continue
        square = cells.index(block) if block in cells else NO_SQUARE
        # A block still on its hidden stem shows its builder's colour in whatever slot the
        # re-drawn height puts in the window (setup constraint).
        window = NO_SQUARE
        if not public >> square & 1:
            window = WINDOW[tall >> square & 1][state.flips[block] & 1]
        for slot in range(3):
            if shown[block] >> slot & 1:
                pool[triple[slot]] -= 1
            elif slot == window:
                forced.append((block, slot))
            else:
                unknown.append((block, slot))
    # Each block still to build keeps one ball of the builder's colour for its window.
    pool[other] -= len(forced) + unbuilt
    assert min(pool) >= 0, "the true state is a completion, so one exists"
    draws = [ball for ball in range(3) for _ in range(pool[ball])]
    rng.shuffle(draws)
    new = {block: list(triple) for block, triple in enumerate(balls) if triple is not None}
    for block, slot in forced:
        new[block][slot] = other
    for (block, slot), ball in zip(unknown, draws, strict=False):
        new[block][slot] = ball
    for block in range(other * BLOCKS_PER_PLAYER, (other + 1) * BLOCKS_PER_PLAYER):
        if block in new:
            first, second, third = new[block]
            balls[block] = (first, second, third)


def _rewrite_setup(
    state: ViewedState, other: Player, tall: int, balls: list[Triple | None], history: list[Move]
) -> None:
    first = other * (1 + BLOCKS_PER_PLAYER)
    turned = TURNED[state.rotation]
    planted = PLANTED[state.game.variant][other]
    for index in range(first, min(first + 1 + BLOCKS_PER_PLAYER, len(history))):
        if index == first:
            letters = "".join("T" if tall >> turned[home] & 1 else "S" for home in planted)
            history[index] = Move("stems", letters=letters)
        else:
            cell = START_CELLS[other][index - first - 1]
            triple = balls[index - first - 1 + other * BLOCKS_PER_PLAYER]
            assert triple is not None
            history[index] = Move(
                "block", cell, letters="".join(BALL_LETTERS[ball] for ball in triple)
            )
