"""Puzzles over HTTP (the page ``/puzzles/<game>``): the next puzzle near the person's rating, the
answers judged by the engine (:mod:`ludotheque.puzzles`), the ratings moved in the database.

- ``GET /api/puzzles/{game}/next`` (``?lang=``): a puzzle the person has not tried, one of those
  whose rating is nearest theirs, with its position as the solver sees it (``view``,
  ``legal_moves``) and the person's puzzle ``rating``; ``404 not_found`` once every puzzle was tried.
  ``?source=tables``: only the "win in N" puzzles drawn from the game's solved tables (each under
  its own ``variant``, Pylos's kids rules); a source the game has none of is a 400.
- ``GET /api/puzzles/{game}/{id}``: that puzzle, the same way.
- ``POST /api/puzzles/{game}/{id}/answer`` ``{"move": "...", "step": 0}``: right or wrong; for a
  right move that does not end the puzzle, the ``replies`` the line plays and the position after
  them (the next ``step``); once the puzzle ends (solved or failed), the ``solution`` and, for the
  person's first try, the rating ``change`` of the person and of the puzzle. A move that is not
  notation is a 400 ``not_notation``, an illegal one a 409 ``illegal_move``, a step out of range
  a 400 ``bad_request``; a step that is not the rated try's next one a 409 ``stale_ply``.

What is sent never holds more than the solver may see: no seed; the moves from the start masked as
the solver's view masks them; for a game that hides information, the line is the solver's one move.
The person is the request's account (a player or a guest; a page's request ``?cookie=1`` gets a new
guest); a client with no person is judged with nothing kept (``rating`` null).
"""

from __future__ import annotations

import html
import random
from dataclasses import replace
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from .. import puzzles
from ..core.errors import IllegalMoveError, InvalidMoveError
from ..core.records import masked_moves
from ..core.registry import games, info
from .accounts import Account
from .errors import ApiError, quoted
from .lesson_routes import language_of, person_of
from .openapi import request_body
from .pages import answer_page, pick_words, reader_language, render_page, word
from .people import people_of
from .puzzle_tables import Outcome, PuzzleStore
from .routes import guard_origin, hub_of, keep_new_guest, read_json
from .schemas import Strict, validate

# The API and the page on one router (the app includes ``router``); POSTs guarded as the API's.
router = APIRouter(dependencies=[Depends(guard_origin)])
_random = random.SystemRandom()


class AnswerBody(Strict):
    move: Annotated[str, Field(max_length=1000)]
    step: Annotated[int, Field(ge=0, le=1000)] = 0


# -- the puzzles, read once ------------------------------------------------------------------------
@cache
def _set(game_id: str) -> puzzles.PuzzleSet | None:
    try:
        return puzzles.load_puzzles(game_id)
    except puzzles.PuzzleError:
        return None


def set_of(game_id: str) -> puzzles.PuzzleSet:
    """The puzzles of ``game_id``; 404 ``unknown_game`` or ``not_found`` (none installed)."""
    if game_id not in games():
        raise ApiError(404, f"unknown game {quoted(game_id)}; known games: {', '.join(games())}",
                       "unknown_game")
    found = _set(game_id)
    if found is None or not found.puzzles:
        raise ApiError(404, f"{game_id}: no puzzles are installed", "not_found")
    return found


def puzzle_of(found: puzzles.PuzzleSet, puzzle_id: str) -> puzzles.Puzzle:
    try:
        return found.by_id(puzzle_id)
    except KeyError:
        raise ApiError(404, f"{found.game}: no puzzle {quoted(puzzle_id)}", "not_found") from None


@cache
def _known_moves(puzzle: puzzles.Puzzle) -> tuple[str, ...]:
    """The moves from the start as the solver may know them (another player's secrets masked)."""
    game = puzzles.game_of(puzzle)
    states = [game.new_state(seed=puzzle.seed)]
    for text in puzzle.moves:
        states.append(states[-1].play(text))
    return tuple(masked_moves(game, states, puzzle.moves, puzzle.solver))


