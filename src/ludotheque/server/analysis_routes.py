"""Analysis of a finished game: the API and its page, and hints in casual games against bots
(docs/analysis.md, "Server").

- ``GET /api/games/{id}/analysis`` (``?as=spectator|players|<seat>``, ``?lang=fr|en``): answers at
  once: ``{"status": "queued"|"running", "done", "total"}`` while the analysis is made (the first
  request starts it, in the bot pool: ``analysis_jobs``), ``{"status": "done", "analysis": {...},
  "chart": "<svg ...>"}`` once it is (kept and shared by everyone), ``{"status": "failed",
  "error"}`` once if it failed. A game not over is a 409 ``game_not_over``; a person with as many
  analyses queued as they may, a 429 ``rate_limited``. ``POST`` the same path: the same answer
  (for clients that prefer to ask with a POST).
- ``GET /games/{id}/analysis``: the page (chart, marked plies, the board at a ply and its better
  line); the finished game's page links to it.
- ``GET /api/games/{id}/hint``: whether the reader's seat may ask a hint, and how many are left;
  ``POST /api/games/{id}/hint``: the ``medium`` bot's choice for the position as the seat to move
  sees it (its seat token or cookie), only in a casual game whose other seats are all bots,
  ``AnalysisSettings.hints`` per seat and game (asked again in the same position, the same hint,
  not counted again).

>>> hint_seed(12345, 7, 0) == hint_seed(12345, 7, 0) != hint_seed(12345, 8, 0)
True
"""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from ..analysis import Analysis
from ..core.contract import Player
from ..core.records import Record
from .analysis_jobs import AnalysisJobs, AnalysisSettings, parse_view
from .analysis_tables import HintUse, give_hint_back, hints_used, keep_hint, take_hint
from .documents import game_record
from .errors import ApiError, quoted
from .hub import Hub
from .identity import Credentials, reading_seat
from .pages import LANGUAGES, answer_page, reader_language, render_page
from .people import people_of
from .routes import credentials_of, guard_origin, hub_of, read_json
from .schemas import EmptyBody, validate
from .sessions import GameSession
from .throttle import owner_of

router = APIRouter()
HINT_LEVEL = "medium"
_SEED_MASK = (1 << 31) - 1


def jobs_of(request: Request) -> AnalysisJobs:
    """This server's analyses (:func:`app_jobs`)."""
    return app_jobs(request.app)


def app_jobs(app: FastAPI) -> AnalysisJobs:
    """The analyses of the started app ``app``, made on first use from its hub's storage and bot
    pool (settings: ``app.state.analysis_settings`` when a test sets it, else the environment)."""
    state = app.state
    jobs: AnalysisJobs | None = getattr(state, "analysis_jobs", None)
    if jobs is None:
        settings = getattr(state, "analysis_settings", None) or AnalysisSettings.from_env()
        hub: Hub = state.hub
        bus = hub.news.bus
        jobs = AnalysisJobs(hub.storage, hub.bots, hub.background, settings,
                            holder=bus.origin if bus is not None else None, alone=bus is None)
        state.analysis_jobs = jobs
    return jobs


async def person_key(request: Request) -> str:
    """Who asks, for the analyses' fair queue and limit: their account, else their address."""
    account = await people_of(request).account_of(request)
    return f"account:{account.id}" if account else f"address:{owner_of(request)}"


