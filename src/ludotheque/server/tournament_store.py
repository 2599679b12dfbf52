"""Tournaments in the database (``tournament_tables``): what a new tournament is, who may enter, and
:class:`TournamentStore`, whose every method is one transaction run on the database threads
(create, enter and leave, begin, each round's boards and games, scores, arenas' pairing of the
waiting entrants, lists). ``tournaments`` runs them through the hub.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, delete, func, insert, select, update

from ..core.contract import Game
from . import tables
from . import tournament_tables as t
from .arena import Waiting, game_points, pair_waiting, rematch_due
from .clocks import ClockSpec, Instant
from .clubs import is_member, require_admin
from .errors import ApiError, quoted
from .pairing import Pairing
from .ratings import NEW_RATING
from .snapshots import iso

LIST_LIMIT = 50  # tournaments a list answers unless asked (at most MAX_LIST_LIMIT)
MAX_LIST_LIMIT = 200
T, E, P = t.tournaments.c, t.entries.c, t.pairings.c


@dataclass(frozen=True)
class NewTournament:
    """A tournament to create: a Swiss of ``rounds`` rounds, or an arena of ``duration`` minutes
    (``system`` "arena", ``rounds`` 0); ``club``: a club's tournament (docs/tournaments.md)."""

    name: str
    game: Game
    rounds: int
    clock: ClockSpec | None
    rated: bool
    creator: str
    starts_at: float | None
    max_entries: int
    system: str = "swiss"
    duration: int | None = None
    club: str | None = None


def entry_allowed(connection: Any, club_id: str | None, account_id: str | None) -> bool:
    """Whether ``account_id`` (``None``: a bot the creator enters) may enter a tournament of the
    club ``club_id`` (``None``: open to all): a club's tournament is for its members."""
    if club_id is None or account_id is None:
        return True
    return is_member(connection, club_id, account_id)


def iso_at(epoch: float | None) -> str | None:
    """An epoch instant as ISO 8601 (UTC, whole seconds); ``None`` stays ``None``."""
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC).replace(microsecond=0).isoformat()


