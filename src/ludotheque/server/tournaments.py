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
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from ..core.contract import Game
from .arena import Result, arena_standings
from .botratings import bot_rating
from .clocks import ClockSpec
from .errors import ApiError
from .hub import Hub, SeatRequest, game_of
from .pairing import Outcome, Standing, max_rounds, pair_round, schedule_possible, standings
from .ratings import NEW_RATING, category_of
from .tournament_store import NewTournament, TournamentStore, iso_at, summary

log = logging.getLogger("ludotheque.server")

STATUSES = ("upcoming", "running", "finished", "cancelled")
SWEEP_EVERY_S = 5.0
# Pairing an arena again when another worker paired some of the same entrants meanwhile.
PAIRING_TRIES = 5
# A round's board still without its game this long after the pairing gets it from a sweep
# (its worker died between the two steps).
MISSING_GAME_S = 30.0
MAX_ROUNDS = 20
MAX_ENTRIES = 128
DEFAULT_ENTRIES = 64


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


SYSTEMS = ("swiss", "arena")
MAX_DURATION = 24 * 60  # an arena's longest, in minutes


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
        """Enter ``account``; in a running arena they are rated now and paired at once."""
        return await self._enter(tournament_id, account, None, name)

    async def add_bot(self, tournament_id: str, level: str) -> int:
        return await self._enter(tournament_id, None, level, f"bot:{level}")

    async def _enter(self, tournament_id: str, account: str | None, level: str | None, name: str) -> int:
        row = await self._run(self.store.row, tournament_id)
        rating = None
        if row.system == "arena" and row.status == "running":
            game = game_of(row.game, row.variant, row.players)
            rating = await self._run(self._rating_of, game, account, level)
        number: int = await self._run(self.store.add_entry, tournament_id, account, level, name, rating)
        if row.system == "arena":
            await self.pair_arena(tournament_id)
        return number

    def _rating_of(self, game: Game, account: str | None, level: str | None) -> float:
        """One entrant's rating now (as ``_ratings`` reads them at the start)."""
        if level is not None:
            known_level = bot_rating(game.id, game.players, level)
            return float(known_level) if known_level is not None else NEW_RATING
        category = category_of(game.id, game.players, against_bots=False)
        known = self.hub.ratings.current([account] if account else [], category).get(account or "")
        return known.rating if known is not None else NEW_RATING

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
            if row.system == "arena":  # any field: people may join while it runs
                game = game_of(row.game, row.variant, row.players)
                ratings = await self._run(self._ratings, game, entries)
                if await self._run(self.store.begin, tournament_id, ratings):
                    await self._pair_arena(tournament_id)
                return
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
        if board.paired_at is not None:  # an arena's: its two sides are free again
            await self.pair_arena(board.tournament_id)
            await self._run(self.store.finish_arena, board.tournament_id, time.time())
            return
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
            if row.status != "running" or row.system != "swiss":
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

    # -- arenas --------------------------------------------------------------------------------------
    async def pair_arena(self, tournament_id: str) -> None:
        """Pair the arena's waiting entrants now and start their games (nothing once it ended)."""
        async with self._lock(tournament_id):
            await self._pair_arena(tournament_id)

    async def _pair_arena(self, tournament_id: str) -> None:
        """``pair_arena`` under the tournament's lock (this worker's; the row lock is the others')."""
        for _ in range(PAIRING_TRIES):
            try:
                boards, retry = await self._run(self.store.pair_arena, tournament_id, time.time())
            except ApiError as error:
                if error.code != "stale_pairing":
                    raise
                continue
            if retry is not None:
                self.hub.background.spawn(self._pair_later(tournament_id, retry))
            if boards:
                await self._create_games(tournament_id, boards)
            return

    async def _pair_later(self, tournament_id: str, moment: float) -> None:
        """Pair the arena again at ``moment`` (two who just met may meet again then)."""
        await asyncio.sleep(max(0.0, moment - time.time()) + 0.01)
        await self.pair_arena(tournament_id)

    async def _sweep_arena(self, tournament_id: str) -> None:
        """An arena's safety net: games its boards lack, waiting entrants nobody paired, its end."""
        async with self._lock(tournament_id):
            missing = await self._run(self.store.boards_without_games, tournament_id,
                                      time.time() - MISSING_GAME_S)
            if missing:
                await self._create_games(tournament_id, missing)
            await self._pair_arena(tournament_id)
        await self._run(self.store.finish_arena, tournament_id, time.time())

    async def _create_games(self, tournament_id: str, only: Sequence[Any] | None = None) -> None:
        """Create the games of the current round's boards (or of the boards ``only``) that have
        none yet."""
        row = await self._run(self.store.row, tournament_id)
        game = game_of(row.game, row.variant, row.players)
        clock = ClockSpec.from_json(json.loads(row.clock)) if row.clock else None
        entries = {e.entry: e for e in await self._run(self.store.entries, tournament_id)}
        first_side, second_side = two_sides(game)
        boards = only if only is not None else await self._run(self.store.pairings, tournament_id)
        for board in boards:
            elsewhere = only is None and board.round != row.round
            if board.second is None or board.game_id is not None or elsewhere:
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
                self._tell_ready(session, accounts, tournament_id)

    def _tell_ready(self, session: Any, accounts: list[str], tournament_id: str) -> None:
        """"Your game is ready": the seekers' message (``Notices.tell_matched``) with the
        tournament's id, and the live counts."""
        notices = self.hub.notices
        for account in accounts:
            self.hub.background.spawn(notices.tell(account, {
                "type": "matched", "game": session.meta.id, "name": session.meta.game.id,
                "tournament": tournament_id}))
        self.hub.background.spawn(notices.tell_turns(set(accounts)))

    # -- the safety net ------------------------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> None:
        """Start the tournaments whose time came (by ``now``: this moment by default), score
        games over that no call reported, and create the games a round still lacks."""
        for tournament_id in await self._run(self.store.due, time.time() if now is None else now):
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
        for tournament_id, system in await self._run(self.store.running_ids):
            if system == "arena":
                await self._sweep_arena(tournament_id)
                continue
            async with self._lock(tournament_id):
                await self._advance(tournament_id)
        for tournament_id in await self._run(self.store.waiting_for_games, time.time() - MISSING_GAME_S):
            async with self._lock(tournament_id):
                await self._create_games(tournament_id)

    async def sweep_forever(self) -> None:
        """Sweep every ``SWEEP_EVERY_S``, and at the moment a scheduled start or an arena's end
        comes (every worker does: whichever is alive starts a tournament on time)."""
        while True:
            try:
                pause = await self.sweep_once()
            except Exception:  # the database may be away for a while: try again later
                log.warning("the tournaments' sweep failed", exc_info=True)
                pause = SWEEP_EVERY_S
            await asyncio.sleep(pause)

    async def sweep_once(self, now: float | None = None) -> float:
        """One sweep from ``now`` (this moment by default); how long until the next. The next
        start is looked for after the moment the sweep started from, not after its end: a start
        that came while it ran (after its check, before the end) is swept at once, not a whole
        ``SWEEP_EVERY_S`` late."""
        now = time.time() if now is None else now
        await self.sweep(now)
        deadline: float | None = await self._run(self.store.next_deadline, now)
        if deadline is None:
            return SWEEP_EVERY_S
        return min(SWEEP_EVERY_S, max(0.05, deadline - time.time() + 0.01))

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
                        names: dict[str, tuple[str, bool]], now: float | None = None) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/{id}`` shows it (``now``: for an arena's time left)."""
    def person(entry: Any) -> dict[str, Any]:
        name, guest = names.get(entry.account_id or "", (entry.name, True))
        shown = {"entry": entry.entry, "name": name, "player": None if guest else name, "bot": entry.level,
                 "rating": round(entry.rating) if entry.rating is not None else None}
        if row.system == "arena":
            shown.update(waiting=entry.waiting_since is not None and not entry.paused,
                         paused=bool(entry.paused))
        return shown

    people = {e.entry: person(e) for e in entries}
    if row.system == "arena":
        table = _arena_table(entries, boards, people)
    else:
        table = _swiss_table(entries, boards, people)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for b in boards:
        rounds.setdefault(b.round, []).append(_board(b))
    creator = names.get(row.creator, (None, True))[0] if row.creator else None
    listed_rounds = [{"round": number, "boards": listed} for number, listed in sorted(rounds.items())]
    document = {**summary(row, creator), "entries": [people[e.entry] for e in entries], "standings": table,
                "pairings": listed_rounds,
                "winner": table[0] if row.status == "finished" and table else None}
    if row.system == "arena":
        moment = time.time() if now is None else now
        left = max(0.0, row.ends_at - moment) if row.ends_at is not None and row.status == "running" else None
        document.update(
            seconds_left=None if left is None else round(left, 1),
            playing=[_board(b) for b in boards if b.second is not None and b.first_points is None],
            waiting=[e.entry for e in entries if e.waiting_since is not None and not e.paused
                     and row.status == "running"])
    return document


def _board(b: Any) -> dict[str, Any]:
    """One board of the document: its sides, game and result (an arena's: when, and the waits)."""
    result = None
    if b.second is None:
        result = "bye"
    elif b.first_points is not None:
        result = f"{points_text(b.first_points)}-{points_text(b.second_points)}"
    shown = {"board": b.board, "first": b.first, "second": b.second, "game": b.game_id,
             "first_points": b.first_points, "second_points": b.second_points, "result": result}
    if b.paired_at is not None:
        shown.update(round=b.round, paired_at=iso_at(b.paired_at),
                     waited=[round(b.first_waited or 0.0, 2), round(b.second_waited or 0.0, 2)])
    return shown


def _swiss_table(entries: Sequence[Any], boards: Sequence[Any], people: dict[int, dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    ordered = sorted(entries, key=lambda e: (-(e.rating if e.rating is not None else NEW_RATING), e.entry))
    rows = standings([e.entry for e in ordered], outcomes(boards))
    return [{"rank": rank, **people[r.entry], "score": r.score, "buchholz": r.buchholz,
             "sonneborn_berger": r.sonneborn_berger, "games": r.games, "byes": r.byes}
            for rank, r in enumerate(rows, start=1)]


def _arena_table(entries: Sequence[Any], boards: Sequence[Any], people: dict[int, dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    ratings = {e.entry: e.rating if e.rating is not None else NEW_RATING for e in entries}
    results = [Result(b.first, b.second, b.first_points, b.second_points or 0.0)
               for b in boards if b.second is not None and b.first_points is not None]
    return [{"rank": rank, **people[r.entry], "score": r.points, "performance": r.performance,
             "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses}
            for rank, r in enumerate(arena_standings(ratings, results), start=1)]


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
