"""Swiss tournaments: created by a signed-in player, joined (people, and bots in practice
tournaments) until they start, then played round by round: each round is paired
(``pairing.pair_round``), its games are created through the hub with the tournament's clock and
rated-ness, and once every game of the round is over the next round is paired; after the last
one the standings are final. docs/tournaments.md has the rules; docs/API.md the endpoints.

How a finished game reaches its tournament: :meth:`Tournaments.game_over` (the hub calls it
when a game ends, through ``Hub.game_over_handlers`` where the hub has them), and
:meth:`Tournaments.sweep` every ``SWEEP_EVERY_S`` as a safety net (another worker's game, a
restart, a missed call); both are idempotent. The sweep also starts the tournaments whose
``starts_at`` came.

Ex*Pion at 3 or 4 players: each entrant holds every seat of one team ("individuals seated as
teams"), so every game is one entrant against another, as at 2 players; such games cannot be
rated (one person on two seats), so those tournaments are practice ones.

>>> side_points((1,), ((0,), (1,)))
(0.0, 1.0)
>>> side_points((), ((0, 2), (1, 3)))
(0.5, 0.5)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, delete, func, insert, select, update

from ..core.contract import Game
from . import tables
from . import tournament_tables as t
from .botratings import bot_rating
from .clocks import ClockSpec, Instant
from .errors import ApiError, quoted
from .hub import Hub, SeatRequest, game_of
from .pairing import Outcome, Pairing, Standing, max_rounds, pair_round, schedule_possible, standings
from .ratings import NEW_RATING, category_of
from .snapshots import iso

log = logging.getLogger("ludotheque.server")

STATUSES = ("upcoming", "running", "finished", "cancelled")
SWEEP_EVERY_S = 5.0
# A round's board still without its game this long after the pairing gets it from a sweep
# (its worker died between the two steps).
MISSING_GAME_S = 30.0
MAX_ROUNDS = 20
MAX_ENTRIES = 128
DEFAULT_ENTRIES = 64
T, E, P = t.tournaments.c, t.entries.c, t.pairings.c


def side_points(winners: Sequence[int], teams: Sequence[Sequence[int]]) -> tuple[float, float]:
    """The points of the first side (the team of seat 0) and of the second: 1, ½ or 0."""
    first = any(seat in teams[0] for seat in winners)
    second = any(seat not in teams[0] for seat in winners)
    if first == second:
        return 0.5, 0.5
    return (1.0, 0.0) if first else (0.0, 1.0)


def two_sides(game: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides of a tournament game: the team of seat 0, and every other seat."""
    first = next(team for team in game.teams if 0 in team)
    return tuple(first), tuple(seat for seat in range(game.players) if seat not in first)


def check_tournament_game(game: Game, rated: bool) -> None:
    """Tournaments are between two sides: 400 for a game of more sides than two teams, or a rated
    tournament whose entrants would hold several seats (Ex*Pion at 3 or 4 players)."""
    if len(game.teams) != 2:
        raise ApiError(400, f"{game.id} at {game.players} players is not a game of two sides", "bad_request")
    if rated and game.players != 2:
        raise ApiError(400, f"a rated {game.id} tournament is played at 2 players (at {game.players}, each "
                       "entrant holds a whole team: practice only)", "bad_request")


@dataclass(frozen=True)
class NewTournament:
    name: str
    game: Game
    rounds: int
    clock: ClockSpec | None
    rated: bool
    creator: str
    starts_at: float | None
    max_entries: int


def _iso_at(epoch: float | None) -> str | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC).replace(microsecond=0).isoformat()


