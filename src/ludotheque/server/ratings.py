"""Ratings, per game and player count, with maintained libraries: Glicko-2 (``glicko2``, lichess's
choice) for two sides of one player each, OpenSkill (``openskill``'s Plackett-Luce model) for teams
and three or more sides (Ex*Pion). Games against bots are rated apart (their own category), against
the bots' public ratings calibrated from the arena (``botratings``), which never move.

Every rating is shown on one scale: Glicko-2's own (1500 for a newcomer, deviation 350), and
OpenSkill's ``mu`` and ``sigma`` times ``OPENSKILL_SCALE`` (25 → 1500, 8.33 → 500).

>>> category_of("pylos", 2, against_bots=False), category_of("expion", 4, against_bots=True)
('pylos/2', 'expion/4/bots')
>>> a, b = Rating(1500, 350, 0.06), Rating(1500, 350, 0.06)
>>> after = glicko_two_sides([a, b], winners=(0,))
>>> round(after[0].rating), round(after[1].rating)
(1662, 1338)
>>> pair = [NEW_TEAM, NEW_TEAM]
>>> teams = openskill_teams([pair, pair], winners=(0,))
>>> teams[0][0].rating > 1500 > teams[1][0].rating
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import glicko2  # type: ignore[import-untyped]
from openskill.models import PlackettLuce
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core.contract import Game
from . import tables
from .botratings import bot_rating
from .snapshots import Seat

NEW_RATING = 1500.0
NEW_DEVIATION = 350.0
NEW_VOLATILITY = 0.06
OPENSKILL_SCALE = 60.0
# A rating whose deviation is above this is provisional (shown with a "?"), as on lichess.
PROVISIONAL_DEVIATION = 110.0
# How sure the bots' calibrated ratings are (they never move).
BOT_DEVIATION = 60.0
_model = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """One rating on the shown scale; ``volatility`` is Glicko-2's (0 for OpenSkill's)."""

    rating: float
    deviation: float
    volatility: float = NEW_VOLATILITY
    games: int = 0


NEW_TEAM = Rating(NEW_RATING, _model.sigma * OPENSKILL_SCALE, 0.0)


def category_of(game: str, players: int, *, against_bots: bool) -> str:
    """The category a game's ratings live in: the game and its player count, apart against bots."""
    return f"{game}/{players}" + ("/bots" if against_bots else "")


def uses_glicko(teams: Sequence[Sequence[int]]) -> bool:
    """Two sides of one player each: Glicko-2; anything else (teams, three sides): OpenSkill."""
    return len(teams) == 2 and all(len(team) == 1 for team in teams)


def newcomer(glicko: bool) -> Rating:
    return Rating(NEW_RATING, NEW_DEVIATION, NEW_VOLATILITY) if glicko else NEW_TEAM


def shown(rating: float, deviation: float) -> dict[str, Any]:
    """A rating as pages show it: rounded, provisional while its deviation is large."""
    return {"rating": round(rating), "deviation": round(deviation),
            "provisional": deviation > PROVISIONAL_DEVIATION}


def _score(side: int, opponent: int, winners: Sequence[int], of_side: Sequence[int]) -> float:
    """1, ½ or 0 for side ``side`` against side ``opponent`` (``of_side[seat]``: a seat's side)."""
    won = {of_side[seat] for seat in winners}
    if not won or (side in won and opponent in won):
        return 0.5
    return 1.0 if side in won else 0.0


def glicko_update(player: Rating, opponents: Sequence[Rating], scores: Sequence[float]) -> Rating:
    """``player`` after one rating period against ``opponents`` with ``scores`` (``glicko2``)."""
    updated = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    updated.update_player([o.rating for o in opponents], [o.deviation for o in opponents], list(scores))
    return Rating(float(updated.rating), float(updated.rd), float(updated.vol), player.games + 1)


def glicko_two_sides(ratings: Sequence[Rating], winners: Sequence[int]) -> list[Rating]:
    """Both sides of a two-player game after it (seat ``n`` holds ``ratings[n]``)."""
    sides = [0, 1]
    return [glicko_update(ratings[s], [ratings[1 - s]], [_score(s, 1 - s, winners, sides)]) for s in sides]


def openskill_teams(teams: Sequence[Sequence[Rating]], winners: Sequence[int]) -> list[list[Rating]]:
    """Every team's players after a game (``winners``: the winning teams' indices; none: a draw)."""
    ranks = [1.0 if (not winners or index in winners) else 2.0 for index in range(len(teams))]
    model_teams = [[_model.rating(mu=r.rating / OPENSKILL_SCALE, sigma=r.deviation / OPENSKILL_SCALE)
                    for r in team] for team in teams]
    rated = _model.rate(model_teams, ranks=ranks)
    return [[Rating(p.mu * OPENSKILL_SCALE, p.sigma * OPENSKILL_SCALE, 0.0, before.games + 1)
             for p, before in zip(team, old, strict=True)] for team, old in zip(rated, teams, strict=True)]


@dataclass(frozen=True)
class Change:
    """One player's rating before and after one game."""

    account: str
    category: str
    before: Rating
    after: Rating


