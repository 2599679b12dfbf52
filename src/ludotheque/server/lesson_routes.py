"""Lessons over HTTP (the page ``/learn/<game>``): a game's course, the answers judged by the engine
(:mod:`ludotheque.lessons`), and each person's progress kept in the database.

- ``GET /api/lessons/{game}`` (``?lang=fr|en``, else the reader's language): the course's steps
  in their public form (no accepted move: :func:`lessons.public`), each with its position's
  ``view`` (as the learner sees it) and ``legal_moves``, and the person's ``progress``. A step's
  position is given as a running game's record is: without its seed, the moves masked as the
  learner's view masks them (another player's secret setup).
- ``POST /api/lessons/{game}/{step}/answer`` ``{"move": "..."}``: right or wrong, with the step's
  explanation, the view after the move and the progress; a move that is not notation is a 400
  ``not_notation``, an illegal one a 409 ``illegal_move`` (nothing is judged, nothing kept).
- ``POST /api/lessons/{game}/{step}/game`` ``{"id": "<game id>"}``: the last step, a whole game
  against a bot, started by the page through ``POST /api/games`` (the person's seat ``human``, the
  others ``bot:<opponent>``). It counts as done once that stored game is over and won by the
  person's seat; 409 ``game_not_over`` while it is played.
- ``POST /api/lessons/{game}/reset``: forget this game's progress (start the course over).

The person is the request's account (a player or a guest); a page's request (``?cookie=1``) of a
browser with no session gets a guest, as game creation does. A client with no person gets its
answers judged, with nothing kept (``progress.kept`` is false).

>>> answer_body = AnswerBody(move="1a1")
>>> answer_body.move
'1a1'
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from .. import lessons
from ..core.contract import Game, State
from ..core.errors import IllegalMoveError, InvalidMoveError
from ..core.records import masked_moves
from ..core.registry import games, info
from .accounts import Account
from .errors import ApiError, quoted
from .lesson_tables import DatabaseProgressStore
from .openapi import request_body
from .pages import LANGUAGES, reader_language
from .people import people_of
from .routes import guard_origin, guest_for_cookie_request, hub_of, keep_new_guest, read_json
from .schemas import Strict, validate

router = APIRouter(prefix="/api", dependencies=[Depends(guard_origin)])


class AnswerBody(Strict):
    move: Annotated[str, Field(max_length=1000)]


class GameBody(Strict):
    id: Annotated[str, Field(min_length=1, max_length=64)]


# -- the courses, read once ------------------------------------------------------------------------
@cache
def _course(game_id: str) -> lessons.Course | None:
    try:
        return lessons.load_course(game_id)
    except lessons.LessonError:
        return None


def course_of(game_id: str) -> lessons.Course:
    """The course of ``game_id``; 404 ``unknown_game`` for no such game, ``not_found`` for a game
    that ships no lessons."""
    if game_id not in games():
        raise ApiError(404, f"unknown game {quoted(game_id)}; known games: {', '.join(games())}",
                       "unknown_game")
    course = _course(game_id)
    if course is None:
        raise ApiError(404, f"{game_id}: no lessons are installed", "not_found")
    return course


def step_of(course: lessons.Course, step_id: str) -> lessons.Step:
    try:
        return course.steps[course.index(step_id)]
    except KeyError:
        raise ApiError(404, f"{course.game}: no lesson step {quoted(step_id)}", "not_found") from None


@cache
def _position(game_id: str, step_id: str) -> tuple[Game, State, dict[str, Any], tuple[str, ...]]:
    """A step's game, state, the learner's view and the legal moves (as texts), computed once."""
    step = step_of(course_of(game_id), step_id)
    game, state = lessons.rebuild(step)
    legal = () if step.is_game or state.is_over else tuple(str(move) for move in state.legal_moves())
    return game, state, state.view(lessons.learner(step, state)), legal


@cache
def _known_moves(game_id: str, step_id: str) -> tuple[str, ...]:
    """The moves of a step's position as the learner may know them (as a running game's record
    gives them: another player's secret setup masked)."""
    step = step_of(course_of(game_id), step_id)
    game, state = lessons.rebuild(step)
    states = [game.new_state(seed=step.position.seed)]
    for text in step.position.moves:
        states.append(states[-1].play(text))
    return tuple(masked_moves(game, states, step.position.moves, lessons.learner(step, state)))


