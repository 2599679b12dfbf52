"""Players over HTTP: "my games" (whose turn, deadlines), a player's public page (ratings over
time, games with filters, current games) and the bots' calibrated ratings.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from ..core.registry import games
from .account_routes import require_account
from .accounts import Account
from .botratings import all_bot_ratings
from .errors import ApiError, quoted
from .routes import guard_origin, hub_of

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])
RESULTS = ("won", "lost", "drawn")
STATUSES = ("playing", "over")


@router.get("/me/games")
async def my_games(request: Request) -> dict[str, Any]:
    """The games the browser's person (or personal token) holds a seat of, waiting or being
    played: ``your_turn`` counts those where they are to move."""
    account = await require_account(request)
    listed = await hub_of(request).game_lists.my_games(account.id)
    return {"games": listed, "your_turn": sum(entry["your_turn"] for entry in listed)}


async def _player(request: Request, name: str) -> Account:
    found = await hub_of(request).game_lists.player(name)
    if found is None:
        raise ApiError(404, f"no player {quoted(name)}", "not_found")
    return found


@router.get("/players/{name}")
async def player(request: Request, name: str) -> dict[str, Any]:
    """A player's page: name, ratings per category with their history, current games."""
    account = await _player(request, name)
    lists = hub_of(request).game_lists
    ratings = await lists.ratings_of(account.id)
    current = await lists.player_games(account.id, game=None, result=None, status="playing")
    return {"name": account.name, "created": account.created, "ratings": ratings, "current": current}


@router.get("/players/{name}/games")
async def player_games(request: Request, name: str, game: str | None = None, result: str | None = None,
                       status: str | None = None) -> dict[str, Any]:
    """A player's games, newest first: ``?game=`` one game, ``?result=won|lost|drawn``,
    ``?status=playing|over``."""
    if game is not None and game not in games():
        raise ApiError(400, f"unknown game {quoted(game)}", "unknown_game")
    if result is not None and result not in RESULTS:
        raise ApiError(400, f"unknown result {quoted(result)}; expected won, lost or drawn", "bad_request")
    if status is not None and status not in STATUSES:
        raise ApiError(400, f"unknown status {quoted(status)}; expected playing or over", "bad_request")
    account = await _player(request, name)
    lists = hub_of(request).game_lists
    listed = await lists.player_games(account.id, game=game, result=result, status=status)
    return {"name": account.name, "games": listed}


@router.get("/bots")
async def bots() -> dict[str, Any]:
    """The bots' public ratings, calibrated from the arena (they never move)."""
    return {"bots": all_bot_ratings()}
