"""Imbrication rules (``RULES.md`` beside this module): five rounds of placements and tiles.

A round is 4 opening placements, then 9 action turns; an action turn is two moves by the same
player: a placement, then (once the tile is revealed) the action, unless the tile is blank or no
piece can perform it. Seat 0 plays the light pieces (``L`` in diagrams), seat 1 the dark (``D``).

>>> import ludotheque
>>> state = ludotheque.load("imbrication").new_state(seed=18)
>>> for text in ["a1", "d5", "h1", "h8", "d4"]:
...     state = state.play(text)
>>> state.phase, state.round, state.to_move, state.current_tile
('act', 1, 0, 'jump')
>>> [str(m) for m in state.legal_moves()]
['d4xd6']
>>> state = state.play("d4xd6")
>>> state.diagram()[2], state.to_move, state.phase
('...L....', 1, 'place')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.contract import JSON, Game, Player, Result, State, StoredState, check_viewer
from ...core.errors import IllegalMoveError, Reason
from . import view as views
from .board import (
    BETWEEN,
    BIT,
    BLANK,
    FULL,
    INDEX,
    NAMES,
    OPENING_PLACEMENTS,
    RAYS,
    ROUNDS,
    SIZE,
    TILE_COUNT,
    TILE_TABLE,
    TILES,
    TURNS_PER_ROUND,
    Cell,
    Mask,
    banned,
    bits,
    territories,
)
from .notation import SHIFTS, Move, placements

LIGHT, DARK = 0, 1
# Rounds 4 and 5 let a player act with any own piece (rules: "Turn structure").
ANY_PIECE_FROM_ROUND = 4
# The round before which the tiles are shuffled again and shown (rules: "Tile order").
RESHUFFLE_ROUND = 4
OUTCOMES = ("action", "blank", "removed", "pending")
_TILE_MOTION = [TILE_TABLE[t].motion for t in TILES]
_TILE_DIRECTIONS = [TILE_TABLE[t].directions for t in TILES]
# Per tile and cell: the (captured, landing) cell pairs of a short hop, and the rays long enough
# for a long hop (a piece to take and a cell beyond it).
_SHORT_HOPS = [
    [tuple((RAYS[c][d][0], RAYS[c][d][1]) for d in dirs if len(RAYS[c][d]) >= 2)
     for c in range(SIZE * SIZE)]
    for dirs in _TILE_DIRECTIONS
]
_LONG_RAYS = [
    [tuple(RAYS[c][d] for d in dirs if len(RAYS[c][d]) >= 2) for c in range(SIZE * SIZE)]
    for dirs in _TILE_DIRECTIONS
]


def line_tile(orders: tuple[tuple[int, ...], tuple[int, ...]], round_: int, turn: int) -> int:
    """The tile drawn on ``turn`` (0-based) of ``round_``: round 1 plays ``order1``, each later
    round its predecessor's order reversed, except round 4 which plays ``order4``.

    >>> orders = (tuple(range(9)), tuple(range(8, -1, -1)))
    >>> [line_tile(orders, r, 0) for r in (1, 2, 3, 4, 5)]
    [0, 8, 0, 8, 0]
    """
    order = orders[0] if round_ <= 3 else orders[1]
    return order[TURNS_PER_ROUND - 1 - turn] if round_ in (2, 5) else order[turn]


class ImbricationState(StoredState["ImbricationGame", Move]):
    """An Imbrication position.

    Stored: the pieces, the round, the opening placements and tiles drawn this round, the piece
    placed whose action is pending, both secret tile orders and the outcome of every tile drawn.
    Everything else (player to move, phase, the end) follows from those.
    """

    __slots__ = (
        "_drawn", "_mover", "_openings", "_orders", "_outcomes", "_phase", "_pieces", "_placed",
        "_round",
    )

    def __init__(
        self,
        game: ImbricationGame,
        pieces: tuple[Mask, Mask],
        round_: int,
        openings: int,
        drawn: int,
        placed: Cell | None,
        orders: tuple[tuple[int, ...], tuple[int, ...]],
        outcomes: tuple[str, ...],
        ply: int,
    ) -> None:
        self._game = game
        self._pieces = pieces
        self._round = round_
        self._openings = openings
        self._drawn = drawn
        self._placed = placed
        self._orders = orders
        self._outcomes = outcomes
        self._ply = ply
        self._legal = None
        self._result: Result | None = None
        if openings < OPENING_PLACEMENTS:
            self._mover = (round_ - 1 + openings) % 2
            self._phase = "opening"
        elif placed is not None:
            self._mover = (round_ + drawn) % 2  # the turn of the tile just drawn, drawn - 1
            self._phase = "act"
        else:
            self._mover = (round_ - 1 + drawn) % 2
            self._phase = "place"
        if self._phase != "act" and (
            (round_ == ROUNDS and drawn == TURNS_PER_ROUND) or not self.placeable()
        ):
            # §3.2, §6: after round 5, or at once when the player who must place cannot.
            self._phase = "over"
            self._result = _score(pieces)

    # -- the contract --------------------------------------------------------------------------
    @property
    def to_move(self) -> Player | None:
        return None if self._result is not None else self._mover

    def _generate_legal_moves(self) -> list[Move]:
        if self._phase == "act":
            return _actions(self._pieces, self._mover, self._current_tile_index(), self._actors())
        return placements(self.placeable())

    def _apply(self, move: Move) -> ImbricationState:
        """One move of a turn: an opening placement, an action turn's placement (which reveals
        the tile), or the tile's action."""
        if self._phase == "opening":
            return self._after_opening_placement(move.source)
        if self._phase == "place":
            return self._after_placement(move.source)
        return self._after_action(move)

    def _view(self, player: Player | None) -> JSON:
        return views.view(self, player)

    def hidden_facts(self, player: Player | None) -> int:
        """The tile positions nobody has seen yet (``view.hidden_facts``): a fall is a reveal."""
        return views.hidden_facts(self, player)

    def to_json(self) -> JSON:
        return self._json_header() | {
            "board": self.diagram(),
            "round": self._round,
            "openings": self._openings,
            "drawn": self._drawn,
            "placed": None if self._placed is None else NAMES[self._placed],
            "order1": [TILES[t] for t in self._orders[0]],
            "order4": [TILES[t] for t in self._orders[1]],
            "outcomes": list(self._outcomes),
            "ply": self._ply,
            "result": self._result.to_json() if self._result else None,
        }

    def determinize(self, player: Player | None, rng: random.Random) -> ImbricationState:
        """Redraw what ``player`` cannot know: round 1's unrevealed tiles (from the unseen tiles in
        table order) and, before round 4, the round-4 order (from table order)."""
        check_viewer(self, player)
        order1, order4 = self._orders
        seen = self.revealed_in_round_one()
        if seen < TURNS_PER_ROUND:
            known = order1[:seen]
            unknown = [t for t in range(TILE_COUNT) if t not in known]
            rng.shuffle(unknown)
            order1 = (*known, *unknown)
        if not self.is_round_four_order_known():
            shuffled = list(range(TILE_COUNT))
            rng.shuffle(shuffled)
            order4 = tuple(shuffled)
        return ImbricationState(
            self._game, self._pieces, self._round, self._openings, self._drawn, self._placed,
            (order1, order4), self._outcomes, self._ply,
        )

    def __hash__(self) -> int:
        return hash((self._pieces, self._round, self._drawn, self._placed, self._ply))

    def __repr__(self) -> str:
        return (
            f"<ImbricationState round {self._round} {self._phase} ply {self._ply} "
            f"to move {self.to_move}>"
        )

    # -- public facts (views, evaluators, boards) ------------------------------------------------
    @property
    def phase(self) -> str:
        """``opening``, ``place`` (action turn placement), ``act`` (tile revealed) or ``over``."""
        return self._phase

    @property
    def round(self) -> int:
        return self._round

    @property
    def opening_placements(self) -> int:
        """Opening placements made in this round (0–4)."""
        return self._openings

    @property
    def tiles_drawn(self) -> int:
        """Tiles revealed in this round, the pending one included (0–9)."""
        return self._drawn

    @property
    def placed(self) -> Cell | None:
        """The piece placed on this action turn while its action is pending."""
        return self._placed

    @property
    def current_tile(self) -> str | None:
        """The tile whose action is pending, if any."""
        return TILES[self._current_tile_index()] if self._placed is not None else None

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcome of every tile drawn in the game, in order (``pending`` last if any)."""
        return self._outcomes

    def pieces(self, player: Player) -> Mask:
        """The cells holding ``player``'s pieces, as a mask."""
        return self._pieces[player]

    def owner(self, cell: Cell) -> Player | None:
        """The player whose piece stands on ``cell``, or ``None``."""
        for player in (LIGHT, DARK):
            if self._pieces[player] & BIT[cell]:
                return player
        return None

    def placeable(self) -> Mask:
        """The cells where the player to move may place a piece: empty and not flanked on one
        line by two enemy pieces (§4.1)."""
        light, dark = self._pieces
        enemy = dark if self._mover == LIGHT else light
        return FULL & ~(light | dark) & ~banned(enemy)

    def territories(self, player: Player) -> list[Mask]:
        """``player``'s territories (rules §5), each a mask of cells."""
        return territories(self._pieces[player], self._pieces[1 - player])

    def tile_at(self, round_: int, turn: int) -> str:
        """The tile of ``turn`` (0-based) in ``round_``: server side only, it may be secret."""
        return TILES[line_tile(self._orders, round_, turn)]

    def revealed_in_round_one(self) -> int:
        """How many of round 1's tiles have been turned face up (the pending one included)."""
        return self._drawn if self._round == 1 else TURNS_PER_ROUND

    def is_round_four_order_known(self) -> bool:
        """The round-4 order is shown once round 3's ninth turn is over."""
        return self._round >= RESHUFFLE_ROUND

    def diagram(self) -> list[str]:
        """The board as 8 rows, rank 8 first: ``L`` seat 0, ``D`` seat 1, ``.`` empty."""
        light, dark = self._pieces
        rows = []
        for rank in range(SIZE - 1, -1, -1):
            row = ""
            for cell in range(rank * SIZE, rank * SIZE + SIZE):
                row += "L" if light >> cell & 1 else "D" if dark >> cell & 1 else "."
            rows.append(row)
        return rows

    # -- helpers ---------------------------------------------------------------------------------
    def _current_tile_index(self) -> int:
        return line_tile(self._orders, self._round, self._drawn - 1)

    def _actors(self) -> Mask:
        """The pieces that may perform the pending action."""
        if self._round >= ANY_PIECE_FROM_ROUND:
            return self._pieces[self._mover]
        assert self._placed is not None
        return BIT[self._placed]

    def _with_piece(self, cell: Cell) -> tuple[Mask, Mask]:
        light, dark = self._pieces
        return (light | BIT[cell], dark) if self._mover == LIGHT else (light, dark | BIT[cell])

    def _after_opening_placement(self, cell: Cell) -> ImbricationState:
        return ImbricationState(
            self._game, self._with_piece(cell), self._round, self._openings + 1, 0, None,
            self._orders, self._outcomes, self._ply + 1,
        )

    def _after_placement(self, cell: Cell) -> ImbricationState:
        """Place, reveal the next tile, then apply what needs no choice (§3.3)."""
        pieces = self._with_piece(cell)
        drawn = self._drawn + 1
        tile = line_tile(self._orders, self._round, self._drawn)
        if tile == BLANK:
            return self._end_turn(pieces, drawn, (*self._outcomes, "blank"))
        mover = self._mover
        actors = pieces[mover] if self._round >= ANY_PIECE_FROM_ROUND else BIT[cell]
        if not _can_act(pieces, mover, tile, actors):
            # The action is compulsory; when nothing can perform it the placed piece goes (§3.3).
            return self._end_turn(self._pieces, drawn, (*self._outcomes, "removed"))
        # The actions themselves are listed on demand: long capture chains from every piece
        # (rounds 4-5) run to thousands, and a search tries every placement before any action.
        return ImbricationState(
            self._game, pieces, self._round, OPENING_PLACEMENTS, drawn, cell, self._orders,
            (*self._outcomes, "pending"), self._ply + 1,
        )

    def _after_action(self, move: Move) -> ImbricationState:
        """Perform the tile's action; captured pieces leave the board."""
        own, enemy = self._pieces[self._mover], self._pieces[1 - self._mover]
        own = own & ~BIT[move.source] | BIT[move.target]
        if move.is_capture:
            for start, landing in zip(move.cells, move.cells[1:], strict=False):
                enemy &= ~BETWEEN[start][landing]  # captured pieces leave at once (§4.2.5)
        pieces = (own, enemy) if self._mover == LIGHT else (enemy, own)
        return self._end_turn(pieces, self._drawn, (*self._outcomes[:-1], "action"))

    def _end_turn(
        self, pieces: tuple[Mask, Mask], drawn: int, outcomes: tuple[str, ...]
    ) -> ImbricationState:
        """Close an action turn: on to the next turn, or the next round once 9 tiles are out."""
        round_, openings = self._round, OPENING_PLACEMENTS
        if drawn == TURNS_PER_ROUND and round_ < ROUNDS:
            round_, openings, drawn = round_ + 1, 0, 0
        return ImbricationState(
            self._game, pieces, round_, openings, drawn, None, self._orders, outcomes,
            self._ply + 1,
        )