def language_of(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked is not None and asked not in LANGUAGES:
        raise ApiError(400, f"unknown language {quoted(asked)}; expected fr or en", "bad_request")
    return asked or reader_language(request)


# -- the analysis ----------------------------------------------------------------------------------
@router.get("/api/games/{game_id}/analysis")
async def read_analysis(request: Request, game_id: str) -> JSONResponse:
    """The analysis of a finished game as ``?as=`` sees it: done, or started and its progress."""
    return await analysis_answer(request, game_id)


@router.post("/api/games/{game_id}/analysis", dependencies=[Depends(guard_origin)])
async def ask_analysis(request: Request, game_id: str) -> JSONResponse:
    """The same as the GET (asking starts it): for clients that ask with a POST."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    return await analysis_answer(request, game_id)


async def analysis_answer(request: Request, game_id: str) -> JSONResponse:
    lang = language_of(request)
    session = await hub_of(request).games.get(game_id)
    snap, meta = session.snapshot, session.meta
    view = parse_view(request.query_params.get("as"), meta.game.players)
    if snap.status != "over":
        raise ApiError(409, f"game {quoted(game_id)} is not over: only a finished game is analysed",
                       "game_not_over")
    jobs = jobs_of(request)
    stored = await jobs.stored(game_id, view)
    if stored is None:
        record = Record.from_json(game_record(meta, snap, None))
        job, _ = await jobs.ask(game_id, view, record, await person_key(request))
        if job.status != "done":
            return JSONResponse(job.progress(), status_code=200)
        stored = await jobs.stored(game_id, view)
        if stored is None:  # done, yet its row is gone (the database restored): make it again
            jobs.drop(game_id, view)
            job, _ = await jobs.ask(game_id, view, record, await person_key(request))
            return JSONResponse(job.progress())
    seconds = stored.pop("seconds", None)
    analysis = Analysis.from_json(stored)
    analysed = sum(1 for entry in analysis.plies if entry.analysed)
    return JSONResponse({"id": game_id, "view": view, "status": "done", "done": analysed, "total": analysed,
                         "seconds": seconds, "analysis": stored, "chart": analysis.svg(lang)})


@router.get("/games/{game_id}/analysis", include_in_schema=False)
async def analysis_page(request: Request, game_id: str) -> Response:
    """The analysis page; its script reads the game and its analysis from the API."""
    lang = reader_language(request)
    values = {"game": html.escape(game_id[:64])}
    return answer_page(request, render_page("analysis.html", lang, values), lang)


# -- hints -----------------------------------------------------------------------------------------
def hint_seed(game_seed: int, ply: int, seat: Player) -> int:
    """The hint bot's seed for a position: the same position, the same hint."""
    return (game_seed * 1_000_003 + ply * 7_919 + seat * 104_729) & _SEED_MASK


def hint_refusal(session: GameSession, seat: Player | None) -> tuple[int, str, str] | None:
    """Why ``seat`` may not ask a hint in ``session`` now (status, code, reason), else ``None``."""
    snap, meta = session.snapshot, session.meta
    refused = "hint_refused"
    if seat is None:
        return 401, "token_required", "a hint is for the player to move: a seat token (or cookie) is required"
    if meta.rated:
        return 403, refused, "no hints in a rated game"
    others = [held for number, held in enumerate(snap.seats) if number != seat]
    if snap.seats[seat].kind != "human" or not others or any(other.kind != "bot" for other in others):
        return 403, refused, "hints are only for casual games against bots (every other seat a bot)"
    if snap.status == "over":
        return 409, "game_over", "the game is over"
    if snap.status != "playing":
        return 409, "not_started", "the game has not started"
    if snap.state.to_move != seat:
        return 409, "not_your_turn", "a hint is for the player to move: another seat is to move"
    return None


async def hint_seat(request: Request, session: GameSession) -> Player | None:
    credentials: Credentials = await credentials_of(request)
    return reading_seat(session, credentials)


def hint_document(session: GameSession, seat: Player | None, used: int, limit: int) -> dict[str, Any]:
    return {"id": session.meta.id, "seat": seat, "level": HINT_LEVEL, "limit": limit,
            "hints_left": max(0, limit - used)}


@router.get("/api/games/{game_id}/hint")
async def read_hints(request: Request, game_id: str) -> JSONResponse:
    """Whether the reader's seat may ask a hint now (``allowed``, else ``reason`` and ``code``),
    and how many it has left."""
    session = await hub_of(request).games.get(game_id)
    seat = await hint_seat(request, session)
    limit = jobs_of(request).settings.hints
    storage = hub_of(request).storage
    used = 0 if seat is None else await storage.run(hints_used, storage.engine, game_id, seat)
    refusal = hint_refusal(session, seat)
    answer = hint_document(session, seat, used, limit)
    answer["allowed"] = refusal is None and used < limit
    if refusal is not None:
        answer["code"], answer["reason"] = refusal[1], refusal[2]
    elif used >= limit:
        answer["code"], answer["reason"] = "no_hints_left", "no hints left"
    return JSONResponse(answer)


@router.post("/api/games/{game_id}/hint", dependencies=[Depends(guard_origin)])
async def ask_hint(request: Request, game_id: str) -> JSONResponse:
    """The ``medium`` bot's move for the reader's seat (the seat to move), counted."""
    data = await read_json(request)
    if data is not None:
        validate(EmptyBody, data)
    hub = hub_of(request)
    session = await hub.games.get(game_id)
    seat = await hint_seat(request, session)
    refusal = hint_refusal(session, seat)
    if refusal is not None:
        raise ApiError(refusal[0], refusal[2], refusal[1])
    assert seat is not None
    snap, limit = session.snapshot, jobs_of(request).settings.hints
    engine = hub.storage.engine
    use: HintUse = await hub.storage.run(take_hint, engine, game_id, seat, snap.ply, limit=limit)
    if not use.allowed:
        raise ApiError(409, f"no hints left: {limit} per player and game",
                       "no_hints_left")
    move = use.move
    if move is None:
        try:
            move = await hub.bots.choose(snap.state, HINT_LEVEL, hint_seed(session.meta.seed, snap.ply, seat),
                                         owner=session.meta.owner)
        except BaseException:
            await hub.storage.run(give_hint_back, engine, game_id, seat)
            raise
        if session.snapshot is not snap:  # a move, takeback or resignation came first
            await hub.storage.run(give_hint_back, engine, game_id, seat)
            raise ApiError(409, "the position changed while the hint was thought: ask again", "stale_ply")
        await hub.storage.run(keep_hint, engine, game_id, seat, snap.ply, move)
    answer = hint_document(session, seat, use.used, limit)
    answer.update({"move": move, "ply": snap.ply, "game": session.meta.game.id})
    return JSONResponse(answer)
