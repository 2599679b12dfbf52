"""Lessons: a course per game, from the setup to a first game won against ``easy``.

A course is data: ``lessons.json`` in the game's own package (``GameInfo.resource``), so a game
installed from another distribution brings its own (the format: ``docs/lessons.md``). Each step is
a position given in notation (game, variant, players, seed and the moves from the start, which
the engine replays), a task, and what counts as a right answer: a set of accepted moves, or a
rule of a small vocabulary (:data:`RULES`, and the game's own in its package's
``lesson_rules`` module) that the engine evaluates on the position after
the move. The last step of a course is a whole game against a bot (rule ``win_game``).

This module prints nothing and serves nothing: the terminal (``ludotheque learn``) and the web page
(``/learn/<game>``) both build on it. Progress is a small value (:class:`Progress`: the steps done,
per game) kept by a :class:`ProgressStore`; :class:`FileProgressStore` keeps it in a JSON file
under the user's data folder.

>>> course = load_course("pylos")
>>> len(course.steps) >= 8 and course.steps[-1].is_game
True
>>> step = course.steps[0]
>>> game, state = rebuild(step)
>>> check(step, state, step.answer.moves[0] if step.answer.moves else "", "en").right
True
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from .core import Game, State, games, info, load

LANGUAGES = ("fr", "en")
FORMAT = 1
FILE_NAME = "lessons.json"

RuleTest = Callable[[State, Any, State, int, Mapping[str, Any]], bool]
# A game's own rules: its package's ``lesson_rules`` module, whose ``RULES`` maps a name to a Rule.
GAME_RULES_MODULE = "lesson_rules"


@dataclass(frozen=True)
class Rule:
    """A rule a step's answer may name: the parameters it takes (all optional) and its test
    (``None``: judged on the whole game, see :func:`judge_game`)."""

    params: tuple[str, ...]
    test: RuleTest | None


Words = Mapping[str, str]


class LessonError(ValueError):
    """A lessons file that cannot be used; the message names the file and the step."""


@dataclass(frozen=True)
class Position:
    """A position in notation: the engine replays ``moves`` from ``new_state(seed)``."""

    game: str
    variant: str | None
    players: int | None
    seed: int
    moves: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "variant": self.variant, "players": self.players, "seed": self.seed,
                "moves": list(self.moves)}


@dataclass(frozen=True)
class Answer:
    """What counts as right: one of the accepted ``moves`` (canonical texts), or a ``rule``."""

    moves: tuple[str, ...] = ()
    rule: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        if self.rule is None:
            return {"moves": list(self.moves)}
        return {"rule": self.rule, **self.params}


@dataclass(frozen=True)
class Step:
    """One step of a course."""

    id: str
    title: Words
    text: Words
    task: Words
    position: Position
    answer: Answer
    right: Words
    wrong: Words
    hint: Words | None = None

    @property
    def is_game(self) -> bool:
        """A whole game against a bot (the course's last step)."""
        return self.answer.rule == "win_game"

    @property
    def opponent(self) -> str:
        return str(self.answer.params.get("opponent", "easy"))

    @property
    def seat(self) -> int:
        return int(self.answer.params.get("seat", 0))

    def words(self, key: str, lang: str) -> str:
        """``title``, ``text``, ``task``, ``right``, ``wrong`` or ``hint`` in ``lang`` ("" if none)."""
        value: Words | None = getattr(self, key)
        if value is None:
            return ""
        return value.get(lang) or value.get("en") or next(iter(value.values()), "")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "title": dict(self.title), "text": dict(self.text),
                                "task": dict(self.task), "position": self.position.to_json(),
                                "answer": self.answer.to_json(), "right": dict(self.right),
                                "wrong": dict(self.wrong)}
        if self.hint is not None:
            data["hint"] = dict(self.hint)
        return data


@dataclass(frozen=True)
class Course:
    """A game's course: its steps in order, and the file they came from."""

    game: str
    steps: tuple[Step, ...]
    source: str = ""

    def index(self, step_id: str) -> int:
        """The position of step ``step_id`` in the course; raises ``KeyError``."""
        for number, step in enumerate(self.steps):
            if step.id == step_id:
                return number
        raise KeyError(step_id)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "steps": [step.to_json() for step in self.steps]}