class ImbricationGame(Game):
    """Imbrication, standard rules, for two players."""

    def __init__(self, variant: str = "standard", players: int = 2) -> None:
        super().__init__(variant, players)

    @property
    def has_chance(self) -> bool:
        return True

    @property
    def has_hidden_information(self) -> bool:
        return True

    def new_state(self, seed: int = 0) -> ImbricationState:
        """The empty board; both tile orders are drawn now, exactly as the rules file fixes."""
        rng = random.Random(seed)
        order1 = list(range(TILE_COUNT))
        rng.shuffle(order1)
        order4 = list(range(TILE_COUNT))
        rng.shuffle(order4)
        return ImbricationState(self, (0, 0), 1, 0, 0, None, (tuple(order1), tuple(order4)), (), 0)

    def parse_move(self, state: State, text: str) -> Move:
        if not isinstance(state, ImbricationState):
            raise TypeError(f"imbrication: not an Imbrication state: {state!r}")
        move = Move.from_text(text)
        if state.is_over:
            raise IllegalMoveError.game_over("imbrication", text)
        legal = state.legal_moves()
        for candidate in legal:
            if candidate == move:
                return candidate
        raise IllegalMoveError.here("imbrication", text, state.ply, _why(state, move))

    def state_from_json(self, data: Mapping[str, Any]) -> ImbricationState:
        """Rebuild a state from ``to_json()`` (or a hand-written dict of the same shape);
        raises ``ValueError`` on malformed or inconsistent data, a state of another game first."""
        self.check_json_header(data)
        return _state_from_data(self, data)

    def position(
        self,
        board: Sequence[str],
        *,
        round: int = 1,
        openings: int = OPENING_PLACEMENTS,
        drawn: int = 0,
        placed: str | None = None,
        tile: str | None = None,
    ) -> ImbricationState:
        """A position for tests and studies, from a diagram (8 rows, rank 8 first, ``L``/``D``/``.``).

        ``placed`` names the piece whose action is pending (then ``drawn`` counts that tile);
        ``tile`` is the tile pending (or, without ``placed``, the next one drawn): the tile
        orders are table order with that tile swapped into place. Earlier turns count as played.

        >>> import ludotheque
        >>> rows = ["........"] * 4 + ["...D....", "........", "...L....", "........"]
        >>> state = ludotheque.load("imbrication").position(rows, drawn=1, placed="d2", tile="ljump")
        >>> state.to_move, [str(m) for m in state.legal_moves()]
        (0, ['d2xd5', 'd2xd6', 'd2xd7', 'd2xd8'])
        """
        return _build_position(self, board, round_=round, openings=openings, drawn=drawn,
                               placed=placed, tile=tile)