@cache
def sources_of(game_id: str) -> list[str]:
    """Where the game's puzzles come from (``self-play``, ``record``, ``tables``: "win in N" drawn
    from its solved tables), for the page's choice of puzzles."""
    found = _set(game_id)
    return sorted({puzzle.source for puzzle in found.puzzles}) if found is not None else []


def position_document(puzzle: puzzles.Puzzle, step: int) -> dict[str, Any]:
    """The position of ``step`` as the solver sees it: the view and the legal moves."""
    state = puzzles.state_at(puzzle, step)
    return {"step": step, "view": state.view(puzzle.solver),
            "legal_moves": [str(move) for move in state.legal_moves()]}


def shown_rating(rating: puzzles.Rating) -> dict[str, Any]:
    return {"rating": round(rating.rating), "deviation": round(rating.deviation),
            "provisional": rating.provisional, "attempts": rating.attempts}


def puzzle_document(puzzle: puzzles.Puzzle, lang: str, own: puzzles.Rating,
                    person: puzzles.Rating | None) -> dict[str, Any]:
    """A puzzle as the API gives it, at its first step (never its line)."""
    return {
        "game": puzzle.game, "id": puzzle.id, "lang": lang,
        "title": pick_words(info(puzzle.game).title, lang),
        "variant": puzzle.variant, "players": puzzle.players, "solver": puzzle.solver,
        "theme": puzzle.theme, "plies": puzzle.plies, "steps": puzzles.steps(puzzle),
        "source": puzzle.source, "sources": sources_of(puzzle.game),
        "moves": list(_known_moves(puzzle)), "puzzle_rating": shown_rating(own),
        "rating": shown_rating(person) if person is not None else None,
        **position_document(puzzle, 0),
    }


# -- the person and their ratings ------------------------------------------------------------------
def store_of(request: Request) -> PuzzleStore:
    return PuzzleStore(hub_of(request).storage.engine)


async def ratings_of(request: Request, account: Account | None, puzzle: puzzles.Puzzle
                     ) -> tuple[puzzles.Rating, puzzles.Rating | None]:
    """The puzzle's rating and the person's (``None`` without a person)."""
    store = store_of(request)
    run = hub_of(request).storage.run
    own = await run(store.puzzle_rating, puzzle.game, puzzle.id, puzzles.puzzle_rating(puzzle))
    person = await run(store.person_rating, account.id, puzzle.game) if account is not None else None
    return own, person


def answer(request: Request, body: dict[str, Any]) -> JSONResponse:
    response = JSONResponse(body)
    keep_new_guest(request, response)
    return response


# -- the routes ------------------------------------------------------------------------------------
@router.get("/api/puzzles/{game_id}/next")
async def next_puzzle(request: Request, game_id: str, source: str | None = None) -> JSONResponse:
    """A puzzle the person has not tried, near their rating (one of the nearest, at random);
    ``?source=tables`` only among those of that source (the "win in N" of the solved tables)."""
    found = set_of(game_id)
    if source is not None:
        if source not in sources_of(game_id):
            raise ApiError(400, f"{game_id}: no puzzles from {quoted(source)}; sources: "
                                f"{', '.join(sources_of(game_id))}", "bad_request")
        found = replace(found, puzzles=tuple(p for p in found.puzzles if p.source == source))
    lang = language_of(request)
    account = await person_of(request)
    store = store_of(request)
    run = hub_of(request).storage.run
    person = await run(store.person_rating, account.id, game_id) if account is not None else puzzles.Rating()
    tried = await run(store.tried, account.id, game_id) if account is not None else set()
    ratings = await run(store.puzzle_ratings, game_id)
    chosen = puzzles.nearest(found.puzzles, ratings, person.rating, tried, _random)
    if chosen is None:
        raise ApiError(404, f"{game_id}: you have tried every puzzle", "not_found")
    own, shown = await ratings_of(request, account, chosen)
    return answer(request, puzzle_document(chosen, lang, own, shown))