@dataclass(frozen=True)
class Verdict:
    """The judgement of an answer: right or wrong, with the step's explanation in one language."""

    right: bool
    move: str
    explanation: str


# -- loading ---------------------------------------------------------------------------------------
def lessons_file(game_id: str) -> Any:
    """The game's ``lessons.json`` (a ``Traversable``), or ``None`` when its package ships none."""
    return info(game_id).resource(FILE_NAME)


def has_lessons(game_id: str) -> bool:
    try:
        return lessons_file(game_id) is not None
    except ValueError:
        return False


def load_course(game_id: str, path: Path | str | None = None) -> Course:
    """The course of ``game_id`` (from its package, or from ``path``), validated: every position
    replays and every accepted move is legal there. Raises :class:`LessonError`."""
    if path is not None:
        source = str(path)
        try:
            raw = Path(path).read_text("utf-8")
        except OSError as error:
            raise LessonError(f"{source}: cannot read: {error.strerror or error}") from None
    else:
        try:
            found = lessons_file(game_id)
        except ValueError as error:
            raise LessonError(str(error)) from None
        if found is None:
            raise LessonError(f"{game_id}: no {FILE_NAME} in its package {info(game_id).package_name}")
        source = f"{info(game_id).package_name.replace('.', '/')}/{FILE_NAME}"
        raw = found.read_text("utf-8")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise LessonError(f"{source}: not JSON: {error}") from None
    course = parse_course(data, source)
    if course.game != game_id:
        raise LessonError(f"{source}: lessons of {course.game!r}, not of {game_id!r}")
    for step in course.steps:
        validate_step(step, source)
    return course


def parse_course(data: Any, source: str = "<lessons>") -> Course:
    """A course from its JSON value; checks the shape only (see :func:`validate_step` for the rest)."""
    if not isinstance(data, dict):
        raise LessonError(f"{source}: the file must hold an object with 'format', 'game' and 'steps'")
    if data.get("format") != FORMAT:
        raise LessonError(f"{source}: 'format' must be {FORMAT}, not {data.get('format')!r}")
    game_id = data.get("game")
    if not isinstance(game_id, str) or not game_id:
        raise LessonError(f"{source}: 'game' must be a game id")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonError(f"{source}: 'steps' must be a non-empty list")
    parsed: list[Step] = []
    seen: set[str] = set()
    for number, raw in enumerate(steps, 1):
        where = f"{source}: step {number}"
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            where += f" ({raw['id']})"
        step = _parse_step(raw, game_id, where)
        if step.id in seen:
            raise LessonError(f"{where}: the id {step.id!r} is used twice")
        seen.add(step.id)
        parsed.append(step)
    if not parsed[-1].is_game:
        raise LessonError(f"{source}: the last step must be a game against a bot (rule 'win_game')")
    return Course(game_id, tuple(parsed), source)


_STEP_KEYS = {"id", "title", "text", "task", "position", "answer", "right", "wrong", "hint"}


def _parse_step(raw: Any, game_id: str, where: str) -> Step:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a step must be an object")
    unknown = sorted(set(raw) - _STEP_KEYS)
    if unknown:
        raise LessonError(f"{where}: unknown key(s) {', '.join(unknown)}")
    step_id = raw.get("id")
    if not isinstance(step_id, str) or not step_id.strip():
        raise LessonError(f"{where}: 'id' must be a non-empty string")
    words = {key: _words(raw.get(key), key, where) for key in ("title", "text", "task", "right", "wrong")}
    hint = _words(raw["hint"], "hint", where) if raw.get("hint") is not None else None
    return Step(step_id, words["title"], words["text"], words["task"],
                _position(raw.get("position"), game_id, where), _answer(raw.get("answer"), game_id, where),
                words["right"], words["wrong"], hint)


def _words(value: Any, key: str, where: str) -> Words:
    if not isinstance(value, dict):
        raise LessonError(f"{where}: {key!r} must be an object with 'fr' and 'en' texts")
    for lang in LANGUAGES:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            raise LessonError(f"{where}: {key!r} has no {lang!r} text")
    return {lang: str(text) for lang, text in value.items()}