# -- private helpers ------------------------------------------------------------------------------
def _score(pieces: tuple[Mask, Mask]) -> Result:
    """More territory wins; then more pieces on the board; then a draw (rules "End and scoring")."""
    light, dark = pieces
    scores = (
        sum(t.bit_count() for t in territories(light, dark)),
        sum(t.bit_count() for t in territories(dark, light)),
    )
    if scores[0] != scores[1]:
        return Result((0 if scores[0] > scores[1] else 1,), scores, "territory")
    counts = (light.bit_count(), dark.bit_count())
    if counts[0] != counts[1]:
        return Result((0 if counts[0] > counts[1] else 1,), scores, "pieces")
    return Result((), scores, "draw")


def _actions(pieces: tuple[Mask, Mask], mover: Player, tile: int, actors: Mask) -> list[Move]:
    """Every way for one of ``actors`` to perform ``tile``'s action, in canonical order: by
    start cell, then by landing cells one by one, a chain before its extensions."""
    own, enemy = pieces[mover], pieces[1 - mover]
    empty = FULL & ~(own | enemy)
    motion, directions = _TILE_MOTION[tile], _TILE_DIRECTIONS[tile]
    moves: list[Move] = []
    for start in bits(actors):
        if motion == "step":
            targets = [RAYS[start][d][0] for d in directions
                       if RAYS[start][d] and empty >> RAYS[start][d][0] & 1]
            moves.extend(SHIFTS[start, t] for t in sorted(targets))
        elif motion == "slide":
            targets = []
            for d in directions:
                for cell in RAYS[start][d]:
                    if not empty >> cell & 1:
                        break
                    targets.append(cell)
            moves.extend(SHIFTS[start, t] for t in sorted(targets))
        elif motion == "short_capture":
            chains: list[tuple[Cell, ...]] = []
            _short_hops(start, (start,), enemy, empty, _SHORT_HOPS[tile], chains)
            moves.extend(Move(chain, True) for chain in sorted(chains))
        elif motion == "long_capture":
            chains = []
            _long_hops(start, (start,), enemy, empty, _LONG_RAYS[tile], chains)
            moves.extend(Move(chain, True) for chain in sorted(chains))
    return moves


