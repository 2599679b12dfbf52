"""Telling people: the live counts of the games where it is their turn, a correspondence game's
turn or end (by socket and by e-mail), the people and ratings of a game's seats after it changed
hands or ended. A person's sockets may be held by any worker."""

from __future__ import annotations

from typing import Any

from ..core.registry import info
from .accounts import AccountStore
from .background import Background
from .config import ServerSettings
from .games import broadcast
from .listings import Listings
from .news import News
from .notify import Mailer, PeopleSockets
from .ratings import RatingStore
from .seat_people import SeatPeople
from .sessions import GameSession
from .snapshots import Snapshot
from .storage import Storage


class Notices:
    """What people are told, on this worker's sockets and through ``news`` on the others'."""

    def __init__(
        self, storage: Storage, settings: ServerSettings, news: News, background: Background, *,
        accounts: AccountStore, listings: Listings, ratings: RatingStore,
        seat_people: SeatPeople, people_sockets: PeopleSockets, mailer: Mailer | None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.news = news
        self.background = background
        self.accounts = accounts
        self.listings = listings
        self.ratings = ratings
        self.seat_people = seat_people
        self.people_sockets = people_sockets
        self.mailer = mailer

    async def tell_turns(self, accounts: set[str]) -> None:
        """Send each connected person of ``accounts`` the games where it is their turn."""
        # With several workers the person's sockets may be held by any of them.
        held = accounts if self.news.shared else self.people_sockets.connected(accounts)
        for account in held:
            games = await self.storage.run(self.listings.my_games, account)
            turn = [game["id"] for game in games if game["your_turn"]]
            await self.tell(account, {"type": "turns", "count": len(turn), "games": turn})

    async def tell(self, account: str, message: dict[str, Any]) -> None:
        """``message`` to every socket of ``account``, this worker's and the others'."""
        self.people_sockets.tell(account, message)
        await self.news.announce({"kind": "person", "account": account, "message": message})

    def tell_matched(self, session: GameSession, accounts: list[str]) -> None:
        """The seekers of a new game: it exists, and their turn counts change."""
        for account in accounts:
            self.background.spawn(self.tell(account, {"type": "matched", "game": session.meta.id,
                                                      "name": session.meta.game.id}))
        self.background.spawn(self.tell_turns(set(accounts)))

    def changed(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        """After a change of this worker's: the seats' people and ratings if a seat changed hands
        or the game ended; the live counts and turns of the people in it."""
        ended = new.status == "over" != old.status
        if ended or [seat.account for seat in old.seats] != [seat.account for seat in new.seats]:
            self.background.spawn(self._people_changed(session, rate=ended and session.meta.rated))
        if any(seat.account for seat in new.seats) and (
                ended or new.seat_to_move() != old.seat_to_move() or new.ply != old.ply):
            self.background.spawn(self._tell_people(session, old, new))

    async def _tell_people(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        """After a change: the live counts; in a correspondence game, the person now to move, or
        everyone once it ended (on time too), by socket and by e-mail."""
        await self.tell_turns({seat.account for seat in new.seats if seat.account})
        if new.clock is None or new.clock.spec.kind != "correspondence":
            return
        game_id, name = session.meta.id, session.meta.game.id
        mover = new.seat_to_move()
        if new.status == "over" and old.status != "over":
            reason = new.result.reason if new.result else None
            for number, seat in enumerate(new.seats):
                if seat.account:
                    message = {"type": "game_over", "game": game_id, "name": name, "reason": reason,
                               "won": bool(new.result and number in new.result.winners)}
                    await self.tell(seat.account, message)
                    await self._mail(seat.account, "game_over", game_id, name, reason)
        elif mover is not None and mover != old.seat_to_move() and (account := new.seats[mover].account):
            await self.tell(account, {"type": "your_turn", "game": game_id, "name": name})
            await self._mail(account, "your_turn", game_id, name, None)

    async def _mail(self, account_id: str, kind: str, game_id: str, name: str, reason: str | None) -> None:
        if self.mailer is None:
            return
        account = await self.storage.run(self.accounts.get, account_id)
        if account is None or not account.email or not account.notify_email or not account.email_verified:
            return
        title = info(name).title
        link = f"{self.settings.public_url.rstrip('/')}/play/{game_id}"
        if kind == "your_turn":
            subject = f"Ludothèque — {title.get('fr', name)} : à vous de jouer / your turn"
            body = (f"À vous de jouer dans votre partie de {title.get('fr', name)}.\n"
                    f"It is your turn in your game of {title.get('en', name)}.\n\n{link}\n")
        else:
            subject = f"Ludothèque — {title.get('fr', name)} : partie terminée / game over"
            why = " (temps écoulé / on time)" if reason == "time" else ""
            body = (f"Votre partie de {title.get('fr', name)} est terminée{why}.\n"
                    f"Your game of {title.get('en', name)} is over{why}.\n\n{link}\n")
        await self.mailer.send(account.email, subject, body)

    async def _people_changed(self, session: GameSession, *, rate: bool) -> None:
        """After a seat changed hands or the game ended: rate it (once, if rated), then tell its
        readers the seats' people and ratings."""
        snap = session.snapshot
        if rate and snap.result is not None:
            await self.storage.run(self.ratings.rate, session.meta.id, session.meta.game, snap.seats,
                                   snap.result.winners)
        await self.seat_people.refresh(session)
        async with session.lock:
            broadcast(session)
        await self.news.announce({"kind": "people", "game": session.meta.id})