@router.get("/api/puzzles/{game_id}/{puzzle_id}")
async def read_puzzle(request: Request, game_id: str, puzzle_id: str) -> JSONResponse:
    """One puzzle, at its first step."""
    puzzle = puzzle_of(set_of(game_id), puzzle_id)
    lang = language_of(request)
    account = await people_of(request).account_of(request)
    own, person = await ratings_of(request, account, puzzle)
    return JSONResponse(puzzle_document(puzzle, lang, own, person))


@router.post("/api/puzzles/{game_id}/{puzzle_id}/answer", openapi_extra=request_body(AnswerBody))
async def answer_puzzle(request: Request, game_id: str, puzzle_id: str) -> JSONResponse:
    """Judge a move at a step of the puzzle; the person's first try moves both ratings once it ends."""
    data = await read_json(request)
    puzzle = puzzle_of(set_of(game_id), puzzle_id)
    if data is None:
        raise ApiError(400, 'a JSON body {"move": "<notation>", "step": 0} is required', "bad_request")
    body = validate(AnswerBody, data)
    if body.step >= puzzles.steps(puzzle):
        raise ApiError(400, f"{puzzle.id}: no step {body.step}; the puzzle has {puzzles.steps(puzzle)}",
                       "bad_request")
    try:
        verdict = puzzles.judge(puzzle, body.step, body.move)
    except InvalidMoveError as error:
        raise ApiError(400, str(error), "not_notation") from None
    except IllegalMoveError as error:
        raise ApiError(409, str(error), "illegal_move") from None
    except ValueError as error:
        raise ApiError(400, str(error), "not_notation") from None
    account = await person_of(request)
    outcome: Outcome | None = None
    if account is not None:
        store = store_of(request)
        default = puzzles.puzzle_rating(puzzle)
        outcome = await hub_of(request).storage.run(
            lambda: store.answer(account.id, game_id, puzzle.id, default, step=body.step, right=verdict.right,
                                 done=verdict.done))
        if outcome.stale:
            raise ApiError(409, f"{puzzle.id}: your try is not at step {body.step}; start the puzzle "
                           "again from its first step", "stale_ply")
    state = puzzles.state_at(puzzle, body.step).play(verdict.move)
    for reply in verdict.replies:
        state = state.play(reply)
    result: dict[str, Any] = {
        "id": puzzle.id, "right": verdict.right, "move": verdict.move, "replies": list(verdict.replies),
        "done": verdict.done, "solved": verdict.right and verdict.done, "step": verdict.step,
        "view": state.view(puzzle.solver),
        "legal_moves": [] if verdict.done else [str(move) for move in state.legal_moves()],
        "solution": list(puzzle.line) if verdict.done else None,
        "rated": bool(outcome and outcome.rated),
        "rating": shown_rating(outcome.after) if outcome is not None else None,
        "change": round(outcome.after.rating - outcome.before.rating) if outcome and outcome.rated else None,
        "puzzle_rating": shown_rating(outcome.puzzle) if outcome is not None else None,
    }
    return answer(request, result)


# -- the page --------------------------------------------------------------------------------------
@router.get("/puzzles/{game_id}", include_in_schema=False)
async def puzzles_page(request: Request, game_id: str) -> Response:
    """A game's puzzles, one at a time, filled by ``puzzles.js``; 404 for a game unknown or with
    no puzzles (the page says so)."""
    lang = reader_language(request)
    known = game_id in games() and _set(game_id) is not None
    return answer_page(request, render_page("puzzles.html", lang, page_values(game_id, lang, known)), lang,
                       200 if known else 404)


def page_values(game_id: str, lang: str, known: bool) -> dict[str, str]:
    """What the page's template leaves to the registry: the title, the game, the board's script."""
    title = pick_words(info(game_id).title, lang) if game_id in games() else game_id[:40]
    heading = f"{word('puzzles.title', lang)} — {title}" if known else word("puzzles.title", lang)
    return {
        "page-title": html.escape(f"{heading} — Ludothèque"),
        "heading": html.escape(heading),
        "game": html.escape(game_id if known else ""),
        "rules": html.escape(f"/rules/{game_id}" if game_id in games() else "/"),
        "unknown": "" if known else (
            f'<p class="message">{html.escape(word("puzzles.unknown", lang, game=game_id[:40]))}</p>'),
    }
