"""A game session's state as immutable snapshots, and the pure operations that change it.

Every operation takes the current :class:`Snapshot` (read under the game's lock) and returns the
next one, or raises :class:`ApiError` and changes nothing; the hub stores the new snapshot in one
transaction, then installs and broadcasts it.

>>> import ludotheque
>>> game = ludotheque.load("pylos")
>>> snap = new_snapshot(game, 0, (Seat("human", "Ada", token_hash="a"), Seat("open", "")), None)
>>> snap.status
'waiting'
>>> snap = join(snap, 1, "Bob", "b", Instant(0.0, 0.0))
>>> snap.status, play(snap, 0, "1a1", None, Instant(1.0, 1.0)).moves
('playing', ('1a1',))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Literal

from ..core.contract import Game, Player, Result, State
from ..core.errors import IllegalMoveError, InvalidMoveError
from .clocks import Clock, ClockSpec, Instant
from .errors import ApiError

SeatKind = Literal["human", "open", "bot", "reserved"]
Status = Literal["waiting", "playing", "over"]


@dataclass(frozen=True)
class Seat:
    """Who holds a seat: a person (by token), an open place, a bot, or a rematch place kept for a
    person of the previous game. Only the hash of a token is kept."""

    kind: SeatKind
    name: str
    level: str | None = None
    token_hash: str | None = None
    bot_seed: int | None = None

    @property
    def is_filled(self) -> bool:
        return self.kind in ("human", "bot")


@dataclass(frozen=True)
class GameMeta:
    """What never changes about a game once created."""

    id: str
    game: Game
    seed: int
    created: str
    rematch_of: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """Everything about a game that changes: seats, positions, moves, status, clock, offers."""

    seats: tuple[Seat, ...]
    # Only the start, the current position and who made each move are kept: old positions
    # would hold their cached legal moves, many objects for the garbage collector to walk.
    start: State
    state: State
    moves: tuple[str, ...]
    movers: tuple[Player, ...]
    status: Status
    result: Result | None
    clock: Clock | None
    draw_offer: frozenset[Player] = frozenset()
    rematch: str | None = None
    started: str | None = None
    ended: str | None = None

    def states(self) -> list[State]:
        """Every position from the start to the current one (replayed)."""
        positions = [self.start]
        for text in self.moves:
            positions.append(positions[-1].play(text))
        return positions

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def has_bot(self) -> bool:
        return any(seat.kind == "bot" for seat in self.seats)

    def seat_to_move(self) -> Player | None:
        """The seat whose turn it is, ``None`` unless the game is being played."""
        return self.state.to_move if self.status == "playing" else None


def new_snapshot(game: Game, seed: int, seats: tuple[Seat, ...], clock: ClockSpec | None) -> Snapshot:
    """A game not started yet; it starts as soon as every seat is filled (see :func:`begin`)."""
    fresh = Clock.fresh(clock, game.players) if clock else None
    start = game.new_state(seed)
    return Snapshot(seats, start, start, (), (), "waiting", None, fresh)


def iso(now: Instant) -> str:
    return datetime.fromtimestamp(now.wall, UTC).replace(microsecond=0).isoformat()


def begin(snap: Snapshot, now: Instant) -> Snapshot:
    """Start the game (and the first mover's clock) once no seat is waiting for a person."""
    if snap.status != "waiting" or not all(seat.is_filled for seat in snap.seats):
        return snap
    clock = snap.clock.start(snap.state.to_move, now) if snap.clock else None
    return replace(snap, status="playing", clock=clock, started=iso(now))


def finish(snap: Snapshot, result: Result, now: Instant) -> Snapshot:
    clock = snap.clock.stopped(now) if snap.clock else None
    return replace(snap, status="over", result=result, clock=clock, draw_offer=frozenset(), ended=iso(now))


def forfeit(game: Game, loser: Player, reason: str) -> Result:
    """The result when ``loser`` resigns or runs out of time: every side but theirs wins
    (``Game.resignation``: team-mates lose together), with ``reason`` as the server names it."""
    return replace(game.resignation(loser), reason=reason)


def _require_playing(snap: Snapshot) -> None:
    if snap.status == "waiting":
        raise ApiError(409, "the game has not started: a seat is still open")
    if snap.status == "over":
        raise ApiError(409, "the game is over")


def play(snap: Snapshot, seat: Player, text: str, ply: int | None, now: Instant) -> Snapshot:
    """``seat`` plays ``text``; ``ply`` (when given) must be the number of moves played."""
    _require_playing(snap)
    if ply is not None and ply != snap.ply:
        raise ApiError(409, f"stale ply {ply}: {snap.ply} moves have been played; read the game again")
    mover = snap.state.to_move
    if mover != seat:
        raise ApiError(409, f"not your turn: seat {mover} is to move, not seat {seat}")
    if snap.clock and snap.clock.has_flag_fallen(now):
        raise ApiError(409, f"seat {seat} has no time left")
    try:
        move = snap.state.game.parse_move(snap.state, text)
        after = snap.state.play(move)
    except InvalidMoveError as error:
        raise ApiError(400, str(error)) from None
    except IllegalMoveError as error:
        raise ApiError(409, str(error)) from None
    clock = snap.clock.after_move(seat, after.to_move, now) if snap.clock else None
    moved = replace(
        snap,
        state=after,
        moves=(*snap.moves, str(move)),
        movers=(*snap.movers, seat),
        clock=clock,
        draw_offer=frozenset(),  # a move declines any pending draw offer
    )
    return finish(moved, after.result(), now) if after.is_over else moved


def resign(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    _require_playing(snap)
    return finish(snap, forfeit(snap.state.game, seat, "resignation"), now)


def time_out(snap: Snapshot, now: Instant) -> Snapshot:
    """End the game when the running seat's time is up; raises ``ApiError`` otherwise."""
    if snap.status != "playing" or snap.clock is None or not snap.clock.has_flag_fallen(now):
        raise ApiError(409, "no clock has run out")
    loser = snap.clock.running
    assert loser is not None
    return finish(snap, forfeit(snap.state.game, loser, "time"), now)


def offer_draw(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    """Offer a draw, or accept the pending offer: drawn once every seat agrees."""
    _require_playing(snap)
    if snap.has_bot:
        raise ApiError(409, "bots do not accept draws")
    if seat in snap.draw_offer:
        raise ApiError(409, f"seat {seat} has already offered a draw")
    agreed = snap.draw_offer | {seat}
    if len(agreed) == len(snap.seats):
        players = len(snap.seats)
        return finish(snap, Result((), (0,) * players, "agreement"), now)
    return replace(snap, draw_offer=agreed)


def take_back(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    """Undo ``seat``'s last move and every bot reply after it (games against bots only)."""
    _require_playing(snap)
    others = [s for n, s in enumerate(snap.seats) if n != seat]
    if not others or any(s.kind != "bot" for s in others):
        raise ApiError(409, "takebacks are only for games against bots")
    own_plies = [ply for ply, mover in enumerate(snap.movers) if mover == seat]
    if not own_plies:
        raise ApiError(409, f"seat {seat} has no move to take back")
    keep = own_plies[-1]
    state = snap.states()[keep]
    clock = snap.clock.start(state.to_move, now) if snap.clock else None
    return replace(
        snap,
        state=state,
        moves=snap.moves[:keep],
        movers=snap.movers[:keep],
        clock=clock,
        draw_offer=frozenset(),
    )


def join(snap: Snapshot, seat: Player, name: str, token_hash: str, now: Instant) -> Snapshot:
    """A guest takes the open ``seat``; the game starts once every seat is filled."""
    if snap.seats[seat].kind != "open":
        raise ApiError(409, f"seat {seat} is not open")
    return begin(_with_seat(snap, seat, Seat("human", name, token_hash=token_hash)), now)


def claim(snap: Snapshot, seat: Player, token_hash: str, now: Instant) -> Snapshot:
    """A player of the previous game takes the rematch seat kept for them."""
    kept = snap.seats[seat]
    if kept.kind != "reserved":
        raise ApiError(409, f"the rematch seat {seat} has already been taken")
    return begin(_with_seat(snap, seat, replace(kept, kind="human", token_hash=token_hash)), now)


def _with_seat(snap: Snapshot, number: Player, seat: Seat) -> Snapshot:
    seats = list(snap.seats)
    seats[number] = seat
    return replace(snap, seats=tuple(seats))