def _can_act(pieces: tuple[Mask, Mask], mover: Player, tile: int, actors: Mask) -> bool:
    """Whether one of ``actors`` can perform ``tile``'s action: a first step, slide cell or hop
    exists (the first move of every action that :func:`_actions` lists)."""
    own, enemy = pieces[mover], pieces[1 - mover]
    empty = FULL & ~(own | enemy)
    return any(_can_start(_TILE_MOTION[tile], tile, start, enemy, empty) for start in bits(actors))


def _can_start(motion: str, tile: int, start: Cell, enemy: Mask, empty: Mask) -> bool:
    if motion in ("step", "slide"):
        rays = RAYS[start]
        return any(rays[d] and empty >> rays[d][0] & 1 for d in _TILE_DIRECTIONS[tile])
    if motion == "short_capture":
        return any(enemy >> victim & 1 and empty >> landing & 1
                   for victim, landing in _SHORT_HOPS[tile][start])
    if motion == "long_capture":
        return any(_long_hop_exists(ray, enemy, empty) for ray in _LONG_RAYS[tile][start])
    return False


def _long_hop_exists(ray: tuple[Cell, ...], enemy: Mask, empty: Mask) -> bool:
    """Whether a long hop along ``ray`` exists: empty cells, one enemy piece, an empty cell."""
    for i, cell in enumerate(ray):
        if not empty >> cell & 1:
            return bool(enemy >> cell & 1) and i + 1 < len(ray) and bool(empty >> ray[i + 1] & 1)
    return False