class TournamentStore:
    """Tournaments in the database of ``engine`` (every method runs on the database threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, new: NewTournament) -> str:
        tournament_id = secrets.token_urlsafe(9)
        with self.engine.begin() as connection:
            connection.execute(insert(t.tournaments).values(
                id=tournament_id, name=new.name, system="swiss", game=new.game.id, variant=new.game.variant,
                players=new.game.players, rounds=new.rounds,
                clock=json.dumps(new.clock.to_json()) if new.clock else None, rated=new.rated,
                creator=new.creator, status="upcoming", round=0, starts_at=new.starts_at,
                max_entries=new.max_entries, created=iso(Instant.now())))
        return tournament_id

    def row(self, tournament_id: str) -> Any:
        """The tournament's row; 404 when unknown."""
        with self.engine.connect() as connection:
            found = connection.execute(select(t.tournaments).where(T.id == tournament_id)).first()
        if found is None:
            raise ApiError(404, f"no tournament {quoted(tournament_id)}", "not_found")
        return found

    def entries(self, tournament_id: str) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(select(t.entries).where(E.tournament_id == tournament_id)
                                           .order_by(E.entry)).all())

    def pairings(self, tournament_id: str) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(select(t.pairings).where(P.tournament_id == tournament_id)
                                           .order_by(P.round, P.board)).all())

    def whole(self, tournament_id: str) -> tuple[Any, list[Any], list[Any]]:
        """The tournament's row, entrants and boards as of one moment: read again if a round was
        paired (or the tournament ended) while they were read (rounds only grow)."""
        with self.engine.connect() as connection:
            while True:
                before = connection.execute(select(t.tournaments).where(T.id == tournament_id)).first()
                if before is None:
                    raise ApiError(404, f"no tournament {quoted(tournament_id)}", "not_found")
                entries = list(connection.execute(select(t.entries).where(E.tournament_id == tournament_id)
                                                  .order_by(E.entry)).all())
                boards = list(connection.execute(select(t.pairings).where(P.tournament_id == tournament_id)
                                                 .order_by(P.round, P.board)).all())
                after = connection.execute(select(T.round, T.status).where(T.id == tournament_id)).one()
                if (after.round, after.status) == (before.round, before.status):
                    return before, entries, boards
                connection.rollback()  # a new snapshot of the database for the next reading

    def add_entry(self, tournament_id: str, account: str | None, level: str | None, name: str) -> int:
        """Enter a person (``account``) or a bot (``level``) in an upcoming tournament."""
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            if row.status != "upcoming":
                raise ApiError(409, "the tournament has started: no more entrants", "tournament_started")
            if account is not None and connection.execute(select(E.entry).where(
                    E.tournament_id == tournament_id, E.account_id == account)).first() is not None:
                raise ApiError(409, "you are entered in this tournament already", "already_joined")
            count, last = connection.execute(select(func.count(), func.max(E.entry)).where(
                E.tournament_id == tournament_id)).one()
            if count >= row.max_entries:
                raise ApiError(409, f"the tournament takes {row.max_entries} entrants", "tournament_full")
            number = (last or 0) + 1
            connection.execute(insert(t.entries).values(
                tournament_id=tournament_id, entry=number, account_id=account, level=level, name=name,
                joined=time.time()))
        return number

    def remove_entry(self, tournament_id: str, *, account: str | None = None, entry: int | None = None
                     ) -> None:
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            if row.status != "upcoming":
                raise ApiError(409, "the tournament has started: entrants stay", "tournament_started")
            which = E.account_id == account if entry is None else E.entry == entry
            done = connection.execute(delete(t.entries).where(E.tournament_id == tournament_id, which))
            if not done.rowcount:
                raise ApiError(404, "no such entrant in this tournament", "not_found")

    def begin(self, tournament_id: str, ratings: dict[int, float]) -> bool:
        """Mark an upcoming tournament running, its entrants' ratings fixed; whether this call did."""
        with self.engine.begin() as connection:
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.status == "upcoming").values(
                status="running", started=iso(Instant.now())))
            if not done.rowcount:
                return False
            for entry, rating in ratings.items():
                connection.execute(update(t.entries).where(
                    E.tournament_id == tournament_id, E.entry == entry).values(rating=rating))
        return True

    def cancel(self, tournament_id: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(update(t.tournaments).where(T.id == tournament_id, T.status == "upcoming")
                               .values(status="cancelled", ended=iso(Instant.now())))

    def add_round(self, tournament_id: str, number: int, boards: Sequence[Pairing]) -> bool:
        """Store round ``number``'s boards (byes scored at once) if the tournament is still at the
        round before; whether this call did."""
        with self.engine.begin() as connection:
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.status == "running", T.round == number - 1).values(
                round=number, paired_at=time.time()))
            if not done.rowcount:
                return False
            for board, pairing in enumerate(boards, start=1):
                bye = pairing.second is None
                connection.execute(insert(t.pairings).values(
                    tournament_id=tournament_id, round=number, board=board, first=pairing.first,
                    second=pairing.second, first_points=1.0 if bye else None))
        return True

    def set_game(self, tournament_id: str, number: int, board: int, game_id: str) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(update(t.pairings).where(
                P.tournament_id == tournament_id, P.round == number, P.board == board, P.game_id.is_(None))
                .values(game_id=game_id))
        return bool(done.rowcount)

    def board_of_game(self, game_id: str) -> Any:
        with self.engine.connect() as connection:
            return connection.execute(select(t.pairings).where(P.game_id == game_id)).first()

    def record(self, game_id: str, first_points: float, second_points: float) -> str | None:
        """Score the board of ``game_id`` once; the tournament's id when this call did."""
        with self.engine.begin() as connection:
            board = connection.execute(select(t.pairings).where(P.game_id == game_id)).first()
            if board is None:
                return None
            done = connection.execute(update(t.pairings).where(
                P.tournament_id == board.tournament_id, P.round == board.round, P.board == board.board,
                P.first_points.is_(None)).values(first_points=first_points, second_points=second_points))
        return board.tournament_id if done.rowcount else None

    def finish(self, tournament_id: str, rounds: int) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.status == "running", T.round == rounds).values(
                status="finished", ended=iso(Instant.now())))
        return bool(done.rowcount)

    def listing(self, status: str | None) -> list[dict[str, Any]]:
        query = select(t.tournaments, func.count(E.entry).label("entrants")).select_from(
            t.tournaments.outerjoin(t.entries, E.tournament_id == T.id)).group_by(T.id)
        if status is not None:
            query = query.where(T.status == status)
        query = query.order_by(T.created.desc(), T.id)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
            creators = _names(connection, {row.creator for row in rows if row.creator})
        return [{**summary(row, creators.get(row.creator)), "entrants": row.entrants} for row in rows]

    def due(self, now: float) -> list[str]:
        """Upcoming tournaments whose start time came."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(T.id).where(
                T.status == "upcoming", T.starts_at.is_not(None), T.starts_at <= now)).scalars())

    def unsettled(self) -> list[str]:
        """Games over whose board is not scored yet, in running tournaments."""
        g = tables.games.c
        with self.engine.connect() as connection:
            return list(connection.execute(select(P.game_id).select_from(
                t.pairings.join(t.tournaments, T.id == P.tournament_id).join(tables.games, g.id == P.game_id))
                .where(T.status == "running", P.first_points.is_(None), g.status == "over")).scalars())

    def running_ids(self) -> list[str]:
        """The tournaments being played."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(T.id).where(T.status == "running")).scalars())

    def waiting_for_games(self, before: float) -> list[str]:
        """Running tournaments with a board of the current round still without its game."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(T.id).distinct().select_from(
                t.pairings.join(t.tournaments, and_(T.id == P.tournament_id, T.round == P.round)))
                .where(T.status == "running", P.game_id.is_(None), P.second.is_not(None),
                       T.paired_at < before)).scalars())

    def names(self, accounts: set[str]) -> dict[str, tuple[str, bool]]:
        with self.engine.connect() as connection:
            a = tables.accounts.c
            rows = connection.execute(select(a.id, a.name, a.is_guest).where(a.id.in_(accounts))).all()
        return {row.id: (row.name, bool(row.is_guest)) for row in rows}


def _locked(connection: Any, tournament_id: str) -> Any:
    """The tournament's row, locked until the transaction ends; 404 when unknown."""
    row = connection.execute(select(t.tournaments).where(T.id == tournament_id).with_for_update()).first()
    if row is None:
        raise ApiError(404, f"no tournament {quoted(tournament_id)}", "not_found")
    return row