class TournamentStore:
    """Tournaments in the database of ``engine`` (every method runs on the database threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, new: NewTournament) -> str:
        tournament_id = secrets.token_urlsafe(9)
        with self.engine.begin() as connection:
            if new.club is not None:  # a club's tournaments are made by its admins
                require_admin(connection, new.club, new.creator)
            connection.execute(insert(t.tournaments).values(
                id=tournament_id, name=new.name, system=new.system, game=new.game.id,
                variant=new.game.variant, players=new.game.players, rounds=new.rounds,
                clock=json.dumps(new.clock.to_json()) if new.clock else None, rated=new.rated,
                creator=new.creator, status="upcoming", round=0, starts_at=new.starts_at,
                max_entries=new.max_entries, created=iso(Instant.now()), duration=new.duration,
                club_id=new.club))
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

    def add_entry(self, tournament_id: str, account: str | None, level: str | None, name: str,
                  rating: float | None = None) -> int:
        """Enter a person (``account``) or a bot (``level``) in an upcoming tournament, or a
        running arena (``rating``: theirs now; they wait for a game at once). A person who paused
        in a running arena comes back instead."""
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            arena_running = row.system == "arena" and row.status == "running"
            if row.status != "upcoming" and not arena_running:
                raise ApiError(409, "the tournament has started: no more entrants", "tournament_started")
            if not entry_allowed(connection, row.club_id, account):
                raise ApiError(403, "this tournament is for its club's members", "not_member")
            now = time.time()
            if account is not None:
                known = connection.execute(select(t.entries).where(
                    E.tournament_id == tournament_id, E.account_id == account)).first()
                if known is not None and not (arena_running and known.paused):
                    raise ApiError(409, "you are entered in this tournament already", "already_joined")
                if known is not None:
                    _come_back(connection, tournament_id, known.entry, now)
                    return int(known.entry)
            count, last = connection.execute(select(func.count(), func.max(E.entry)).where(
                E.tournament_id == tournament_id)).one()
            if count >= row.max_entries:
                raise ApiError(409, f"the tournament takes {row.max_entries} entrants", "tournament_full")
            number = (last or 0) + 1
            connection.execute(insert(t.entries).values(
                tournament_id=tournament_id, entry=number, account_id=account, level=level, name=name,
                joined=now, rating=rating if arena_running else None,
                waiting_since=now if arena_running else None))
        return number

    def remove_entry(self, tournament_id: str, *, account: str | None = None, entry: int | None = None
                     ) -> None:
        """Take an entrant out of an upcoming tournament; in a running arena, pause them (they
        keep their games and points, and are paired again if they join again)."""
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            which = E.account_id == account if entry is None else E.entry == entry
            if row.system == "arena" and row.status == "running":
                done = connection.execute(update(t.entries).where(
                    E.tournament_id == tournament_id, which, E.paused.is_(False)).values(
                    paused=True, waiting_since=None))
            elif row.status != "upcoming":
                raise ApiError(409, "the tournament has started: entrants stay", "tournament_started")
            else:
                done = connection.execute(delete(t.entries).where(E.tournament_id == tournament_id, which))
            if not done.rowcount:
                raise ApiError(404, "no such entrant in this tournament", "not_found")

    def begin(self, tournament_id: str, ratings: dict[int, float]) -> bool:
        """Mark an upcoming tournament running, its entrants' ratings fixed (an arena: its end
        set, every entrant waiting for a game); whether this call did."""
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            now = time.time()
            ends_at = now + 60.0 * row.duration if row.system == "arena" and row.duration else None
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.status == "upcoming").values(
                status="running", started=iso(Instant.now()), ends_at=ends_at))
            if not done.rowcount:
                return False
            for entry, rating in ratings.items():
                connection.execute(update(t.entries).where(
                    E.tournament_id == tournament_id, E.entry == entry).values(rating=rating))
            if row.system == "arena":  # everyone, even whoever joined since the ratings were read
                connection.execute(update(t.entries).where(E.tournament_id == tournament_id).values(
                    waiting_since=now))
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
        """Score the board of ``game_id`` once (in an arena, its two sides wait for their next
        game from now, unless paused); the tournament's id when this call did."""
        with self.engine.begin() as connection:
            board = connection.execute(select(t.pairings).where(P.game_id == game_id)).first()
            if board is None:
                return None
            done = connection.execute(update(t.pairings).where(
                P.tournament_id == board.tournament_id, P.round == board.round, P.board == board.board,
                P.first_points.is_(None)).values(first_points=first_points, second_points=second_points))
            if done.rowcount and board.paired_at is not None:  # an arena's board
                connection.execute(update(t.entries).where(
                    E.tournament_id == board.tournament_id, E.entry.in_([board.first, board.second]),
                    E.paused.is_(False), E.waiting_since.is_(None)).values(waiting_since=time.time()))
        return board.tournament_id if done.rowcount else None

    def finish(self, tournament_id: str, rounds: int) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.status == "running", T.round == rounds).values(
                status="finished", ended=iso(Instant.now())))
        return bool(done.rowcount)

    def listing(self, status: str | None, system: str | None = None, club: str | None = None,
                limit: int = LIST_LIMIT, offset: int = 0) -> list[dict[str, Any]]:
        """A page of tournaments, newest first: ``limit`` of them after the first ``offset``."""
        query = select(t.tournaments, func.count(E.entry).label("entrants")).select_from(
            t.tournaments.outerjoin(t.entries, E.tournament_id == T.id)).group_by(T.id)
        if status is not None:
            query = query.where(T.status == status)
        if system is not None:
            query = query.where(T.system == system)
        if club is not None:
            query = query.where(T.club_id == club)
        query = query.order_by(T.created.desc(), T.id).limit(limit).offset(offset)
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

    def running_ids(self) -> list[tuple[str, str]]:
        """The tournaments being played, and their systems."""
        with self.engine.connect() as connection:
            return [(row.id, row.system) for row in connection.execute(
                select(T.id, T.system).where(T.status == "running"))]

    def waiting_for_games(self, before: float) -> list[str]:
        """Running tournaments with a board of the current round still without its game."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(T.id).distinct().select_from(
                t.pairings.join(t.tournaments, and_(T.id == P.tournament_id, T.round == P.round)))
                .where(T.status == "running", T.system == "swiss", P.game_id.is_(None),
                       P.second.is_not(None), T.paired_at < before)).scalars())

    def names(self, accounts: set[str]) -> dict[str, tuple[str, bool]]:
        with self.engine.connect() as connection:
            a = tables.accounts.c
            rows = connection.execute(select(a.id, a.name, a.is_guest).where(a.id.in_(accounts))).all()
        return {row.id: (row.name, bool(row.is_guest)) for row in rows}

    # -- arenas --------------------------------------------------------------------------------------
    def pair_arena(self, tournament_id: str, now: float) -> tuple[list[Any], float | None]:
        """Pair the arena's waiting entrants now (``arena.pair_waiting``), unless it is over or
        not running; the new boards, and when to try again if two who just met wait alone.
        Under the tournament row's lock (several workers pair one
        at a time, as ``seeks.match_or_add`` does for seeks); the conditional updates of the
        entrants make a second pairing of the same entrant impossible even without it (SQLite)."""
        with self.engine.begin() as connection:
            row = _locked(connection, tournament_id)
            if row.system != "arena" or row.status != "running" or (row.ends_at or 0.0) <= now:
                return [], None
            entries = list(connection.execute(
                select(t.entries).where(E.tournament_id == tournament_id)).all())
            boards = list(connection.execute(select(t.pairings).where(P.tournament_id == tournament_id)
                                             .order_by(P.round, P.board)).all())
            pool = waiting_pool(entries, boards)
            pairs = pair_waiting(pool, now) if len(pool) >= 2 else []
            if not pairs:
                return [], rematch_due(pool, now)
            since = {w.entry: w.since for w in pool}
            number = row.round + 1
            for first, second in pairs:
                taken = connection.execute(update(t.entries).where(
                    E.tournament_id == tournament_id, E.entry.in_([first, second]),
                    E.waiting_since.is_not(None)).values(waiting_since=None))
                if taken.rowcount != 2:
                    raise ApiError(409, "the arena was paired meanwhile: try again", "stale_pairing")
            connection.execute(update(t.tournaments).where(T.id == tournament_id).values(
                round=number, paired_at=now))
            for board, (first, second) in enumerate(pairs, start=1):
                connection.execute(insert(t.pairings).values(
                    tournament_id=tournament_id, round=number, board=board, first=first, second=second,
                    paired_at=now, first_waited=max(0.0, now - since[first]),
                    second_waited=max(0.0, now - since[second])))
            paired = {entry for pair in pairs for entry in pair}
            retry = rematch_due([w for w in pool if w.entry not in paired], now)
            return list(connection.execute(select(t.pairings).where(
                P.tournament_id == tournament_id, P.round == number).order_by(P.board)).all()), retry

    def finish_arena(self, tournament_id: str, now: float) -> bool:
        """End a running arena whose time is up once its last game is scored; whether this call did."""
        unscored = select(P.game_id).where(P.tournament_id == tournament_id, P.first_points.is_(None),
                                           P.second.is_not(None)).exists()
        with self.engine.begin() as connection:
            done = connection.execute(update(t.tournaments).where(
                T.id == tournament_id, T.system == "arena", T.status == "running", T.ends_at <= now,
                ~unscored).values(status="finished", ended=iso(Instant.now())))
            if done.rowcount:
                connection.execute(update(t.entries).where(E.tournament_id == tournament_id)
                                   .values(waiting_since=None))
        return bool(done.rowcount)

    def boards_without_games(self, tournament_id: str, before: float) -> list[Any]:
        """An arena's boards paired before ``before`` still without their game (their worker
        died between the pairing and the game)."""
        with self.engine.connect() as connection:
            return list(connection.execute(select(t.pairings).where(
                P.tournament_id == tournament_id, P.game_id.is_(None), P.second.is_not(None),
                P.first_points.is_(None), P.paired_at < before)).all())

    def next_deadline(self, now: float) -> float | None:
        """The soonest scheduled start or arena end after ``now`` (epoch seconds), for the sweep."""
        with self.engine.connect() as connection:
            start = connection.execute(select(func.min(T.starts_at)).where(
                T.status == "upcoming", T.starts_at > now)).scalar()
            end = connection.execute(select(func.min(T.ends_at)).where(
                T.status == "running", T.ends_at > now)).scalar()
        found = [moment for moment in (start, end) if moment is not None]
        return min(found) if found else None


def waiting_pool(entries: Sequence[Any], boards: Sequence[Any]) -> list[Waiting]:
    """An arena's entrants waiting for a game, with their points, last opponent and seats."""
    points = {e.entry: 0 for e in entries}
    last: dict[int, int] = {}
    balance = {e.entry: 0 for e in entries}
    for b in boards:  # in the order they were paired
        if b.second is None:
            continue
        last[b.first], last[b.second] = b.second, b.first
        balance[b.first] += 1
        balance[b.second] -= 1
        if b.first_points is not None:
            points[b.first] += game_points(b.first_points)
            points[b.second] += game_points(b.second_points or 0.0)
    return [Waiting(e.entry, points[e.entry], e.rating if e.rating is not None else NEW_RATING,
                    e.waiting_since, last.get(e.entry), e.level is not None, balance[e.entry])
            for e in entries if e.waiting_since is not None and not e.paused]


def _come_back(connection: Any, tournament_id: str, entry: int, now: float) -> None:
    """A paused arena entrant joins again: they wait for a game, unless one of theirs still runs."""
    playing = connection.execute(select(P.board).where(
        P.tournament_id == tournament_id, P.first_points.is_(None), P.second.is_not(None),
        (P.first == entry) | (P.second == entry))).first()
    connection.execute(update(t.entries).where(E.tournament_id == tournament_id, E.entry == entry).values(
        paused=False, waiting_since=None if playing else now))


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
            "status": row.status, "creator": creator, "starts_at": iso_at(row.starts_at),
            "max_entries": row.max_entries, "created": row.created, "started": row.started,
            "ended": row.ended, "duration": row.duration, "ends_at": iso_at(row.ends_at),
            "club": row.club_id}
