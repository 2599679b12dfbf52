"""Friends: follows, who is online, direct challenges and blocks (the tables of ``friend_tables``).

Everything here is synchronous SQLAlchemy Core, run on the storage's threads; ``friend_routes``
puts it on HTTP and WebSocket (docs/clubs.md).

- **Online** is a recent ``presence.seen`` (within ``ONLINE_S``): a person's friends socket
  (``WS /api/friends/ws``, opened by the pages' ``social-live.js``) writes it when it opens and
  every ``HEARTBEAT_S`` while open, so it is true across workers. Someone a person blocked never
  sees that person online.
- **Challenges** are pending until the challenged accepts (a game is made, both seated), declines,
  the challenger cancels, or ``expires`` passes (read as expired from then on; the row says so the
  next time either side lists it). Accepting is one conditional update: of two accepts (two tabs,
  two workers), one makes the game.
- **Blocks**: the blocked person may not follow nor challenge the blocker; blocking ends the
  follows between them both ways and their pending challenges.

>>> from sqlalchemy import create_engine, insert
>>> from ludotheque.server import tables
>>> engine = create_engine("sqlite://")
>>> tables.metadata.create_all(engine)
>>> with engine.begin() as connection:
...     for name in ("ada", "bob"):
...         _ = connection.execute(insert(tables.accounts).values(id=name, name=name, name_key=name,
...             name_skeleton=name, is_guest=False, created="", seen=0))
...     block(connection, "ada", "bob")
...     is_blocked(connection, "ada", "bob"), is_blocked(connection, "bob", "ada")
(True, False)
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from . import tables
from .errors import ApiError, quoted
from .friend_tables import blocks, challenges, follows, presence

# A person is online when their friends socket beat within this many seconds.
ONLINE_S = 75.0
HEARTBEAT_S = 25.0
# A challenge waits this long for its answer.
CHALLENGE_S = 15 * 60.0
# Pending challenges one person may have sent at once.
CHALLENGES_PER_PERSON = 10
# Follows one person may hold.
FOLLOWS_PER_PERSON = 500
PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = "pending", "accepted", "declined", "cancelled", "expired"
FOLLOWS, BLOCKS, PRESENCE, CHALLENGES = follows.c, blocks.c, presence.c, challenges.c
ACCOUNTS, GAMES, SEATS = tables.accounts.c, tables.games.c, tables.seats.c

__all__ = ["Challenge", "is_blocked", "is_online"]


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored: who, what game, and where it stands."""

    id: str
    challenger: str
    challenged: str
    game: str
    variant: str
    players: int
    clock: str | None
    rated: bool
    status: str
    created: float
    expires: float
    game_id: str | None

    @classmethod
    def of(cls, row: Any, now: float) -> Challenge:
        status = EXPIRED if row.status == PENDING and row.expires <= now else row.status
        return cls(row.id, row.challenger_id, row.challenged_id, row.game, row.variant, row.players,
                   row.clock, bool(row.rated), status, row.created, row.expires, row.game_id)

    def public(self, names: dict[str, str]) -> dict[str, Any]:
        """The challenge as both sides read it (names, not account ids)."""
        return {"id": self.id, "from": names.get(self.challenger, ""), "to": names.get(self.challenged, ""),
                "game": self.game, "variant": self.variant, "players": self.players,
                "clock": json.loads(self.clock) if self.clock else None, "rated": self.rated,
                "status": self.status, "created": self.created, "expires": self.expires,
                "game_id": self.game_id}


# -- blocks ---------------------------------------------------------------------------------------
def is_blocked(connection: Connection, reader_id: str, writer_id: str) -> bool:
    """Whether ``reader_id`` blocked ``writer_id`` (then no chat line of the writer reaches them)."""
    found = connection.execute(select(BLOCKS.blocker_id).where(
        BLOCKS.blocker_id == reader_id, BLOCKS.blocked_id == writer_id)).first()
    return found is not None


def either_blocked(connection: Connection, a: str, b: str) -> bool:
    """Whether one of ``a`` and ``b`` blocked the other."""
    return is_blocked(connection, a, b) or is_blocked(connection, b, a)