def _position(value: Any, game_id: str, where: str) -> Position:
    if not isinstance(value, dict):
        raise LessonError(f"{where}: 'position' must be an object (game, variant, players, seed, moves)")
    if value.get("game", game_id) != game_id:
        raise LessonError(f"{where}: the position is of {value.get('game')!r}, the file of {game_id!r}")
    variant, players, seed = value.get("variant"), value.get("players"), value.get("seed", 0)
    moves = value.get("moves", [])
    if variant is not None and not isinstance(variant, str):
        raise LessonError(f"{where}: 'variant' must be a string")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise LessonError(f"{where}: 'players' must be a whole number")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**53:
        raise LessonError(f"{where}: 'seed' must be a whole number in [0, 2^53)")
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise LessonError(f"{where}: 'moves' must be a list of move texts")
    return Position(game_id, variant, players, seed, tuple(moves))


def every_rule() -> dict[str, Rule]:
    """Every rule some registered game knows (a rule of another game is refused by
    :func:`validate_step`, with a message that says so)."""
    known: dict[str, Rule] = {}
    for game_id in games():
        known.update({name: rule for name, rule in rules_of(game_id).items() if name not in known})
    return known


def _answer(value: Any, game_id: str, where: str) -> Answer:
    if not isinstance(value, dict):
        raise LessonError(f"{where}: 'answer' must be an object: {{'moves': [...]}} or {{'rule': ...}}")
    if "moves" in value:
        moves = value["moves"]
        if set(value) != {"moves"}:
            raise LessonError(f"{where}: an answer gives 'moves' or a 'rule', not both")
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            raise LessonError(f"{where}: 'moves' must be a non-empty list of move texts")
        return Answer(moves=tuple(moves))
    rule = value.get("rule")
    known = every_rule()
    if not isinstance(rule, str) or rule not in known:
        raise LessonError(f"{where}: unknown rule {rule!r}; rules: {', '.join(known)}")
    params = {key: item for key, item in value.items() if key != "rule"}
    unknown = sorted(set(params) - set(rules_of(game_id).get(rule, known[rule]).params))
    if unknown:
        raise LessonError(f"{where}: rule {rule!r} takes no {', '.join(unknown)}")
    at_least = params.get("at_least", 1)
    if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 1:
        raise LessonError(f"{where}: 'at_least' must be a whole number ≥ 1")
    if not isinstance(params.get("opponent", "easy"), str):
        raise LessonError(f"{where}: 'opponent' must be a bot's name")
    return Answer(rule=rule, params=params)


def validate_step(step: Step, source: str = "<lessons>") -> None:
    """Check ``step`` against its game: the position replays, the accepted moves are legal there
    (written canonically), the rule applies to the game, a game step's seat and bot exist."""
    where = f"{source}: step {step.id}"
    try:
        game, state = rebuild(step)
    except ValueError as error:
        raise LessonError(f"{where}: the position does not replay: {error}") from None
    rule = step.answer.rule
    if rule is not None and rule not in rules_of(step.position.game):
        raise LessonError(f"{where}: rule {rule!r} is not known for {step.position.game}")
    if step.is_game:
        if not 0 <= step.seat < game.players:
            raise LessonError(f"{where}: seat {step.seat} does not exist with {game.players} players")
        from . import ai

        try:
            ai.bot(step.opponent, game, seed=0)
        except ValueError as error:
            raise LessonError(f"{where}: {error}") from None
        return
    if state.is_over:
        raise LessonError(f"{where}: the game is already over in this position")
    legal = {str(move) for move in state.legal_moves()}
    for text in step.answer.moves:
        if text not in legal:
            raise LessonError(f"{where}: the accepted move {text!r} is not legal (or not canonical) there")


# -- positions and answers ----------------------------------------------------------------------
def rebuild(step: Step | Position) -> tuple[Game, State]:
    """The game and the state of a step's position; raises ``ValueError`` when it does not replay."""
    position = step.position if isinstance(step, Step) else step
    game = load(position.game, variant=position.variant, players=position.players)
    state = game.new_state(seed=position.seed)
    for number, text in enumerate(position.moves, 1):
        try:
            state = state.play(game.parse_move(state, text))
        except ValueError as error:
            raise ValueError(f"move {number} {text!r}: {error}") from None
    return game, state