def _names(connection: Any, accounts: set[str]) -> dict[str, str]:
    if not accounts:
        return {}
    a = tables.accounts.c
    return {row.id: row.name for row in connection.execute(select(a.id, a.name).where(a.id.in_(accounts)))}


def summary(row: Any, creator: str | None) -> dict[str, Any]:
    """What lists show of a tournament."""
    return {"id": row.id, "name": row.name, "system": row.system, "game": row.game, "variant": row.variant,
            "players": row.players, "rounds": row.rounds, "round": row.round,
            "clock": json.loads(row.clock) if row.clock else None, "rated": bool(row.rated),
            "status": row.status, "creator": creator, "starts_at": _iso_at(row.starts_at),
            "max_entries": row.max_entries, "created": row.created, "started": row.started,
            "ended": row.ended}


def outcomes(boards: Sequence[Any]) -> list[Outcome]:
    """The scored boards as the pairing module reads them."""
    return [Outcome(b.first, b.second, b.first_points, b.second_points or 0.0)
            for b in boards if b.first_points is not None]


def field_standings(entries: Sequence[Any], boards: Sequence[Any]) -> list[Standing]:
    """Each entrant before the next round: score, rating, opponents, seats, bye."""
    score = {e.entry: 0.0 for e in entries}
    met: dict[int, set[int]] = {e.entry: set() for e in entries}
    seats: dict[int, list[int]] = {e.entry: [] for e in entries}
    byes = set()
    for outcome in outcomes(boards):
        score[outcome.first] += outcome.first_points
        if outcome.second is None:
            byes.add(outcome.first)
            continue
        score[outcome.second] += outcome.second_points
        met[outcome.first].add(outcome.second)
        met[outcome.second].add(outcome.first)
        seats[outcome.first].append(0)
        seats[outcome.second].append(1)
    return [Standing(e.entry, score[e.entry], e.rating if e.rating is not None else NEW_RATING,
                     frozenset(met[e.entry]), tuple(seats[e.entry]), e.entry in byes) for e in entries]


