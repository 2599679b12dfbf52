"""A game's state as immutable snapshots, and the pure operations that change it.

Every operation takes the current :class:`Snapshot` (read under the game's lock, see
``sessions.GameSession``) and returns the next one, or raises :class:`ApiError` and changes nothing;
the hub stores the new snapshot in one transaction, then installs and broadcasts it.

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

import hmac
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Literal

from ..core.contract import Game, Player, Result, State
from ..core.errors import IllegalMoveError, InvalidMoveError
from .clocks import Clock, ClockSpec, Instant
from .errors import ApiError

SeatKind = Literal["human", "open", "invite", "bot", "reserved"]
Status = Literal["waiting", "playing", "over"]


@dataclass(frozen=True)
class Seat:
    """Who holds a seat: a person (by token), an open place, a place kept for the person who
    brings the invite code, a bot, or a rematch place kept for a person of the previous game.
    Only hashes of tokens and invite codes are kept; an invite seat keeps its code's hash once
    claimed, so that a second claim is told the invite was used."""

    kind: SeatKind
    name: str
    level: str | None = None
    token_hash: str | None = None
    bot_seed: int | None = None
    invite_hash: str | None = None
    # The account (player or guest) whose seat it is, from any browser it signs in on.
    account: str | None = None

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
    # Whose game it is for the bots' fair queue: a digest of the creator's address.
    owner: str = ""
    # Rated games change their players' ratings once over (chosen at creation).
    rated: bool = False
    # The account that created the game, if any.
    creator: str | None = None


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
    # How many facts each seat does not know, at the start and after each move
    # (``State.hidden_facts``): a drop is a reveal, which a takeback may not undo.
    hidden: tuple[tuple[int, ...], ...]
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
    return Snapshot(seats, start, start, (), (), "waiting", None, fresh, (hidden_facts(start),))


def hidden_facts(state: State) -> tuple[int, ...]:
    """How many facts each seat of ``state``'s game does not know there."""
    return tuple(state.hidden_facts(seat) for seat in range(state.game.players))


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
        raise ApiError(409, "the game has not started: a seat is still open", "not_started")
    if snap.status == "over":
        raise ApiError(409, "the game is over", "game_over")


def play(snap: Snapshot, seat: Player, text: str, ply: int | None, now: Instant) -> Snapshot:
    """``seat`` plays ``text``; ``ply`` (when given) must be the number of moves played."""
    _require_playing(snap)
    if ply is not None and ply != snap.ply:
        raise ApiError(409, f"stale ply {ply}: {snap.ply} moves have been played; read the game again",
                       "stale_ply")
    mover = snap.state.to_move
    if mover != seat:
        raise ApiError(409, f"not your turn: seat {mover} is to move, not seat {seat}", "not_your_turn")
    if snap.clock and snap.clock.has_flag_fallen(now):
        raise ApiError(409, f"seat {seat} has no time left", "game_over")
    try:
        move = snap.state.game.parse_move(snap.state, text)
        after = snap.state.play(move)
    except InvalidMoveError as error:
        raise ApiError(400, str(error), "not_notation") from None
    except IllegalMoveError as error:
        raise ApiError(409, str(error), "illegal_move") from None
    clock = snap.clock.after_move(seat, after.to_move, now) if snap.clock else None
    moved = replace(
        snap,
        state=after,
        moves=(*snap.moves, str(move)),
        movers=(*snap.movers, seat),
        clock=clock,
        hidden=(*snap.hidden, hidden_facts(after)),
        draw_offer=frozenset(),  # a move declines any pending draw offer
    )
    return finish(moved, after.result(), now) if after.is_over else moved