def learner(step: Step, state: State) -> int | None:
    """The player who answers the step: the seat of a game step, else the player to move."""
    return step.seat if step.is_game else state.to_move


def accepts(step: Step, before: State, move: Any, after: State) -> bool:
    """Whether ``move`` (played from ``before``, giving ``after``) answers ``step``."""
    answer = step.answer
    if answer.rule is None:
        return str(move) in answer.moves
    test = rules_of(step.position.game)[answer.rule].test
    if test is None:  # win_game: judged on the finished game, see judge_game
        return False
    mover = before.to_move
    assert mover is not None
    return test(before, move, after, mover, answer.params)


def check(step: Step, state: State, text: str, lang: str) -> Verdict:
    """Judge the move ``text`` as the answer to ``step`` in ``state`` (the step's position): right
    or wrong, with the explanation in ``lang``. Raises ``ValueError`` (the engine's error, naming
    the input) when the move is malformed or illegal: that is no answer yet."""
    if step.is_game:
        raise ValueError(f"step {step.id} is a whole game: judge it with judge_game")
    game = load(step.position.game, variant=step.position.variant, players=step.position.players)
    move = game.parse_move(state, text)
    after = state.play(move)
    right = accepts(step, state, move, after)
    return Verdict(right, str(move), step.words("right" if right else "wrong", lang))


def judge_game(step: Step, state: State, lang: str) -> Verdict:
    """The verdict on a finished game step: right when the learner's seat is among the winners."""
    right = state.is_over and step.seat in state.result().winners
    return Verdict(right, "", step.words("right" if right else "wrong", lang))


def right_moves(step: Step, state: State) -> list[str]:
    """Every legal move judged right in ``state`` (canonical texts, legal order)."""
    if step.is_game:
        return []
    return [str(move) for move in state.legal_moves() if accepts(step, state, move, state.play(move))]


def public(step: Step, lang: str) -> dict[str, Any]:
    """What a front end shows of ``step`` in ``lang`` (JSON-serialisable; the accepted moves are
    left out, so that a page cannot give the answer away): id, title, text, task, hint, whether it
    is a whole game (and against which bot, on which seat) and its position in notation."""
    data: dict[str, Any] = {
        "id": step.id, "title": step.words("title", lang), "text": step.words("text", lang),
        "task": step.words("task", lang), "hint": step.words("hint", lang) or None,
        "game": step.is_game, "position": step.position.to_json(),
    }
    if step.is_game:
        data["opponent"], data["seat"] = step.opponent, step.seat
    return data


def hint(step: Step, lang: str) -> str:
    """The step's hint in ``lang``, else its task again."""
    return step.words("hint", lang) or step.words("task", lang)