def points_text(points: float | None) -> str | None:
    return None if points is None else {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, str(points))


class Tournaments:
    """The tournaments of one server, run through its hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = TournamentStore(hub.storage.engine)
        self._locks: dict[str, asyncio.Lock] = {}

    async def _run(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        return await self.hub.storage.run(function, *args, **kwargs)

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- before the start ------------------------------------------------------------------------
    async def create(self, new: NewTournament) -> str:
        check_tournament_game(new.game, new.rated)
        result: str = await self._run(self.store.create, new)
        return result

    async def join(self, tournament_id: str, account: str, name: str) -> int:
        result: int = await self._run(self.store.add_entry, tournament_id, account, None, name)
        return result

    async def add_bot(self, tournament_id: str, level: str) -> int:
        result: int = await self._run(self.store.add_entry, tournament_id, None, level, f"bot:{level}")
        return result

    async def leave(self, tournament_id: str, *, account: str | None = None, entry: int | None = None
                    ) -> None:
        await self._run(self.store.remove_entry, tournament_id, account=account, entry=entry)

    async def start(self, tournament_id: str) -> None:
        """Start an upcoming tournament and pair its first round; 409 when too few entered."""
        async with self._lock(tournament_id):
            row = await self._run(self.store.row, tournament_id)
            if row.status != "upcoming":
                raise ApiError(409, "the tournament has started already", "tournament_started")
            entries = await self._run(self.store.entries, tournament_id)
            if not await asyncio.to_thread(schedule_possible, len(entries), row.rounds):
                least = next(n for n in range(2, MAX_ENTRIES + 2) if max_rounds(n) >= row.rounds)
                message = (f"{len(entries)} entrants cannot play {row.rounds} rounds without a rematch: "
                           f"at least {least} are needed")
                raise ApiError(409, message, "too_few_players")
            game = game_of(row.game, row.variant, row.players)
            ratings = await self._run(self._ratings, game, entries)
            if await self._run(self.store.begin, tournament_id, ratings):
                await self._advance(tournament_id)

    def _ratings(self, game: Game, entries: Sequence[Any]) -> dict[int, float]:
        category = category_of(game.id, game.players, against_bots=False)
        people = self.hub.ratings.current([e.account_id for e in entries if e.account_id], category)
        ratings = {}
        for e in entries:
            if e.level is not None:
                level = bot_rating(game.id, game.players, e.level)
                ratings[e.entry] = float(level) if level is not None else NEW_RATING
            else:
                known = people.get(e.account_id)
                ratings[e.entry] = known.rating if known is not None else NEW_RATING
        return ratings

    # -- rounds ------------------------------------------------------------------------------------
    async def game_over(self, game_id: str) -> None:
        """A game ended: score its board (once) and, when its round is complete, pair the next
        one or finish. THE FUNCTION THE HUB'S HOOK CALLS (``Hub.game_over_handlers``). Once it
        returns, the tournament is up to date with that game, whoever scored it first."""
        board = await self._run(self.store.board_of_game, game_id)
        if board is None:
            return  # not a tournament's game
        await self._score(game_id)
        async with self._lock(board.tournament_id):
            await self._advance(board.tournament_id)

    async def _score(self, game_id: str) -> str | None:
        """Score the board of ``game_id`` if the game is over (once); its tournament's id when
        this call did."""
        board = await self._run(self.store.board_of_game, game_id)
        if board is None or board.first_points is not None:
            return None
        session = await self.hub.get(game_id)
        snap = session.snapshot
        if snap.status != "over" or snap.result is None:
            return None
        first, second = side_points(snap.result.winners, two_sides(session.meta.game))
        tournament_id: str | None = await self._run(self.store.record, game_id, first, second)
        return tournament_id

    async def _advance(self, tournament_id: str) -> None:
        """Pair the next round when the current one is complete (or finish); the caller holds the
        tournament's lock."""
        while True:
            row = await self._run(self.store.row, tournament_id)
            if row.status != "running":
                return
            boards = await self._run(self.store.pairings, tournament_id)
            current = [b for b in boards if b.round == row.round]
            if any(b.first_points is None for b in current):
                return
            if row.round >= row.rounds:
                await self._run(self.store.finish, tournament_id, row.rounds)
                return
            entries = await self._run(self.store.entries, tournament_id)
            field = field_standings(entries, boards)
            paired = await asyncio.to_thread(pair_round, field, row.rounds - row.round)
            if not await self._run(self.store.add_round, tournament_id, row.round + 1, paired):
                return  # another worker paired it
            await self._create_games(tournament_id)  # then the loop: a round of byes only is over

    async def _create_games(self, tournament_id: str) -> None:
        """Create the games of the current round's boards that have none yet."""
        row = await self._run(self.store.row, tournament_id)
        game = game_of(row.game, row.variant, row.players)
        clock = ClockSpec.from_json(json.loads(row.clock)) if row.clock else None
        entries = {e.entry: e for e in await self._run(self.store.entries, tournament_id)}
        first_side, second_side = two_sides(game)
        boards = await self._run(self.store.pairings, tournament_id)
        for board in boards:
            if board.round != row.round or board.second is None or board.game_id is not None:
                continue
            holder = {seat: entries[board.first] for seat in first_side}
            holder.update({seat: entries[board.second] for seat in second_side})
            requests = [_seat_request(holder[seat]) for seat in range(game.players)]
            people = all(e.account_id for e in holder.values())
            session, _ = await self.hub.create(
                game, requests, clock, "", owner=f"t-{tournament_id}"[:32], account=row.creator,
                rated=bool(row.rated) and people)
            game_id = session.meta.id
            stored = await self._run(self.store.set_game, tournament_id, board.round, board.board, game_id)
            if not stored:
                continue
            if session.snapshot.status == "over":  # ended before its board knew it (bots are quick)
                await self._score(game_id)
            accounts = [e.account_id for e in {board.first: entries[board.first],
                                               board.second: entries[board.second]}.values() if e.account_id]
            if accounts:
                self.hub.tell_matched(session, accounts)

    # -- the safety net ------------------------------------------------------------------------------
    async def sweep(self) -> None:
        """Start the tournaments whose time came, score games over that no call reported, and
        create the games a round still lacks."""
        for tournament_id in await self._run(self.store.due, time.time()):
            try:
                await self.start(tournament_id)
            except ApiError as error:
                if error.code == "too_few_players":
                    await self._run(self.store.cancel, tournament_id)
        for game_id in await self._run(self.store.unsettled):
            with contextlib.suppress(ApiError):
                await self.game_over(game_id)
        # A round whose boards were all scored by a call that stopped before pairing the next one
        # (a worker killed between the two): pair it now. Under the lock, so that this waits for
        # a call still pairing rather than reading its round half done.
        for tournament_id in await self._run(self.store.running_ids):
            async with self._lock(tournament_id):
                await self._advance(tournament_id)
        for tournament_id in await self._run(self.store.waiting_for_games, time.time() - MISSING_GAME_S):
            async with self._lock(tournament_id):
                await self._create_games(tournament_id)

    async def sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:  # the database may be away for a while: try again later
                log.warning("the tournaments' sweep failed", exc_info=True)
            await asyncio.sleep(SWEEP_EVERY_S)

    # -- documents -----------------------------------------------------------------------------------
    async def document(self, tournament_id: str) -> dict[str, Any]:
        row, entries, boards = await self._run(self.store.whole, tournament_id)
        accounts = {e.account_id for e in entries if e.account_id} | ({row.creator} if row.creator else set())
        names = await self._run(self.store.names, accounts)
        return tournament_document(row, entries, boards, names)