def _short_hops(cell: Cell, path: tuple[Cell, ...], enemy: Mask, empty: Mask,
                hops: list[tuple[tuple[Cell, Cell], ...]], found: list[tuple[Cell, ...]]) -> None:
    """Add to ``found`` every short capture chain continuing ``path`` from ``cell``.

    The moving piece has left every cell it stood on, and captured pieces leave at once, so
    those cells count as empty for later hops (rules: "the cells a chain leaves behind").
    """
    empty |= BIT[cell]
    for victim, landing in hops[cell]:
        if enemy >> victim & 1 and empty >> landing & 1:
            chain = (*path, landing)
            found.append(chain)
            _short_hops(landing, chain, enemy & ~BIT[victim],
                        (empty | BIT[victim]) & ~BIT[landing], hops, found)


def _long_hops(cell: Cell, path: tuple[Cell, ...], enemy: Mask, empty: Mask,
               rays: list[tuple[tuple[Cell, ...], ...]], found: list[tuple[Cell, ...]]) -> None:
    """Add to ``found`` every long capture chain continuing ``path`` from ``cell``: along each
    ray, empty cells, exactly one enemy piece, then any empty cell before the next piece."""
    empty |= BIT[cell]
    for ray in rays[cell]:
        i = 0
        while empty >> ray[i] & 1:
            i += 1
            if i == len(ray):
                break
        else:
            victim = ray[i]
            if not enemy >> victim & 1:
                continue  # an own piece in the way
            after_enemy, after_empty = enemy & ~BIT[victim], empty | BIT[victim]
            for landing in ray[i + 1 :]:
                if not empty >> landing & 1:
                    break  # a second piece: two adjacent enemies, or an own piece
                chain = (*path, landing)
                found.append(chain)
                _long_hops(landing, chain, after_enemy, after_empty & ~BIT[landing], rays, found)


