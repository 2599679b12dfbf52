"""What a new game is made of: the game asked for, its seats (tokens for the humans, codes for the
invited, seeds for the bots), its seed and its first snapshot.

>>> new_seed() < 2**SEED_BITS
True
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ..core.contract import Game, Player
from ..core.registry import load
from .clocks import ClockSpec, Instant
from .errors import ApiError
from .sessions import hash_token, new_token
from .snapshots import GameMeta, Seat, SeatKind, Snapshot, begin, iso, new_snapshot

# docs/design.md: a seed is an integer in [0, 2^53), so that every JSON reader (a browser's
# included) keeps it exact. Older games may hold larger seeds (62 bits): they still load.
SEED_BITS = 53


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for at creation: ``human``, ``open``, ``invite`` or ``bot:<level>``."""

    kind: str
    level: str | None = None
    name: str = ""
    # A rematch's reserved seat stays its person's account's.
    account: str | None = None


@dataclass(frozen=True)
class Created:
    """What the creator of a game is given once: each human seat's token, each invite seat's code."""

    tokens: dict[Player, str]
    invites: dict[Player, str]


def new_game(
    game: Game, requests: list[SeatRequest], clock: ClockSpec | None, name: str,
    rematch_of: str | None, owner: str, account: str | None, rated: bool,
) -> tuple[GameMeta, Snapshot, Created]:
    """A new game's facts, first snapshot, and what its creator is given once (see
    :meth:`~ludotheque.server.games.Games.create`)."""
    created = Created({}, {})
    seats = []
    for number, request in enumerate(requests):
        if request.kind == "human":
            created.tokens[number] = new_token()
            person = request.name or name or f"Guest {number + 1}"
            digest = hash_token(created.tokens[number])
            seats.append(Seat("human", person, token_hash=digest, account=request.account or account))
        elif request.kind == "invite":
            created.invites[number] = new_token()
            seats.append(Seat("invite", "", invite_hash=hash_token(created.invites[number])))
        elif request.kind == "bot":
            seats.append(Seat("bot", f"bot:{request.level}", request.level, bot_seed=new_seed()))
        else:
            kind: SeatKind = "reserved" if request.kind == "reserved" else "open"
            seats.append(Seat(kind, request.name, account=request.account))
    seed = new_seed()
    now = Instant.now()
    meta = GameMeta(secrets.token_urlsafe(9), game, seed, iso(now), rematch_of, owner, rated, account)
    return meta, begin(new_snapshot(game, seed, tuple(seats), clock), now), created


def game_of(name: str, variant: str | None, players: int | None) -> Game:
    """The registered game; raises ``ApiError`` 400 for an unknown game, variant or count."""
    try:
        return load(name, variant=variant, players=players)
    except ValueError as error:
        raise ApiError(400, str(error), "unknown_game") from None