def _seat_request(entry: Any) -> SeatRequest:
    if entry.level is not None:
        return SeatRequest("bot", entry.level)
    return SeatRequest("human", name=entry.name, account=entry.account_id)


def tournament_document(row: Any, entries: Sequence[Any], boards: Sequence[Any],
                        names: dict[str, tuple[str, bool]]) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/{id}`` shows it."""
    def person(entry: Any) -> dict[str, Any]:
        name, guest = names.get(entry.account_id or "", (entry.name, True))
        return {"entry": entry.entry, "name": name, "player": None if guest else name, "bot": entry.level,
                "rating": round(entry.rating) if entry.rating is not None else None}

    ordered = sorted(entries, key=lambda e: (-(e.rating if e.rating is not None else NEW_RATING), e.entry))
    people = {e.entry: person(e) for e in entries}
    rows = standings([e.entry for e in ordered], outcomes(boards))
    table = [{"rank": rank, **people[r.entry], "score": r.score, "buchholz": r.buchholz,
              "sonneborn_berger": r.sonneborn_berger, "games": r.games, "byes": r.byes}
             for rank, r in enumerate(rows, start=1)]
    rounds: dict[int, list[dict[str, Any]]] = {}
    for b in boards:
        result = None
        if b.second is None:
            result = "bye"
        elif b.first_points is not None:
            result = f"{points_text(b.first_points)}-{points_text(b.second_points)}"
        rounds.setdefault(b.round, []).append({
            "board": b.board, "first": b.first, "second": b.second, "game": b.game_id,
            "first_points": b.first_points, "second_points": b.second_points, "result": result})
    creator = names.get(row.creator, (None, True))[0] if row.creator else None
    return {**summary(row, creator), "entries": [people[e.entry] for e in entries], "standings": table,
            "pairings": [{"round": number, "boards": listed} for number, listed in sorted(rounds.items())]}


@contextlib.asynccontextmanager
async def running(hub: Hub) -> AsyncIterator[Tournaments]:
    """The tournaments of ``hub`` while the server runs: the hub's hook (where it has one) and
    the sweep are set up, and taken down at the end."""
    service = Tournaments(hub)
    handlers = getattr(hub, "game_over_handlers", None)
    if isinstance(handlers, list):
        handlers.append(service.game_over)
    task = asyncio.get_running_loop().create_task(service.sweep_forever())
    try:
        yield service
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if isinstance(handlers, list) and service.game_over in handlers:
            handlers.remove(service.game_over)