def _ply_of(round_: int, openings: int, outcomes: tuple[str, ...] | list[str]) -> int:
    """Moves played to reach a position: 4 placements a round, 1 or 2 moves a tile."""
    acted = outcomes.count("action")
    return OPENING_PLACEMENTS * (round_ - 1) + openings + len(outcomes) + acted


def _parse_board(rows: Any) -> tuple[Mask, Mask]:
    if (
        not isinstance(rows, list | tuple)
        or len(rows) != SIZE
        or not all(isinstance(r, str) and len(r) == SIZE and set(r) <= set("LD.") for r in rows)
    ):
        raise ValueError(f"imbrication: malformed board {rows!r}: 8 rows of 8 of 'L', 'D', '.'")
    light = dark = 0
    for row_index, row in enumerate(rows):
        rank = SIZE - 1 - row_index
        for file, symbol in enumerate(row):
            if symbol == "L":
                light |= BIT[rank * SIZE + file]
            elif symbol == "D":
                dark |= BIT[rank * SIZE + file]
    return light, dark


def _parse_order(names: Any) -> tuple[int, ...]:
    if not isinstance(names, list | tuple) or sorted(map(str, names)) != sorted(TILES):
        raise ValueError(f"imbrication: malformed tile order {names!r}: each of {TILES} once")
    return tuple(TILES.index(name) for name in names)


def _check_counter(value: Any, low: int, high: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"imbrication: malformed state: {what} {value!r} not in {low}..{high}")
    return value


def _state_from_data(
    game: ImbricationGame, data: Mapping[str, Any], *, is_result_checked: bool = True
) -> ImbricationState:
    """Validate ``data`` (the shape of ``to_json()``, its header already checked) and build the
    state it describes; the result, when checked, must be the one the position gives."""
    try:
        pieces = _parse_board(data["board"])
        round_ = _check_counter(data["round"], 1, ROUNDS, "round")
        openings = _check_counter(data["openings"], 0, OPENING_PLACEMENTS, "openings")
        drawn = _check_counter(data["drawn"], 0, TURNS_PER_ROUND, "drawn")
        placed_name = data["placed"]
        orders = (_parse_order(data["order1"]), _parse_order(data["order4"]))
        outcomes = tuple(data["outcomes"])
        ply, result = data["ply"], data["result"]
    except (KeyError, TypeError) as error:
        raise ValueError(f"imbrication: malformed state: {error!r}") from None
    placed = None if placed_name is None else INDEX.get(placed_name, -1)
    if placed == -1:
        raise ValueError(f"imbrication: malformed state: unknown cell {placed_name!r}")
    _check_history(round_, openings, drawn, placed, orders, outcomes)
    if ply != _ply_of(round_, openings, outcomes):
        raise ValueError(f"imbrication: ply {ply!r} does not match the turns played")
    state = ImbricationState(game, pieces, round_, openings, drawn, placed, orders, outcomes, ply)
    if placed is not None and (state.owner(placed) != state.to_move or not state.legal_moves()):
        raise ValueError("imbrication: the pending piece is not the mover's or cannot act")
    expected = state._result.to_json() if state._result else None
    if is_result_checked and result != expected:
        raise ValueError(f"imbrication: result {result!r} does not match the position")
    return state