class RatingStore:
    """Ratings and their history in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def current(self, accounts: Sequence[str], category: str) -> dict[str, Rating]:
        """The ratings of ``accounts`` in ``category`` (absent: never rated there)."""
        if not accounts:
            return {}
        c = tables.ratings.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(tables.ratings).where(
                c.account_id.in_(list(accounts)), c.category == category)).all()
        return {r.account_id: Rating(r.rating, r.deviation, r.volatility, r.games) for r in rows}

    def apply(self, game_id: str, changes: Sequence[Change]) -> bool:
        """Store a game's changes in one transaction; ``False`` (nothing stored) when this game
        was rated already."""
        now = time.time()
        c = tables.ratings.c
        try:
            with self.engine.begin() as connection:
                for change in changes:
                    connection.execute(insert(tables.rating_history).values(
                        account_id=change.account, category=change.category, game_id=game_id,
                        before=change.before.rating, rating=change.after.rating,
                        deviation=change.after.deviation, at=now))
                    after = change.after
                    values = {"rating": after.rating, "deviation": after.deviation,
                              "volatility": after.volatility, "games": after.games, "updated": now}
                    done = connection.execute(update(tables.ratings).where(
                        c.account_id == change.account, c.category == change.category).values(**values))
                    if not done.rowcount:
                        connection.execute(insert(tables.ratings).values(
                            account_id=change.account, category=change.category, **values))
        except IntegrityError:  # the history holds this game already: rated once only
            return False
        return True

    def of_account(self, account: str) -> list[dict[str, Any]]:
        """Every category ``account`` is rated in, with its history (oldest first)."""
        c, h = tables.ratings.c, tables.rating_history.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(tables.ratings).where(c.account_id == account)
                                      .order_by(c.category)).all()
            history = connection.execute(select(tables.rating_history).where(h.account_id == account)
                                         .order_by(h.at, h.id)).all()
        points: dict[str, list[dict[str, Any]]] = {}
        for point in history:
            points.setdefault(point.category, []).append({
                "game": point.game_id, "at": point.at, "before": round(point.before),
                "rating": round(point.rating)})
        return [{"category": r.category, **shown(r.rating, r.deviation), "games": r.games,
                 "history": points.get(r.category, [])} for r in rows]

    def rate(self, game_id: str, game: Game, seats: Sequence[Seat], winners: Sequence[int]) -> bool:
        """Rate a finished game once (reads and writes on this thread); whether it changed anything."""
        changes = plan_changes(game, seats, winners, self.current)
        return bool(changes) and self.apply(game_id, changes)

    def game_changes(self, game_id: str) -> dict[str, tuple[float, float]]:
        """The rating changes a game made: account -> (before, after)."""
        h = tables.rating_history.c
        with self.engine.connect() as connection:
            query = select(h.account_id, h.before, h.rating).where(h.game_id == game_id)
            rows = connection.execute(query).all()
        return {r.account_id: (r.before, r.rating) for r in rows}


def plan_changes(game: Game, seats: Sequence[Seat], winners: Sequence[int],
                 current: Callable[[Sequence[str], str], dict[str, Rating]]) -> list[Change]:
    """The rating changes of a finished rated game (``winners``: seats; none: a draw), reading
    the players' ratings with ``current(accounts, category)``; none when the game is not ratable
    (a seat of nobody's, one person on two seats, a bot of an uncalibrated game)."""
    humans = {n: seat.account for n, seat in enumerate(seats) if seat.kind == "human"}
    bots = [n for n, seat in enumerate(seats) if seat.kind == "bot"]
    accounts = list(humans.values())
    if None in accounts or len(set(accounts)) != len(accounts) or len(humans) + len(bots) != len(seats):
        return []
    teams = game.teams
    side_of = {player: index for index, team in enumerate(teams) for player in team}
    if bots:
        return _against_bots(game, seats, humans, side_of, winners, current)
    category = category_of(game.id, game.players, against_bots=False)
    glicko = uses_glicko(teams)
    known = current([a for a in accounts if a], category)
    before = {n: known.get(account or "", newcomer(glicko)) for n, account in humans.items()}
    if glicko:
        after = dict(enumerate(glicko_two_sides([before[0], before[1]], winners)))
    else:
        winning = sorted({side_of[seat] for seat in winners})
        rated = openskill_teams([[before[p] for p in team] for team in teams], winning)
        after = {p: rated[index][k] for index, team in enumerate(teams) for k, p in enumerate(team)}
    return [Change(humans[n] or "", category, before[n], after[n]) for n in humans]


def _against_bots(game: Game, seats: Sequence[Seat], humans: dict[int, str | None], side_of: dict[int, int],
                  winners: Sequence[int], current: Callable[[Sequence[str], str], dict[str, Rating]],
                  ) -> list[Change]:
    if len(humans) != 1:
        return []
    [(seat, account)] = humans.items()
    assert account is not None
    opponents, scores = [], []
    for n, other in enumerate(seats):
        if other.kind != "bot" or side_of[n] == side_of[seat]:
            continue
        rating = bot_rating(game.id, game.players, other.level or "")
        if rating is None:
            return []
        opponents.append(Rating(rating, BOT_DEVIATION))
        scores.append(_score(side_of[seat], side_of[n], winners, [side_of[p] for p in range(game.players)]))
    if not opponents:
        return []
    category = category_of(game.id, game.players, against_bots=True)
    before = current([account], category).get(account, newcomer(True))
    return [Change(account, category, before, glicko_update(before, opponents, scores))]