# -- the rules --------------------------------------------------------------------------------------
def _wins(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return after.is_over and mover in after.result().winners


def _opponents_pieces(state: State, mover: int) -> int:
    """How many pieces the players not on ``mover``'s side have on the board (the view's
    ``pieces``, a count per player, or its ``cells``, an owner per cell)."""
    view = state.view(None)
    pieces = view.get("pieces")
    if isinstance(pieces, list):
        return sum(count for player, count in enumerate(pieces) if player != mover)
    cells = view.get("cells")
    if isinstance(cells, dict):
        return sum(1 for owner in cells.values() if owner != mover)
    raise ValueError(f"{view.get('game')}: the rule 'captures' cannot count this game's pieces")


def _captures(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    lost = _opponents_pieces(before, mover) - _opponents_pieces(after, mover)
    return lost >= int(params.get("at_least", 1))


def _gains(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    scores_before, scores_after = before.view(None).get("scores"), after.view(None).get("scores")
    if not isinstance(scores_before, list) or not isinstance(scores_after, list):
        raise ValueError(f"{before.view(None).get('game')}: the rule 'gains' needs scores in the view")
    return bool(scores_after[mover] > scores_before[mover])


# The rules every game may use; a game's ``lesson_rules`` adds its own and may redefine these
# (``captures`` where its pieces are not counted by ``pieces`` or ``cells``).
RULES: Mapping[str, Rule] = {
    "wins": Rule((), _wins),                    # the move ends the game and the mover is among the winners
    "captures": Rule(("at_least",), _captures),  # the opponents lose at least `at_least` (1) pieces
    "gains": Rule((), _gains),                  # the mover's score (the view's ``scores``) rises
    "win_game": Rule(("opponent", "seat"), None),  # a whole game against a bot, won (the last step)
}


@cache
def rules_of(game_id: str) -> Mapping[str, Rule]:
    """The rules a step of ``game_id`` may name: :data:`RULES`, with its package's own."""
    module_name = f"{info(game_id).package_name}.{GAME_RULES_MODULE}"
    try:
        found = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        found = None
    own: Mapping[str, Rule] = importlib.import_module(module_name).RULES if found is not None else {}
    return {**RULES, **own}


# -- progress --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """The steps a person has done, per game (step ids). A small value: every change is a new one.

    >>> progress = Progress().with_done("pylos", "first-ball")
    >>> Progress.from_json(progress.to_json()) == progress, progress.done_in("pylos")
    (True, frozenset({'first-ball'}))
    """

    done: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def done_in(self, game_id: str) -> frozenset[str]:
        return self.done.get(game_id, frozenset())

    def with_done(self, game_id: str, step_id: str) -> Progress:
        done = dict(self.done)
        done[game_id] = self.done_in(game_id) | {step_id}
        return Progress(done)

    def reset(self, game_id: str) -> Progress:
        return Progress({game: steps for game, steps in self.done.items() if game != game_id})

    def next_step(self, course: Course) -> int:
        """The index of the first step not done (``len(course.steps)``: the course is finished)."""
        done = self.done_in(course.game)
        return next((n for n, step in enumerate(course.steps) if step.id not in done), len(course.steps))

    def finished(self, course: Course) -> bool:
        return self.next_step(course) == len(course.steps)

    def to_json(self) -> dict[str, list[str]]:
        return {game: sorted(steps) for game, steps in sorted(self.done.items()) if steps}

    @classmethod
    def from_json(cls, data: Any) -> Progress:
        """Progress from :meth:`to_json`'s value; anything malformed in it is left out."""
        if not isinstance(data, dict):
            return cls()
        return cls({game: frozenset(s for s in steps if isinstance(s, str))
                    for game, steps in data.items() if isinstance(game, str) and isinstance(steps, list)})


class ProgressStore(Protocol):
    """Where progress is kept, per person (the terminal: a file; the server: its database)."""

    def load(self, person: str) -> Progress: ...

    def save(self, person: str, progress: Progress) -> None: ...


class MemoryProgressStore:
    """Progress in memory (tests; a guest's session before it is kept elsewhere)."""

    def __init__(self) -> None:
        self._people: dict[str, Progress] = {}

    def load(self, person: str) -> Progress:
        return self._people.get(person, Progress())

    def save(self, person: str, progress: Progress) -> None:
        self._people[person] = progress


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/ludotheque``, else ``~/.local/share/ludotheque``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludotheque"


def default_progress_path() -> Path:
    return data_dir() / "progress.json"


class FileProgressStore:
    """Progress in a JSON file: ``{"format": 1, "people": {person: {game: [step ids]}}}``, written
    whole through a temporary file (a crash leaves the old file or the new one). An unreadable or
    malformed file reads as no progress; it is replaced at the next save."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_progress_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        people = data.get("people") if isinstance(data, dict) else None
        return people if isinstance(people, dict) else {}

    def load(self, person: str) -> Progress:
        return Progress.from_json(self._read().get(person))

    def save(self, person: str, progress: Progress) -> None:
        people = self._read()
        people[person] = progress.to_json()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": FORMAT, "people": people}, ensure_ascii=False, indent=1, sort_keys=True)
        handle, temporary = tempfile.mkstemp(prefix=".progress-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text + "\n")
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def courses(games: Iterable[str] | None = None) -> Sequence[str]:
    """The game ids (of ``games``, default every registered one) that ship lessons."""
    from .core import games as game_ids

    return [game for game in (game_ids() if games is None else games) if has_lessons(game)]