def resign(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    _require_playing(snap)
    return finish(snap, forfeit(snap.state.game, seat, "resignation"), now)


def time_out(snap: Snapshot, now: Instant) -> Snapshot:
    """End the game when the running seat's time is up; raises ``ApiError`` otherwise."""
    if snap.status != "playing" or snap.clock is None or not snap.clock.has_flag_fallen(now):
        raise ApiError(409, "no clock has run out", "game_over")
    loser = snap.clock.running
    assert loser is not None
    return finish(snap, forfeit(snap.state.game, loser, "time"), now)


def abandon(snap: Snapshot, now: Instant) -> Snapshot:
    """End a game nobody has moved in for too long: the seat to move loses, as if its time had run
    out (games with a clock end that way by themselves)."""
    loser = snap.seat_to_move()
    if loser is None:
        raise ApiError(409, "the game is not being played", "game_over")
    return finish(snap, forfeit(snap.state.game, loser, "abandoned"), now)


def offer_draw(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    """Offer a draw, or accept the pending offer: drawn once every seat agrees."""
    _require_playing(snap)
    if snap.has_bot:
        raise ApiError(409, "bots do not accept draws", "draw_refused")
    if seat in snap.draw_offer:
        raise ApiError(409, f"seat {seat} has already offered a draw", "draw_refused")
    agreed = snap.draw_offer | {seat}
    if len(agreed) == len(snap.seats):
        players = len(snap.seats)
        return finish(snap, Result((), (0,) * players, "agreement"), now)
    return replace(snap, draw_offer=agreed)


def decline_draw(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    """Decline the pending draw offer of the other seats: it is withdrawn for everyone."""
    _require_playing(snap)
    if not snap.draw_offer - {seat}:
        raise ApiError(409, "no draw offer to decline", "draw_refused")
    return replace(snap, draw_offer=frozenset())


def takeback_point(snap: Snapshot, seat: Player) -> int:
    """How many moves remain after ``seat``'s takeback: its last move and every bot reply after
    it go. Raises ``ApiError`` (409 ``takeback_refused``) when there is none to take.

    A takeback never goes back past a move that showed ``seat`` something it did not know (a
    tile turned, a stem uncovered): playing on from before it would use what a fresh game would
    not have shown. Such a takeback is refused rather than shortened, so that it always undoes
    exactly the seat's own last move or nothing.
    """
    _require_playing(snap)
    if not _against_bots_only(snap, seat):
        raise ApiError(409, "takebacks are only for games against bots", "takeback_refused")
    own_plies = [ply for ply, mover in enumerate(snap.movers) if mover == seat]
    if not own_plies:
        raise ApiError(409, f"seat {seat} has no move to take back", "takeback_refused")
    keep = own_plies[-1]
    reveal = last_reveal(snap, seat)
    if reveal is not None and reveal >= keep:
        raise ApiError(
            409,
            f"move {reveal + 1} showed seat {seat} hidden information: a takeback cannot go back before it",
            "takeback_refused",
        )
    return keep


def last_reveal(snap: Snapshot, seat: Player) -> int | None:
    """The index of the last move after which ``seat`` knew more than before, ``None`` if none."""
    for ply in range(len(snap.hidden) - 1, 0, -1):
        if snap.hidden[ply][seat] < snap.hidden[ply - 1][seat]:
            return ply - 1
    return None


def _against_bots_only(snap: Snapshot, seat: Player) -> bool:
    others = [s for n, s in enumerate(snap.seats) if n != seat]
    return bool(others) and all(s.kind == "bot" for s in others)


def can_take_back(snap: Snapshot, seat: Player) -> bool:
    """Whether :func:`takeback_point` would let ``seat`` take back now (asked for every document:
    a game between people is answered without building the refusal)."""
    if not _against_bots_only(snap, seat):
        return False
    try:
        takeback_point(snap, seat)
    except ApiError:
        return False
    return True


def take_back(snap: Snapshot, seat: Player, now: Instant) -> Snapshot:
    """Undo ``seat``'s last move and every bot reply after it (games against bots only).

    The clocks keep the time already used: the seat to move resumes with what it has now, less
    the increments of the moves taken back (see :meth:`Clock.after_takeback`).
    """
    keep = takeback_point(snap, seat)
    state = snap.states()[keep]
    clock = snap.clock.after_takeback(snap.movers[keep:], state.to_move, now) if snap.clock else None
    return replace(
        snap,
        state=state,
        moves=snap.moves[:keep],
        movers=snap.movers[:keep],
        clock=clock,
        hidden=snap.hidden[: keep + 1],
        draw_offer=frozenset(),
    )


def join(snap: Snapshot, seat: Player, name: str, token_hash: str, now: Instant,
         account: str | None = None) -> Snapshot:
    """A person (of ``account``, if any) takes the open ``seat``; the game starts once every seat
    is filled."""
    if snap.seats[seat].kind != "open":
        raise ApiError(409, f"seat {seat} is not open", "seat_taken")
    return begin(_with_seat(snap, seat, Seat("human", name, token_hash=token_hash, account=account)), now)


def claim_invite(snap: Snapshot, seat: Player, invite_hash: str, name: str, token_hash: str,
                 now: Instant, account: str | None = None) -> Snapshot:
    """The person with the invite code takes the invite ``seat`` (once); the game starts once
    every seat is filled. 403 ``invite_invalid`` for a wrong code, 409 ``invite_claimed`` after."""
    kept = snap.seats[seat]
    if kept.invite_hash is None or not hmac.compare_digest(kept.invite_hash, invite_hash):
        raise ApiError(403, f"this is not the invite code of seat {seat}", "invite_invalid")
    if kept.kind != "invite":
        raise ApiError(409, f"the invite of seat {seat} has already been claimed", "invite_claimed")
    taken = replace(kept, kind="human", name=name, token_hash=token_hash, account=account)
    return begin(_with_seat(snap, seat, taken), now)


def claim(snap: Snapshot, seat: Player, token_hash: str, now: Instant) -> Snapshot:
    """A player of the previous game takes the rematch seat kept for them."""
    kept = snap.seats[seat]
    if kept.kind != "reserved":
        raise ApiError(409, f"the rematch seat {seat} has already been taken", "seat_taken")
    return begin(_with_seat(snap, seat, replace(kept, kind="human", token_hash=token_hash)), now)


def _with_seat(snap: Snapshot, number: Player, seat: Seat) -> Snapshot:
    seats = list(snap.seats)
    seats[number] = seat
    return replace(snap, seats=tuple(seats))