def language_of(request: Request) -> str:
    """``?lang=`` (400 when it is neither ``fr`` nor ``en``), else the reader's language."""
    asked = request.query_params.get("lang")
    if asked is not None and asked not in LANGUAGES:
        raise ApiError(400, f"unknown language {quoted(asked)}; expected fr or en", "bad_request")
    return asked or reader_language(request)


def step_document(course: lessons.Course, number: int, lang: str, progress: lessons.Progress
                  ) -> dict[str, Any]:
    step = course.steps[number]
    _, state, view, legal = _position(course.game, step.id)
    shown = lessons.public(step, lang)
    # As a running game's record: no seed, the moves as the learner may know them.
    position = {key: value for key, value in shown["position"].items() if key != "seed"}
    position["moves"] = list(_known_moves(course.game, step.id))
    return {**shown, "position": position, "number": number + 1, "learner": lessons.learner(step, state),
            "view": view, "legal_moves": list(legal), "done": step.id in progress.done_in(course.game)}


def progress_document(course: lessons.Course, progress: lessons.Progress, kept: bool) -> dict[str, Any]:
    """The person's progress in ``course``: the steps done (in course order), the index of the
    first step not done (``count`` once finished), whether it is kept (a person) or not."""
    done = progress.done_in(course.game)
    return {"done": [step.id for step in course.steps if step.id in done], "next": progress.next_step(course),
            "count": len(course.steps), "finished": progress.finished(course), "kept": kept}


# -- the person and their progress ---------------------------------------------------------------
async def person_of(request: Request) -> Account | None:
    """The request's account, else a new guest for a page's request (``?cookie=1``), else nobody."""
    return await people_of(request).account_of(request) or await guest_for_cookie_request(request)


def store_of(request: Request) -> DatabaseProgressStore:
    return DatabaseProgressStore(hub_of(request).storage.engine)


async def load_progress(request: Request, account: Account | None) -> lessons.Progress:
    if account is None:
        return lessons.Progress()
    store = store_of(request)
    return await hub_of(request).storage.run(store.load, account.id)


async def save_progress(request: Request, account: Account, change: Any) -> lessons.Progress:
    """Apply ``change`` (Progress -> Progress) to the stored progress and keep it; the new one."""
    store = store_of(request)

    def apply() -> lessons.Progress:
        progress: lessons.Progress = change(store.load(account.id))
        store.save(account.id, progress)
        return progress

    return await hub_of(request).storage.run(apply)


def answer(request: Request, body: dict[str, Any]) -> JSONResponse:
    response = JSONResponse(body)
    keep_new_guest(request, response)
    return response


# -- the routes ------------------------------------------------------------------------------------
@router.get("/lessons/{game_id}")
async def read_course(request: Request, game_id: str) -> JSONResponse:
    """The course in the reader's language, every step with its position, and the person's progress."""
    course = course_of(game_id)
    lang = language_of(request)
    account = await people_of(request).account_of(request)
    progress = await load_progress(request, account)
    return JSONResponse({
        "game": course.game, "lang": lang, "title": info(course.game).title.get(lang, course.game),
        "steps": [step_document(course, number, lang, progress) for number in range(len(course.steps))],
        "progress": progress_document(course, progress, account is not None),
    })