def blocks_among(connection: Connection, accounts: set[str]) -> set[tuple[str, str]]:
    """(blocker, blocked) for every block between two of ``accounts``."""
    rows = connection.execute(select(BLOCKS.blocker_id, BLOCKS.blocked_id).where(
        BLOCKS.blocker_id.in_(accounts), BLOCKS.blocked_id.in_(accounts)))
    return {(str(blocker), str(blocked)) for blocker, blocked in rows}


def blocked_by(connection: Connection, reader_id: str) -> set[str]:
    """The accounts ``reader_id`` blocked."""
    return set(connection.execute(select(BLOCKS.blocked_id).where(BLOCKS.blocker_id == reader_id)).scalars())


def block(connection: Connection, blocker: str, blocked: str) -> None:
    """``blocker`` blocks ``blocked`` (again: nothing changes); their follows both ways and their
    pending challenges end."""
    if blocker == blocked:
        raise ApiError(400, "you cannot block yourself", "bad_request")
    if not is_blocked(connection, blocker, blocked):
        try:
            with connection.begin_nested():
                connection.execute(insert(blocks).values(
                    blocker_id=blocker, blocked_id=blocked, created=time.time()))
        except IntegrityError:
            pass  # blocked at the same moment from another tab
    connection.execute(delete(follows).where(or_(
        and_(FOLLOWS.follower_id == blocker, FOLLOWS.followed_id == blocked),
        and_(FOLLOWS.follower_id == blocked, FOLLOWS.followed_id == blocker))))
    between = or_(and_(CHALLENGES.challenger_id == blocker, CHALLENGES.challenged_id == blocked),
                  and_(CHALLENGES.challenger_id == blocked, CHALLENGES.challenged_id == blocker))
    connection.execute(update(challenges).where(between, CHALLENGES.status == PENDING)
                       .values(status=CANCELLED))


def unblock(connection: Connection, blocker: str, blocked: str) -> bool:
    """Whether there was a block to lift."""
    done = connection.execute(delete(blocks).where(
        BLOCKS.blocker_id == blocker, BLOCKS.blocked_id == blocked))
    return bool(done.rowcount)


# -- follows --------------------------------------------------------------------------------------
def follow(connection: Connection, follower: str, followed: str) -> None:
    """``follower`` follows ``followed`` (again: nothing changes); 403 ``blocked`` between them."""
    if follower == followed:
        raise ApiError(400, "you cannot follow yourself", "bad_request")
    if either_blocked(connection, follower, followed):
        raise ApiError(403, "you cannot follow this player", "blocked")
    if is_following(connection, follower, followed):
        return
    held = connection.execute(select(func.count()).select_from(follows).where(
        FOLLOWS.follower_id == follower)).scalar() or 0
    if held >= FOLLOWS_PER_PERSON:
        raise ApiError(409, f"you follow {FOLLOWS_PER_PERSON} players already: unfollow one first",
                       "bad_request")
    try:
        with connection.begin_nested():
            connection.execute(insert(follows).values(
                follower_id=follower, followed_id=followed, created=time.time()))
    except IntegrityError:
        pass  # followed at the same moment from another tab


def unfollow(connection: Connection, follower: str, followed: str) -> bool:
    done = connection.execute(delete(follows).where(
        FOLLOWS.follower_id == follower, FOLLOWS.followed_id == followed))
    return bool(done.rowcount)


def is_following(connection: Connection, follower: str, followed: str) -> bool:
    return connection.execute(select(FOLLOWS.follower_id).where(
        FOLLOWS.follower_id == follower, FOLLOWS.followed_id == followed)).first() is not None


# -- presence -------------------------------------------------------------------------------------
def mark_seen(connection: Connection, account: str, at: float) -> None:
    """``account`` had a page open at ``at`` (an update, else an insert; a race's loser updates)."""
    if connection.execute(update(presence).where(PRESENCE.account_id == account).values(seen=at)).rowcount:
        return
    try:
        with connection.begin_nested():
            connection.execute(insert(presence).values(account_id=account, seen=at))
    except IntegrityError:
        connection.execute(update(presence).where(PRESENCE.account_id == account).values(seen=at))


def online_among(connection: Connection, accounts: list[str], now: float) -> set[str]:
    """The accounts of ``accounts`` seen within ``ONLINE_S`` of ``now``."""
    if not accounts:
        return set()
    return set(connection.execute(select(PRESENCE.account_id).where(
        PRESENCE.account_id.in_(accounts), PRESENCE.seen > now - ONLINE_S)).scalars())