def _check_history(
    round_: int, openings: int, drawn: int, placed: Cell | None,
    orders: tuple[tuple[int, ...], tuple[int, ...]], outcomes: tuple[str, ...],
) -> None:
    """The outcome of every tile drawn must fit the turn counters and the tiles themselves."""
    if openings < OPENING_PLACEMENTS and (drawn or placed is not None):
        raise ValueError("imbrication: malformed state: tiles drawn during the opening placements")
    if len(outcomes) != (round_ - 1) * TURNS_PER_ROUND + drawn:
        raise ValueError(f"imbrication: {len(outcomes)} outcomes for round {round_}, turn {drawn}")
    for index, outcome in enumerate(outcomes):
        is_last = index == len(outcomes) - 1
        tile = line_tile(orders, index // TURNS_PER_ROUND + 1, index % TURNS_PER_ROUND)
        if outcome not in OUTCOMES or (outcome == "pending") != (is_last and placed is not None):
            raise ValueError(f"imbrication: outcome {outcome!r} out of place at tile {index + 1}")
        if (outcome == "blank") != (tile == BLANK):
            raise ValueError(f"imbrication: outcome {outcome!r} does not fit tile {TILES[tile]!r}")
    if placed is not None and drawn == 0:
        raise ValueError("imbrication: a pending piece before any tile")


def _build_position(
    game: ImbricationGame, board: Sequence[str], *, round_: int, openings: int, drawn: int,
    placed: str | None, tile: str | None,
) -> ImbricationState:
    orders = [list(TILES), list(TILES)]
    if tile is not None:
        turn = drawn - 1 if placed is not None else drawn
        order = orders[0] if round_ <= 3 else orders[1]
        slot = TURNS_PER_ROUND - 1 - turn if round_ in (2, 5) else turn
        here = order.index(tile)
        order[here], order[slot] = order[slot], order[here]
    indexes = (tuple(TILES.index(t) for t in orders[0]), tuple(TILES.index(t) for t in orders[1]))
    outcomes = []
    for index in range((round_ - 1) * TURNS_PER_ROUND + drawn):
        drawn_tile = line_tile(indexes, index // TURNS_PER_ROUND + 1, index % TURNS_PER_ROUND)
        outcomes.append("blank" if drawn_tile == BLANK else "action")
    if placed is not None:
        outcomes[-1] = "pending"
    data = {
        "game": "imbrication", "variant": game.variant, "players": 2, "board": list(board),
        "round": round_, "openings": openings, "drawn": drawn, "placed": placed,
        "order1": orders[0], "order4": orders[1], "outcomes": outcomes,
        "ply": _ply_of(round_, openings, outcomes), "result": None,
    }
    return _state_from_data(game, data, is_result_checked=False)


# Why a move is not legal, in the words of each language (``Reason``: key, parameters, words).
_WHY = {
    "place_first": {
        "en": "place a piece first (a cell like 'd4')",
        "fr": "posez d'abord un pion (une case comme « d4 »)",
    },
    "not_empty": {"en": "{cell} is not empty", "fr": "{cell} n'est pas vide"},
    "between_enemies": {
        "en": "{cell} lies between two enemy pieces: no placement there (§4.1)",
        "fr": "{cell} est entre deux pions adverses : pas de pose là (§4.1)",
    },
    "tile_revealed": {
        "en": "the tile '{tile}' is revealed: move a piece (e.g. 'd4-d5' or 'd4xd6')",
        "fr": "la tuile « {tile_fr} » est retournée : déplacez un pion (par ex. « d4-d5 » ou « d4xd6 »)",
    },
    "not_yours": {"en": "no piece of yours on {cell}", "fr": "aucun de vos pions en {cell}"},
    "only_placed_piece": {
        "en": "in rounds 1-3 only the piece just placed on {cell} acts",
        "fr": "aux manches 1 à 3, seul le pion qui vient d'être posé en {cell} agit",
    },
    "tile_forbids": {
        "en": "the tile '{tile}' ({tile_en}) does not allow this",
        "fr": "la tuile « {tile_fr} » ne permet pas ce coup",
    },
}


def _why(state: ImbricationState, move: Move) -> Reason:
    """A short reason why ``move`` is not legal in ``state``, for people."""

    def said(key: str, **params: str) -> Reason:
        return Reason(key, params, _WHY[key])

    name = NAMES[move.source]
    if state.phase != "act":
        if not move.is_placement:
            return said("place_first")
        if state.owner(move.source) is not None:
            return said("not_empty", cell=name)
        return said("between_enemies", cell=name)
    tile = str(state.current_tile)
    facts = TILE_TABLE[tile]
    if move.is_placement:
        return said("tile_revealed", tile=tile, tile_fr=facts.fr)
    if state.owner(move.source) != state.to_move:
        return said("not_yours", cell=name)
    if state.round < ANY_PIECE_FROM_ROUND and move.source != state.placed:
        assert state.placed is not None
        return said("only_placed_piece", cell=NAMES[state.placed])
    return said("tile_forbids", tile=tile, tile_en=facts.en, tile_fr=facts.fr)