@router.post("/lessons/{game_id}/{step_id}/answer", openapi_extra=request_body(AnswerBody))
async def answer_step(request: Request, game_id: str, step_id: str) -> JSONResponse:
    """Judge a move as the answer to a step; a right one is kept in the person's progress."""
    data = await read_json(request)
    course = course_of(game_id)
    step = step_of(course, step_id)
    lang = language_of(request)
    if data is None:
        raise ApiError(400, 'a JSON body {"move": "<notation>"} is required', "bad_request")
    body = validate(AnswerBody, data)
    if step.is_game:
        raise ApiError(400, f"step {quoted(step.id)} is a whole game against a bot: start it with POST "
                       f"/api/games, then send its id to /api/lessons/{course.game}/{step.id}/game",
                       "bad_request")
    game, state, _, _ = _position(course.game, step.id)
    try:
        verdict = lessons.check(step, state, body.move, lang)
    except InvalidMoveError as error:
        raise ApiError(400, str(error), "not_notation") from None
    except IllegalMoveError as error:
        raise ApiError(409, str(error), "illegal_move") from None
    except ValueError as error:
        raise ApiError(400, str(error), "not_notation") from None
    after = state.play(game.parse_move(state, verdict.move))
    account = await person_of(request)
    if account is not None and verdict.right:
        progress = await save_progress(request, account, lambda old: old.with_done(course.game, step.id))
    else:
        progress = await load_progress(request, account)
    return answer(request, {
        "step": step.id, "right": verdict.right, "move": verdict.move, "explanation": verdict.explanation,
        "view": after.view(lessons.learner(step, state)),
        "progress": progress_document(course, progress, account is not None),
    })


@router.post("/lessons/{game_id}/{step_id}/game", openapi_extra=request_body(GameBody))
async def check_game(request: Request, game_id: str, step_id: str) -> JSONResponse:
    """The last step: whether the game ``id`` (this course's game, the person's seat against the
    step's bot) is over and won by the person; the step is done when it is."""
    data = await read_json(request)
    course = course_of(game_id)
    step = step_of(course, step_id)
    lang = language_of(request)
    if data is None:
        raise ApiError(400, 'a JSON body {"id": "<game id>"} is required', "bad_request")
    body = validate(GameBody, data)
    if not step.is_game:
        raise ApiError(400, f"step {quoted(step.id)} is answered with a move, not a game", "bad_request")
    session = await hub_of(request).get(body.id)
    meta, snap = session.meta, session.snapshot
    if meta.game.id != course.game:
        raise ApiError(400, f"game {quoted(body.id)} is a game of {meta.game.id}, not of {course.game}",
                       "bad_request")
    account = await people_of(request).account_of(request)
    if account is None or step.seat not in session.seats_of_account(account.id):
        raise ApiError(400, f"you do not hold seat {step.seat + 1} of game {quoted(body.id)}", "bad_request")
    others = [seat for number, seat in enumerate(snap.seats) if number != step.seat]
    if not all(seat.kind == "bot" and seat.level == step.opponent for seat in others):
        raise ApiError(400, f"game {quoted(body.id)} is not a game against the {step.opponent} bot",
                       "bad_request")
    if snap.status != "over" or snap.result is None:
        raise ApiError(409, f"game {quoted(body.id)} is not over yet", "game_not_over")
    right = step.seat in snap.result.winners
    if right:
        progress = await save_progress(request, account, lambda old: old.with_done(course.game, step.id))
    else:
        progress = await load_progress(request, account)
    return answer(request, {
        "step": step.id, "right": right, "game_id": body.id,
        "explanation": step.words("right" if right else "wrong", lang),
        "progress": progress_document(course, progress, True),
    })


@router.post("/lessons/{game_id}/reset")
async def reset_course(request: Request, game_id: str) -> JSONResponse:
    """Forget the person's progress in this course (to start it over)."""
    course = course_of(game_id)
    account = await people_of(request).account_of(request)
    if account is None:
        return answer(request, {"progress": progress_document(course, lessons.Progress(), False)})
    progress = await save_progress(request, account, lambda old: old.reset(course.game))
    return answer(request, {"progress": progress_document(course, progress, True)})