def is_online(connection: Connection, account: str, viewer: str | None, now: float) -> bool:
    """Whether ``viewer`` sees ``account`` online (never when ``account`` blocked ``viewer``)."""
    if viewer is not None and is_blocked(connection, account, viewer):
        return False
    return account in online_among(connection, [account], now)


def games_in_progress(connection: Connection, accounts: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Per account, the games it holds a seat of that are being played (newest first)."""
    found: dict[str, list[dict[str, Any]]] = {account: [] for account in accounts}
    if not accounts:
        return found
    rows = connection.execute(
        select(SEATS.account_id, GAMES.id, GAMES.game, GAMES.variant, GAMES.players, GAMES.rated, GAMES.clock)
        .join(tables.games, GAMES.id == SEATS.game_id)
        .where(SEATS.account_id.in_(accounts), GAMES.status == "playing", GAMES.archived.is_(False))
        .order_by(GAMES.updated.desc())).all()
    for row in rows:
        entry = {"id": row.id, "game": row.game, "variant": row.variant, "players": row.players,
                 "rated": bool(row.rated), "clock": json.loads(row.clock) if row.clock else None}
        if entry not in found[row.account_id]:
            found[row.account_id].append(entry)
    return found


def friends_document(connection: Connection, account: str, now: float) -> dict[str, Any]:
    """What ``/friends`` shows: the people followed (online, games in progress), the people who
    follow, the people blocked, the challenges received and sent that are pending."""
    followed = connection.execute(
        select(ACCOUNTS.id, ACCOUNTS.name).join(follows, FOLLOWS.followed_id == ACCOUNTS.id)
        .where(FOLLOWS.follower_id == account).order_by(ACCOUNTS.name_key)).all()
    ids = [row.id for row in followed]
    hiding = set(connection.execute(select(BLOCKS.blocker_id).where(
        BLOCKS.blocked_id == account, BLOCKS.blocker_id.in_(ids))).scalars()) if ids else set()
    online = online_among(connection, ids, now) - hiding
    playing = games_in_progress(connection, ids)
    followers = connection.execute(
        select(ACCOUNTS.name).join(follows, FOLLOWS.follower_id == ACCOUNTS.id)
        .where(FOLLOWS.followed_id == account).order_by(ACCOUNTS.name_key)).scalars().all()
    blocked = connection.execute(
        select(ACCOUNTS.name).join(blocks, BLOCKS.blocked_id == ACCOUNTS.id)
        .where(BLOCKS.blocker_id == account).order_by(ACCOUNTS.name_key)).scalars().all()
    received, sent = pending_challenges(connection, account, now)
    return {
        "follows": [{"name": row.name, "online": row.id in online, "games": playing[row.id]}
                    for row in followed],
        "followers": list(followers), "blocked": list(blocked), "received": received, "sent": sent,
    }


def relation(connection: Connection, viewer: str, other: str, now: float) -> dict[str, Any]:
    """What a player's page shows a signed-in viewer: following, blocked (by the viewer), online."""
    return {"following": is_following(connection, viewer, other),
            "blocked": is_blocked(connection, viewer, other),
            "online": is_online(connection, other, viewer, now)}


# -- challenges -----------------------------------------------------------------------------------
def names_of(connection: Connection, accounts: set[str]) -> dict[str, str]:
    if not accounts:
        return {}
    return dict(connection.execute(select(ACCOUNTS.id, ACCOUNTS.name).where(ACCOUNTS.id.in_(accounts))).all())


def pending_challenges(connection: Connection, account: str, now: float
                       ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``account``'s pending challenges, received and sent (oldest first); expired ones are marked so."""
    connection.execute(update(challenges).where(
        or_(CHALLENGES.challenger_id == account, CHALLENGES.challenged_id == account),
        CHALLENGES.status == PENDING, CHALLENGES.expires <= now).values(status=EXPIRED))
    rows = [Challenge.of(row, now) for row in connection.execute(select(challenges).where(
        or_(CHALLENGES.challenger_id == account, CHALLENGES.challenged_id == account),
        CHALLENGES.status == PENDING).order_by(CHALLENGES.created))]
    names = names_of(connection, {row.challenger for row in rows} | {row.challenged for row in rows})
    received = [row.public(names) for row in rows if row.challenged == account]
    sent = [row.public(names) for row in rows if row.challenger == account]
    return received, sent


@dataclass(frozen=True)
class ChallengeAsk:
    """What a challenger asks for, checked already (the game exists, the clock is valid)."""

    challenger: str
    challenged: str
    game: str
    variant: str
    players: int
    clock: str | None
    rated: bool


def add_challenge(connection: Connection, ask: ChallengeAsk, now: float) -> Challenge:
    """Store a new pending challenge; 403 ``blocked`` between them, 409 over the limit."""
    if ask.challenger == ask.challenged:
        raise ApiError(400, "you cannot challenge yourself", "bad_request")
    if either_blocked(connection, ask.challenger, ask.challenged):
        raise ApiError(403, "you cannot challenge this player", "blocked")
    waiting = connection.execute(select(func.count()).select_from(challenges).where(
        CHALLENGES.challenger_id == ask.challenger, CHALLENGES.status == PENDING,
        CHALLENGES.expires > now)).scalar() or 0
    if waiting >= CHALLENGES_PER_PERSON:
        raise ApiError(409, f"at most {CHALLENGES_PER_PERSON} of your challenges wait at once: "
                       "cancel one first", "bad_request")
    made = Challenge(secrets.token_urlsafe(9), ask.challenger, ask.challenged, ask.game, ask.variant,
                     ask.players, ask.clock, ask.rated, PENDING, now, now + CHALLENGE_S, None)
    connection.execute(insert(challenges).values(
        id=made.id, challenger_id=made.challenger, challenged_id=made.challenged, game=made.game,
        variant=made.variant, players=made.players, clock=made.clock, rated=made.rated, status=made.status,
        created=made.created, expires=made.expires, game_id=None))
    return made


def get_challenge(connection: Connection, challenge_id: str, now: float) -> Challenge | None:
    row = connection.execute(select(challenges).where(CHALLENGES.id == challenge_id)).first()
    return Challenge.of(row, now) if row else None


def answer_challenge(connection: Connection, challenge_id: str, account: str, status: str, now: float
                     ) -> Challenge:
    """Move ``account``'s pending challenge to ``status``: accepted or declined by the challenged,
    cancelled by the challenger. 404 when it is not theirs, 409 ``challenge_closed`` when it is
    no longer pending (the conditional update: of two answers at once, one wins)."""
    found = get_challenge(connection, challenge_id, now)
    side = found and (found.challenger if status == CANCELLED else found.challenged)
    if found is None or side != account:
        raise ApiError(404, f"no challenge {quoted(challenge_id)} for you to answer so", "not_found")
    if found.status != PENDING:
        raise ApiError(409, f"the challenge is {found.status} already", "challenge_closed")
    if status == ACCEPTED and either_blocked(connection, found.challenger, found.challenged):
        raise ApiError(403, "you cannot play this player", "blocked")
    done = connection.execute(update(challenges).where(
        CHALLENGES.id == challenge_id, CHALLENGES.status == PENDING, CHALLENGES.expires > now,
    ).values(status=status))
    if not done.rowcount:
        now_stored = get_challenge(connection, challenge_id, now) or found
        raise ApiError(409, f"the challenge is {now_stored.status} already", "challenge_closed")
    return replace(found, status=status)


def end_challenges_of(connection: Connection, account: str, now: float) -> list[Challenge]:
    """Cancel every pending challenge ``account`` sent or received (a moderator suspended or
    closed the account); the challenges ended, as they were."""
    either = or_(CHALLENGES.challenger_id == account, CHALLENGES.challenged_id == account)
    ended = [Challenge.of(row, now) for row in connection.execute(select(challenges).where(
        either, CHALLENGES.status == PENDING))]
    connection.execute(update(challenges).where(either, CHALLENGES.status == PENDING)
                       .values(status=CANCELLED))
    return ended


def set_challenge_game(connection: Connection, challenge_id: str, game_id: str) -> None:
    connection.execute(update(challenges).where(CHALLENGES.id == challenge_id).values(game_id=game_id))


def player_row(connection: Connection, name_key_value: str) -> Any:
    """The id and name of the player (not a guest) whose folded name is ``name_key_value``."""
    return connection.execute(select(ACCOUNTS.id, ACCOUNTS.name).where(
        ACCOUNTS.name_key == name_key_value, ACCOUNTS.is_guest.is_(False))).first()

