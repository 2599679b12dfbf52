"""Puzzles: positions from self-play and stored games where exactly one move wins (or saves), each
with its solution line, a rating of its own, and the Glicko-2 ratings of the people who solve them.

A game's puzzles are data: ``puzzles.json`` in the game's own package (``GameInfo.resource``),
written by the generator (``python -m ludotheque.puzzles generate GAME``, or ``ludotheque puzzle
GAME --generate N``; the format: ``docs/puzzles.md``). A puzzle is a position in notation (variant,
players, seed and the moves from the start), the seat to move (the *solver*), and its line: the
solver's move first, then each reply and the solver's next move, to the end of the game.

How a puzzle is proven depends on what the game hides:

- **Perfect information, two sides** (Pylos, Ex*Pion: alpha-beta over the game's kernel): a
  *win* puzzle is a position where exactly one move forces a win within ``Budget.plies`` plies,
  found by an exhaustive search (every root move's value exact; every other move searched to the
  same horizon and none wins); at each later step of the line the solver's move is again the only
  one that wins within the plies left. A *save* puzzle is one where every move but one loses by
  force within ``Budget.plies``: the line is that one move.
- **Hidden information** (Plimil, Imbrication): the solver sees only ``view(solver)``, so a puzzle
  is judged over *determinizations of that view* (full states drawn with ``State.determinize``,
  never the true one): each world searched by alpha-beta with every root move's value exact, and
  the move kept when its average over the worlds beats every other move's by ``Budget.gap`` at
  least (a *gap* puzzle). The line is that one move: the replies would depend on what the solver
  cannot see. The page and the API show only the solver's view.

Every puzzle the generator keeps has passed a second, deeper and independent search too
(:func:`check`, fresh seed and worlds, a larger budget): the benchmark
``benchmarks/puzzle_check.py`` re-runs it on every stored puzzle.

Ratings follow lichess: a person has a puzzle rating per game, each puzzle a rating of its own,
both Glicko-2 (``glicko2``), and both move after a person's first try at a puzzle, as one game
between them that the person wins by solving it (:func:`rate`).

>>> found = load_puzzles("pylos")
>>> len(found.puzzles) >= 1 and found.puzzles[0].game == "pylos"
True
>>> puzzle = found.puzzles[0]
>>> judge(puzzle, 0, puzzle.line[0]).right
True
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import glicko2  # type: ignore[import-untyped]

from .core import Game, State, info, load
from .core.errors import RecordError
from .core.records import Record, replay

FORMAT = 1
FILE_NAME = "puzzles.json"
SOLVED_FILE = "puzzles-solved.json"
"""Beside ``puzzles.json``: "win in N" puzzles drawn from the game's solved tables (``source``
``tables``; ``python -m ludotheque.puzzles solved GAME``), served with the others."""
SOLVED_SOURCE = "tables"
SOLVED_PLIES = (3, 5, 7)
THEMES = ("win", "save", "gap")
"""A forced win (perfect information), the only move that does not lose by force, the only move
far better than every other over the determinizations of the solver's view (hidden information)."""
NEW_RATING = 1500.0
NEW_DEVIATION = 350.0
NEW_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
Progress = Callable[[int, int], None]
"""Told ``(puzzles found, puzzles wanted)`` as the generator goes."""


class PuzzleError(ValueError):
    """A puzzles file that cannot be used, or a puzzle that does not replay; the message says which."""


# -- the data --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """What the searches of the generator and of the check may spend. Perfect information: a
    forced win within ``plies`` plies, ``nodes`` positions per search. Hidden information:
    ``worlds`` determinizations, each searched ``depth`` plies within ``nodes`` positions, and a
    move kept when it beats the others by ``gap`` on average (values in [-1, 1])."""

    plies: int = 7
    nodes: int = 150_000
    worlds: int = 8
    depth: int = 3
    gap: float = 0.5

    def __post_init__(self) -> None:
        for name in ("plies", "nodes", "worlds", "depth"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"puzzle budget: {name} must be a positive integer, not {value!r}")
        if not 0 < self.gap <= 2:
            raise ValueError(f"puzzle budget: gap must be in (0, 2], not {self.gap!r}")

    def deeper(self) -> Budget:
        """The second search's budget: two plies and one depth more, four times the positions,
        twice the worlds, and half the gap (a gap must still be there, not as wide)."""
        return Budget(self.plies + 2, self.nodes * 4, self.worlds * 2, self.depth + 1, self.gap / 2)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle. ``moves`` replay from ``new_state(seed)`` to the position; ``solver`` moves
    there; ``line`` is the solution (the solver's side's moves and the replies, in turn order);
    ``plies`` the length of the forced win (``win``), else the horizon the search proved it to;
    ``margin`` how much better the solution is than the next move (2 for a forced result)."""

    id: str
    game: str
    variant: str
    players: int
    seed: int
    moves: tuple[str, ...]
    solver: int
    line: tuple[str, ...]
    theme: str
    plies: int
    margin: float
    rating: float
    source: str = "self-play"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["moves"], data["line"] = list(self.moves), list(self.line)
        return data

    @classmethod
    def from_json(cls, data: Any, where: str = "<puzzle>") -> Puzzle:
        if not isinstance(data, dict):
            raise PuzzleError(f"{where}: a puzzle must be an object")
        try:
            puzzle = cls(str(data["id"]), str(data["game"]), str(data["variant"]), int(data["players"]),
                         int(data["seed"]), tuple(str(m) for m in data["moves"]), int(data["solver"]),
                         tuple(str(m) for m in data["line"]), str(data["theme"]), int(data["plies"]),
                         float(data["margin"]), float(data["rating"]), str(data.get("source", "self-play")))
        except KeyError as missing:
            raise PuzzleError(f"{where}: the field {missing} is missing") from None
        except (TypeError, ValueError) as error:
            raise PuzzleError(f"{where}: {error}") from None
        if puzzle.theme not in THEMES or not puzzle.line:
            raise PuzzleError(f"{where}: theme must be one of {', '.join(THEMES)} and the line not empty")
        return puzzle


@dataclass(frozen=True)
class PuzzleSet:
    """A game's puzzles, with the budget that proved them and the seed that drew them."""

    game: str
    puzzles: tuple[Puzzle, ...]
    budget: Budget = field(default_factory=Budget)
    seed: int = 0

    def by_id(self, puzzle_id: str) -> Puzzle:
        for puzzle in self.puzzles:
            if puzzle.id == puzzle_id:
                return puzzle
        raise KeyError(puzzle_id)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "seed": self.seed, "budget": asdict(self.budget),
                "puzzles": [puzzle.to_json() for puzzle in self.puzzles]}


@dataclass(frozen=True)
class Verdict:
    """An answer judged: ``right`` or not, the move (canonical text), the replies then played
    (the line's, for a right move that does not end the puzzle), whether the puzzle is over
    (``done``: solved, or failed), and ``step``, the solver's next step (when not done)."""

    right: bool
    move: str
    replies: tuple[str, ...]
    done: bool
    step: int


# -- loading ---------------------------------------------------------------------------------------
def puzzles_file(game_id: str) -> Any:
    """The game's ``puzzles.json`` (a ``Traversable``), or ``None`` when its package ships none."""
    return info(game_id).resource(FILE_NAME)


def has_puzzles(game_id: str) -> bool:
    try:
        return puzzles_file(game_id) is not None
    except ValueError:
        return False


@cache
def load_puzzles(game_id: str) -> PuzzleSet:
    """The puzzles shipped with ``game_id`` (read once). Raises :class:`PuzzleError`."""
    try:
        found = puzzles_file(game_id)
    except ValueError as error:
        raise PuzzleError(str(error)) from None
    if found is None:
        raise PuzzleError(f"{game_id}: no {FILE_NAME} in its package {info(game_id).package_name}")
    source = f"{info(game_id).package_name.replace('.', '/')}/{FILE_NAME}"
    loaded = read_puzzles(found.read_text("utf-8"), source)
    if loaded.game != game_id:
        raise PuzzleError(f"{source}: puzzles of {loaded.game!r}, not of {game_id!r}")
    solved = info(game_id).resource(SOLVED_FILE)
    if solved is None:
        return loaded
    where = f"{info(game_id).package_name.replace('.', '/')}/{SOLVED_FILE}"
    extra = read_puzzles(solved.read_text("utf-8"), where)
    if extra.game != game_id or {p.id for p in extra.puzzles} & {p.id for p in loaded.puzzles}:
        raise PuzzleError(f"{where}: puzzles of another game, or ids that {FILE_NAME} has already")
    return replace(loaded, puzzles=loaded.puzzles + extra.puzzles)


def read_puzzles(text: str, source: str = "<puzzles>") -> PuzzleSet:
    """A puzzle set from the text of a ``puzzles.json``; checks its shape (``validate`` replays)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PuzzleError(f"{source}: not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"{source}: an object with 'format': {FORMAT}, 'game' and 'puzzles' is expected")
    puzzles = data.get("puzzles")
    if not isinstance(puzzles, list):
        raise PuzzleError(f"{source}: 'puzzles' must be a list")
    parsed = tuple(Puzzle.from_json(raw, f"{source}: puzzle {number}")
                   for number, raw in enumerate(puzzles, 1))
    ids = [puzzle.id for puzzle in parsed]
    if len(set(ids)) != len(ids):
        raise PuzzleError(f"{source}: two puzzles share an id")
    try:
        budget = Budget(**data.get("budget", {}))
    except (TypeError, ValueError) as error:
        raise PuzzleError(f"{source}: bad budget: {error}") from None
    return PuzzleSet(str(data.get("game")), parsed, budget, int(data.get("seed", 0)))


def write_puzzles(found: PuzzleSet, path: Path) -> None:
    """Write ``found`` as a ``puzzles.json`` (one puzzle a line, so that a diff reads well)."""
    head = {key: value for key, value in found.to_json().items() if key != "puzzles"}
    lines = [json.dumps(puzzle.to_json(), ensure_ascii=False, separators=(",", ":"))
             for puzzle in found.puzzles]
    text = json.dumps(head, ensure_ascii=False)[:-1] + ', "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, "utf-8")
    temporary.replace(path)  # at once: a run stopped while writing leaves the last whole file


# -- positions and the line ------------------------------------------------------------------------
def game_of(puzzle: Puzzle) -> Game:
    return load(puzzle.game, variant=puzzle.variant, players=puzzle.players)


@cache
def states_of(puzzle: Puzzle) -> tuple[State, ...]:
    """The puzzle's position, then the position after each move of its line. Raises
    :class:`PuzzleError` when the position or the line does not replay."""
    game = game_of(puzzle)
    record = Record.start(game, puzzle.seed).with_moves(puzzle.moves)
    try:
        state = replay(record)[-1]
    except RecordError as error:
        raise PuzzleError(f"{puzzle.id}: the position does not replay: {error}") from None
    states = [state]
    for number, text in enumerate(puzzle.line, 1):
        try:
            states.append(states[-1].play(text))
        except ValueError as error:
            raise PuzzleError(f"{puzzle.id}: move {number} of the line {text!r} is refused: "
                              f"{error}") from None
    return tuple(states)


def position(puzzle: Puzzle) -> State:
    """The puzzle's position (the solver to move)."""
    return states_of(puzzle)[0]


def side_of(game: Game, player: int) -> int:
    return next(index for index, team in enumerate(game.teams) if player in team)


def solver_plies(puzzle: Puzzle) -> tuple[int, ...]:
    """The indices in the line of the moves the person plays: the solver's side's, but a forced
    one (a single legal move) after the first, which is played for them as the replies are."""
    game = game_of(puzzle)
    side = side_of(game, puzzle.solver)
    states = states_of(puzzle)[:len(puzzle.line)]
    return tuple(index for index, state in enumerate(states)
                 if state.to_move is not None and side_of(game, state.to_move) == side
                 and (index == 0 or len(state.legal_moves()) > 1))


def steps(puzzle: Puzzle) -> int:
    """How many moves the person plays to solve the puzzle."""
    return len(solver_plies(puzzle))


def state_at(puzzle: Puzzle, step: int) -> State:
    """The position of the person's step ``step`` (0: the puzzle's position)."""
    plies = solver_plies(puzzle)
    if not 0 <= step < len(plies):
        raise PuzzleError(f"{puzzle.id}: no step {step}; the puzzle has {len(plies)}")
    return states_of(puzzle)[plies[step]]


def judge(puzzle: Puzzle, step: int, text: str) -> Verdict:
    """The person's move ``text`` at step ``step``: right when it is the line's move (the last
    step's ``replies`` then play the line out to its end), or when it
    ends the game won by the solver's side at once (another winning blow, as lichess accepts
    another mate in one). Raises ``InvalidMoveError``/``IllegalMoveError`` (``ValueError``s) for
    a move that is not notation or not legal there, :class:`PuzzleError` for a step out of range."""
    plies = solver_plies(puzzle)
    before = state_at(puzzle, step)
    game = before.game
    move = str(game.parse_move(before, text))
    index = plies[step]
    after = before.play(move)
    wins_now = after.is_over and any(side_of(game, p) == side_of(game, puzzle.solver)
                                     for p in after.result().winners)
    if move != puzzle.line[index] and not wins_now:
        return Verdict(False, move, (), True, step)
    if wins_now:
        return Verdict(True, move, (), True, step + 1)
    if step + 1 >= len(plies):  # the rest of the line is replies and forced moves: played out
        return Verdict(True, move, tuple(puzzle.line[index + 1:]), True, step + 1)
    return Verdict(True, move, tuple(puzzle.line[index + 1:plies[step + 1]]), False, step + 1)


def after_step(puzzle: Puzzle, step: int, move: str) -> State:
    """The position after the person's right ``move`` at ``step`` and the line's replies."""
    verdict = judge(puzzle, step, move)
    state = state_at(puzzle, step).play(verdict.move)
    for reply in verdict.replies:
        state = state.play(reply)
    return state


# -- ratings (Glicko-2, as lichess's puzzles) ------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating (``deviation``: its RD) and how many rated attempts made it."""

    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY
    attempts: int = 0

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def puzzle_rating(puzzle: Puzzle) -> Rating:
    """A puzzle's rating before anyone tried it: the generator's estimate, still uncertain."""
    return Rating(puzzle.rating, 250.0, NEW_VOLATILITY, 0)


def _updated(player: Rating, opponent: Rating, score: float) -> Rating:
    updated = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    updated.update_player([opponent.rating], [opponent.deviation], [score])
    return Rating(float(updated.rating), float(updated.rd), float(updated.vol), player.attempts + 1)


def rate(person: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The person's and the puzzle's ratings after one rated attempt: a game between them that
    the person wins by solving the puzzle (so a solved puzzle loses rating, a failed one gains).

    >>> me, it = rate(Rating(), Rating(1500, 250), solved=True)
    >>> me.rating > 1500 > it.rating
    True
    """
    score = 1.0 if solved else 0.0
    return _updated(person, puzzle, score), _updated(puzzle, person, 1.0 - score)


def nearest(puzzles: Sequence[Puzzle], ratings: Mapping[str, float], target: float, tried: Iterable[str],
            rng: random.Random, choices: int = 8) -> Puzzle | None:
    """A puzzle not yet ``tried`` whose rating (``ratings[id]``, else its own) is near ``target``:
    one of the ``choices`` nearest, at random; ``None`` when every puzzle was tried."""
    done = set(tried)
    left = [puzzle for puzzle in puzzles if puzzle.id not in done]
    if not left:
        return None
    left.sort(key=lambda p: (abs(ratings.get(p.id, p.rating) - target), p.id))
    return left[rng.randrange(min(choices, len(left)))]


class FileRatingStore:
    """The terminal's puzzle ratings in a JSON file (``$XDG_DATA_HOME/ludotheque/puzzles.json``):
    per game the person's rating, the puzzles tried, and the ratings of the puzzles tried here.
    Written whole through a temporary file; an unreadable file reads as nothing tried."""

    def __init__(self, path: Path | None = None) -> None:
        from .lessons import data_dir

        self.path = path if path is not None else data_dir() / "puzzle-ratings.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        games = data.get("games") if isinstance(data, dict) else None
        return games if isinstance(games, dict) else {}

    def load(self, game: str) -> tuple[Rating, set[str], dict[str, Rating]]:
        """The person's rating in ``game``, the puzzles tried, the ratings of those puzzles."""
        entry = self._read().get(game) or {}
        try:
            person = Rating(**entry.get("rating", {}))
            tried = {str(pid) for pid in entry.get("tried", [])}
            own = {str(pid): Rating(**value) for pid, value in entry.get("puzzles", {}).items()}
        except (TypeError, ValueError, AttributeError):
            return Rating(), set(), {}
        return person, tried, own

    def save(self, game: str, person: Rating, tried: Iterable[str], own: Mapping[str, Rating]) -> None:
        import os
        import tempfile

        games = self._read()
        games[game] = {"rating": asdict(person), "tried": sorted(tried),
                       "puzzles": {pid: asdict(rating) for pid, rating in sorted(own.items())}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".puzzles-", suffix=".json", dir=self.path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                text = json.dumps({"format": FORMAT, "games": games}, ensure_ascii=False, indent=1)
                file.write(text + "\n")
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


# -- the searches ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Found:
    """A position a search proved a puzzle: the theme, the line, the horizon, the margin."""

    theme: str
    line: tuple[str, ...]
    plies: int
    margin: float
    moves: int  # the legal moves at the position (the generator's difficulty estimate uses it)


class Prover:
    """The searches over one game's kernel that find and check puzzles."""

    def __init__(self, game: Game) -> None:
        self.game = game
        module = game.info.load_searches()
        kernel = game.info.load_kernel()
        if module is None or kernel is None:
            raise ValueError(f"{game.id}: puzzles need the game's compiled kernel (Numba)")
        self.module, self.kernel = module, kernel
        self.hidden = game.has_hidden_information
        shared = getattr(module, "SEARCHES", None)
        self.shared = shared
        self.weights = module.weights_array() if callable(getattr(module, "weights_array", None)) else None
        if len(game.teams) != 2:
            raise ValueError(f"{game.id}: puzzles need two sides, not {len(game.teams)}")
        if not self.hidden and shared is None:
            raise ValueError(f"{game.id}: no shared alpha-beta over its kernel for puzzles")

    # Perfect information: alpha-beta with every root move's value exact.
    def exact(self, state: State, plies: int, nodes: int, seed: int) -> tuple[list[str], list[float], Any]:
        assert self.shared is not None
        found = self.shared.alphabeta(state, depth=plies, nodes=nodes, seed=seed, exact_root=True,
                                      params=self.weights)
        texts = [str(move) for move in state.legal_moves()]
        if len(texts) != len(found.moves):
            raise AssertionError(f"{self.game.id}: the kernel's moves differ from the state's")
        return texts, [float(v) for v in found.scores], found

    def value(self, state: State, plies: int, nodes: int, seed: int) -> tuple[float, int]:
        """The value of ``state`` for its side to move within ``plies`` (±1: proven) and the depth
        the search completed."""
        assert self.shared is not None
        found = self.shared.alphabeta(state, depth=max(1, plies), nodes=nodes, seed=seed, params=self.weights)
        return float(found.value), int(found.depth)

    def side(self, player: int | None) -> int:
        assert player is not None
        return side_of(self.game, player)

    def wins_for(self, state: State, side: int) -> bool:
        return state.is_over and any(self.side(p) == side for p in state.result().winners)

    def forced_win(self, state: State, budget: Budget, seed: int, root: Any = None) -> Found | None:
        """The only move that wins within ``budget.plies`` plies, with its line, else ``None``
        (``root``: :meth:`exact`'s answer at ``state``, when already searched)."""
        texts, scores, found = root or self.exact(state, budget.plies, budget.nodes, seed)
        wins = [text for text, score in zip(texts, scores, strict=True) if score >= 1.0]
        if len(wins) != 1 or len(texts) < 2:
            return None
        best = wins[0]
        side = self.side(state.to_move)
        # The other moves, each searched to the full horizon: none may win later either.
        for text in texts:
            if text == best:
                continue
            child = state.play(text)
            if child.is_over:
                if self.wins_for(child, side):
                    return None
                continue
            value, depth = self.value(child, budget.plies - 1, budget.nodes, seed)
            mine = self.side(child.to_move) == side
            if (value >= 1.0 if mine else value <= -1.0):
                return None
            if abs(value) < 1.0 and depth < budget.plies - 1:
                return None  # not searched to the horizon: unproven
        line = self.line_of(state, found, best, budget, seed)
        if line is None:
            return None
        return Found("win", line, len(line), 2.0, len(texts))

    def line_of(self, state: State, found: Any, best: str, budget: Budget,
                seed: int) -> tuple[str, ...] | None:
        """The search's line from ``state`` after ``best``, checked: it replays to the end of the
        game, won by the solver's side, and at each of the solver's later steps the line's move is
        the only one that wins within the plies left (else ``None``)."""
        line = [self.kernel.move_text(int(code)) for code in found.line]
        if not line or line[0] != best:
            return None
        side = self.side(state.to_move)
        current = state
        for index, text in enumerate(line):
            if current.is_over:
                return None
            if index > 0 and self.side(current.to_move) == side:
                left = len(line) - index
                texts, scores, _ = self.exact(current, left, budget.nodes, seed)
                wins = [t for t, s in zip(texts, scores, strict=True) if s >= 1.0]
                if wins != [text]:
                    return None
            try:
                current = current.play(text)
            except ValueError:
                return None
        return tuple(line) if self.wins_for(current, side) else None

    def only_save(self, state: State, budget: Budget, seed: int, root: Any = None) -> Found | None:
        """The only move that does not lose by force within ``budget.plies`` plies, else ``None``."""
        texts, scores, _ = root or self.exact(state, budget.plies, budget.nodes, seed)
        if len(texts) < 3:
            return None
        alive = [text for text, score in zip(texts, scores, strict=True) if score > -1.0]
        if len(alive) != 1 or max(scores) >= 1.0:
            return None
        return Found("save", (alive[0],), budget.plies, 2.0, len(texts))

    # Hidden information: every world's root moves exact, averaged over the worlds.
    def averages(self, state: State, budget: Budget, seed: int) -> tuple[list[str], list[float]]:
        """Each legal move's average value over ``budget.worlds`` determinizations of the view of
        the player to move (drawn from ``seed``)."""
        mover = state.to_move
        rng = random.Random(seed)
        worlds = [state.determinize(mover, rng) for _ in range(budget.worlds)]
        texts = [str(move) for move in state.legal_moves()]
        pimc = getattr(self.module, "pimc", None)
        if self.shared is None and callable(pimc):
            found = pimc(worlds, depth=budget.depth, nodes=budget.nodes, seed=seed, exact_root=True)
            return texts, [float(v) for v in found.scores]
        assert self.shared is not None
        totals = [0.0] * len(texts)
        for world in worlds:
            _, scores, _ = self.exact(world, budget.depth, max(1, budget.nodes // budget.worlds), seed)
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
        return texts, [total / len(worlds) for total in totals]

    def gap(self, state: State, budget: Budget, seed: int) -> Found | None:
        """The move whose average beats every other's by ``budget.gap``, else ``None``."""
        texts, values = self.averages(state, budget, seed)
        if len(texts) < 2:
            return None
        order = sorted(range(len(texts)), key=lambda i: -values[i])
        margin = values[order[0]] - values[order[1]]
        if margin < budget.gap:
            return None
        return Found("gap", (texts[order[0]],), budget.depth, round(margin, 4), len(texts))

    def find(self, state: State, budget: Budget, seed: int) -> Found | None:
        """The puzzle ``state`` is, if any: a forced win, else an only save (perfect information),
        or a gap (hidden information)."""
        if state.is_over or len(state.legal_moves()) < 2:
            return None
        if self.hidden:
            return self.gap(state, budget, seed)
        root = self.exact(state, budget.plies, budget.nodes, seed)  # one search serves both themes
        return self.forced_win(state, budget, seed, root) or self.only_save(state, budget, seed, root)


@dataclass(frozen=True)
class Check:
    """A puzzle checked again: ``ok``, and why not."""

    puzzle: str
    ok: bool
    reason: str = ""


def check(puzzle: Puzzle, budget: Budget, *, seed: int = 1, prover: Prover | None = None) -> Check:
    """``puzzle`` checked by a second search with ``budget`` (give the stored one's
    :meth:`Budget.deeper`) and ``seed`` (other root orders, other worlds):

    - ``win``: the line replays to a win of the solver's side, and after the solver's first move
      the other side is proven lost within the budget's plies (every defence searched);
    - ``save``: every other move is still lost by force, and the search finds no forced loss
      after the solution within the budget's plies;
    - ``gap``: over fresh determinizations of the solver's view, searched deeper, the solution is
      still the best move by ``budget.gap`` at least.
    """
    if puzzle.source == SOLVED_SOURCE:  # drawn from tables: checked by a plain search instead
        return check_win_in(puzzle)
    try:
        states = states_of(puzzle)
    except PuzzleError as error:
        return Check(puzzle.id, False, str(error))
    prover = prover or Prover(states[0].game)
    state = states[0]
    side = prover.side(puzzle.solver)
    if puzzle.theme == "gap":
        texts, values = prover.averages(state, budget, seed)
        best = max(range(len(texts)), key=lambda i: values[i])
        others = [v for i, v in enumerate(values) if texts[i] != puzzle.line[0]]
        margin = values[texts.index(puzzle.line[0])] - max(others)
        if texts[best] != puzzle.line[0] or margin < budget.gap:
            return Check(puzzle.id, False, f"best {texts[best]}, margin {margin:.3f}")
        return Check(puzzle.id, True, f"margin {margin:.3f}")
    after = states[1]
    if puzzle.theme == "win":
        if not prover.wins_for(states[-1], side):
            return Check(puzzle.id, False, "the line does not end in a win")
        if after.is_over:
            return Check(puzzle.id, True, "wins at once")
        value, depth = prover.value(after, budget.plies, budget.nodes, seed)
        lost = value <= -1.0 if prover.side(after.to_move) != side else value >= 1.0
        return Check(puzzle.id, lost, f"value {value:+.3f} at depth {depth}")
    texts, scores, _ = prover.exact(state, budget.plies, budget.nodes, seed)
    others = [s for t, s in zip(texts, scores, strict=True) if t != puzzle.line[0]]
    if any(s > -1.0 for s in others):
        return Check(puzzle.id, False, "another move does not lose")
    if after.is_over:
        return Check(puzzle.id, not any(prover.side(p) != side for p in after.result().winners), "ends")
    value, depth = prover.value(after, budget.plies, budget.nodes, seed)
    lost = value >= 1.0 if prover.side(after.to_move) != side else value <= -1.0
    return Check(puzzle.id, not lost, f"value {value:+.3f} at depth {depth}")


# -- "win in N" from the solved tables -------------------------------------------------------------
def wins_within(state: State, plies: int, side: int | None = None) -> bool:
    """Whether ``side`` (by default the side to move) wins by force within ``plies`` plies: a
    plain search of the engine, every move of either side (no kernel, no tables: what checks the
    puzzles drawn from the tables, independently of them). Two sides only; costly beyond a few
    plies."""
    game = state.game
    if side is None:
        assert state.to_move is not None
        side = side_of(game, state.to_move)
    if state.is_over:
        return any(side_of(game, p) == side for p in state.result().winners)
    if plies <= 0:
        return False
    assert state.to_move is not None
    children = (state.play(move) for move in state.legal_moves())
    if side_of(game, state.to_move) == side:
        return any(wins_within(child, plies - 1, side) for child in children)
    return all(wins_within(child, plies - 1, side) for child in children)


def check_win_in(puzzle: Puzzle) -> Check:
    """A "win in N" puzzle checked by :func:`wins_within`: the solver wins within ``puzzle.plies``
    plies and not within fewer (N - 2), the line is that long and wins, and no other first move
    wins within N."""
    try:
        states = states_of(puzzle)
    except PuzzleError as error:
        return Check(puzzle.id, False, str(error))
    state, n = states[0], puzzle.plies
    game = state.game
    side = side_of(game, puzzle.solver)
    if len(puzzle.line) != n or not wins_within(states[-1], 0, side):
        return Check(puzzle.id, False, f"the line is not a win in {n}")
    if not wins_within(state, n) or wins_within(state, n - 2):
        return Check(puzzle.id, False, f"not a win in exactly {n} plies")
    for move in state.legal_moves():
        if str(move) != puzzle.line[0] and wins_within(state.play(move), n - 1, side):
            return Check(puzzle.id, False, f"{move} wins within {n} plies too")
    return Check(puzzle.id, True, f"a win in {n}, its first move the only one")


def solved_puzzles(game_id: str, count: int, *, seed: int = 0,
                   plies: Sequence[int] = SOLVED_PLIES, progress: Progress | None = None) -> PuzzleSet:
    """About ``count`` "win in N" puzzles (N in ``plies``, as many of each) drawn from the solved
    tables of ``game_id`` on this machine (its package's ``perfect`` module: ``win_lines``), each
    checked by :func:`check_win_in`; ids ``<game>-s001``..., ``source`` ``tables``. Raises
    :class:`PuzzleError` where the game has no tables here."""
    from . import solved

    module = solved.perfect_module(info(game_id).package_name)
    draw = getattr(module, "win_lines", None)
    if module is None or not callable(draw):
        raise PuzzleError(f"{game_id}: its package draws no puzzles from solved tables")
    kept: list[Puzzle] = []
    each = -(-count // len(plies))
    for n in plies:
        for drawn in draw(n, each, seed=seed + n):
            game = load(game_id, variant=drawn.variant)
            state = replay(Record.start(game, 0).with_moves(drawn.moves))[-1]
            assert state.to_move is not None
            found = Found("win", tuple(drawn.line), n, 2.0, drawn.legal)
            puzzle = Puzzle(f"{game_id}-s{len(kept) + 1:03d}", game_id, drawn.variant, game.players, 0,
                            tuple(drawn.moves), state.to_move, found.line, "win", n, 2.0,
                            estimate_rating(found, game, state), SOLVED_SOURCE)
            if check_win_in(puzzle).ok:
                kept.append(puzzle)
            if progress is not None:
                progress(len(kept), count)
    if not kept:
        raise PuzzleError(f"{game_id}: no puzzle drawn: are its tables built here (ludotheque solve)?")
    return PuzzleSet(game_id, tuple(kept[:count]), Budget(plies=max(plies)), seed)


# -- the generator ---------------------------------------------------------------------------------
DEFAULT_BUDGETS = {
    "perfect": Budget(plies=7, nodes=150_000),
    "hidden": Budget(worlds=8, depth=3, nodes=80_000, gap=0.5),
}
PAIRS = (("easy", "medium"), ("medium", "easy"), ("easy", "easy"), ("medium", "medium"))
"""The self-play pairings, in turn (an easy bot blunders, so puzzles appear)."""
HIDDEN_PAIRS = (("easy", "easy"),)
"""Hidden information: the easy bots only (the others search many worlds a move: self-play would
cost far more than the puzzles' own searches)."""
PER_GAME = 3
"""At most this many puzzles from one game record (so that they come from many games)."""
WINDOW = 24
"""The plies searched in each record, from its end back: forced results gather near the end, and
searching the whole game would cost the most where puzzles are rarest."""


def default_budget(game: Game) -> Budget:
    return DEFAULT_BUDGETS["hidden" if game.has_hidden_information else "perfect"]


def estimate_rating(found: Found, game: Game, state: State) -> float:
    """A puzzle's rating before anyone tried it: harder with more of the solver's moves to find
    and more legal moves to choose from (a first guess: attempts move it, as on lichess)."""
    side = side_of(game, state.to_move or 0)
    own = 0
    current = state
    for text in found.line:
        if current.to_move is not None and side_of(game, current.to_move) == side:
            own += 1
        current = current.play(text)
    base = {"win": 1100.0, "save": 1400.0, "gap": 1300.0}[found.theme]
    return round(base + 200.0 * (own - 1) + 12.0 * min(found.moves, 40), 1)


def self_play(game: Game, seed: int, pairs: Sequence[tuple[str, str]] | None = None) -> Iterator[Record]:
    """Finished games between the levels of ``pairs`` (by default :data:`PAIRS`, or
    :data:`HIDDEN_PAIRS`), for ever, each a pure function of ``seed`` and its number."""
    from . import ai

    number = 0
    pairs = pairs or (HIDDEN_PAIRS if game.has_hidden_information else PAIRS)
    while True:
        pair = pairs[number % len(pairs)]
        game_seed = (seed * 1_000_003 + number) % 2**31
        state = game.new_state(game_seed)
        bots = [ai.bot(pair[side_of(game, p)], game, seed=game_seed * 8 + p) for p in range(game.players)]
        record = Record.start(game, game_seed)
        moves: list[str] = []
        while not state.is_over and len(moves) < 400:
            assert state.to_move is not None
            move = str(bots[state.to_move].choose(state))
            moves.append(move)
            state = state.play(move)
        number += 1
        if state.is_over:
            yield record.with_moves(moves).finished(state.result())


def read_records(paths: Sequence[Path], game: Game) -> list[Record]:
    """The stored game records (JSON files, or folders of them) of ``game``'s variant and player
    count among ``paths``; unreadable files and other games are skipped."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    found = []
    for file in files:
        try:
            record = Record.read(file)
        except RecordError:
            continue
        if (record.game, record.variant, record.players) == (game.id, game.variant, game.players) \
                and record.seed is not None:
            found.append(record)
    return found


def generate(game: Game, count: int, *, seed: int = 0, budget: Budget | None = None,
             records: Sequence[Record] = (), progress: Progress | None = None,
             check_budget: Budget | None = None,
             kept_so_far: Callable[[PuzzleSet], None] | None = None,
             pairs: Sequence[tuple[str, str]] | None = None) -> PuzzleSet:
    """``count`` puzzles of ``game``: the positions of the stored ``records`` first, then of
    self-play games, searched ply by ply (:meth:`Prover.find`); a puzzle is kept when a second,
    deeper search (:func:`check` with ``check_budget``, by default ``budget.deeper()``) agrees,
    when its position was not kept before, and while its game gave fewer than
    :data:`PER_GAME`. A pure function of its arguments; ``kept_so_far`` is told the set after each
    puzzle kept (the command writes it, so that a long run stopped early keeps what it found)."""
    budget = budget or default_budget(game)
    deeper = check_budget or budget.deeper()
    prover = Prover(game)
    kept: list[Puzzle] = []
    seen: set[str] = set()
    if progress is not None:
        progress(0, count)
    sources: Iterable[tuple[str, Record]] = [("record", r) for r in records]
    sources = _chain(sources, (("self-play", r) for r in self_play(game, seed, pairs)))
    for source, record in sources:
        if len(kept) >= count:
            break
        states = replay(record)
        from_this = 0
        for ply in range(len(states) - 2, max(-1, len(states) - 2 - WINDOW), -1):
            state = states[ply]
            if len(kept) >= count or from_this >= PER_GAME:
                break
            key = json.dumps(state.to_json(), sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            search_seed = (seed * 7919 + len(seen)) % 2**31
            found = prover.find(state, budget, search_seed)
            if found is None:
                continue
            assert state.to_move is not None
            puzzle = Puzzle(f"{game.id}-{len(kept) + 1:04d}", game.id, game.variant, game.players,
                            int(record.seed or 0), tuple(record.moves[:ply]), state.to_move, found.line,
                            found.theme, found.plies, found.margin, estimate_rating(found, game, state),
                            source)
            if not check(puzzle, deeper, seed=search_seed + 1, prover=prover).ok:
                continue
            kept.append(puzzle)
            from_this += 1
            if kept_so_far is not None:
                kept_so_far(PuzzleSet(game.id, tuple(kept), budget, seed))
            if progress is not None:
                progress(len(kept), count)
    return PuzzleSet(game.id, tuple(kept), budget, seed)


def _chain(*parts: Iterable[tuple[str, Record]]) -> Iterator[tuple[str, Record]]:
    for part in parts:
        yield from part


def merge(sets: Sequence[PuzzleSet]) -> PuzzleSet:
    """One set of the puzzles of ``sets`` (runs of the generator with other seeds or pairs, all of
    one game and budget), each position once, numbered again in order; the first set's seed."""
    if not sets or len({(s.game, s.budget) for s in sets}) != 1:
        raise PuzzleError("only sets of one game, proven with one budget, merge")
    kept: list[Puzzle] = []
    seen: set[tuple[Any, ...]] = set()
    for found in sets:
        for puzzle in found.puzzles:
            key = (puzzle.variant, puzzle.players, puzzle.seed, puzzle.moves)
            if key not in seen:
                seen.add(key)
                kept.append(replace(puzzle, id=f"{found.game}-{len(kept) + 1:04d}"))
    return PuzzleSet(sets[0].game, tuple(kept), sets[0].budget, sets[0].seed)


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``easy:medium,random:easy`` as pairs of levels (a level alone plays itself)."""
    pairs = []
    for part in text.split(","):
        first, _, second = part.strip().partition(":")
        if not first:
            raise ValueError(f"pairs of levels like easy:medium, not {text!r}")
        pairs.append((first, second or first))
    return pairs


def validate(found: PuzzleSet) -> list[str]:
    """The problems of a puzzle set without searching: each position replays, the solver is to
    move there, the line replays (a ``win`` to a win of the solver's side)."""
    problems = []
    for puzzle in found.puzzles:
        try:
            states = states_of(puzzle)
        except PuzzleError as error:
            problems.append(str(error))
            continue
        game = states[0].game
        if states[0].to_move != puzzle.solver:
            problems.append(f"{puzzle.id}: seat {puzzle.solver} is not to move")
        if puzzle.theme == "win" and not (states[-1].is_over and any(
                side_of(game, p) == side_of(game, puzzle.solver) for p in states[-1].result().winners)):
            problems.append(f"{puzzle.id}: the line does not end in the solver's win")
    return problems


def package_path(game_id: str) -> Path:
    """Where ``game_id``'s ``puzzles.json`` belongs: its package's folder."""
    from importlib import import_module

    module = import_module(info(game_id).package_name)
    return Path(str(module.__file__)).parent / FILE_NAME


# -- the command (``python -m ludotheque.puzzles``) -------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """``generate GAME [--count N] [--seed S] [--records PATH...] [--out FILE]`` writes a
    ``puzzles.json`` (by default into the game's package); ``solved GAME [--count 60] [--seed S]
    [--plies 3 5 7]`` draws "win in N" puzzles from the game's solved tables on this machine into
    its ``puzzles-solved.json``; ``merge OUT FILE...`` joins runs;
    ``check GAME [--seed S] [--prune]`` re-checks the stored puzzles with a deeper search, prints
    how many still hold, and with ``--prune`` drops the others (numbered again)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m ludotheque.puzzles", description=main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("generate", help="generate a game's puzzles")
    make.add_argument("game")
    make.add_argument("--count", type=int, default=200)
    make.add_argument("--seed", type=int, default=0)
    make.add_argument("--records", type=Path, nargs="*", default=[])
    make.add_argument("--out", type=Path, default=None)
    make.add_argument("--pairs", default=None,
                      help="the self-play levels, e.g. easy:medium,random:easy (default: by kind of game)")
    for name, kind in (("plies", int), ("nodes", int), ("worlds", int), ("depth", int), ("gap", float)):
        make.add_argument(f"--{name}", type=kind, default=None, help=f"the budget's {name}")
    again = sub.add_parser("check", help="re-check a game's stored puzzles with a deeper search")
    again.add_argument("game")
    again.add_argument("--seed", type=int, default=2, help="the check's seed (the benchmark's is 1)")
    again.add_argument("--file", type=Path, default=None, help="a puzzles file (default: the game's)")
    again.add_argument("--prune", action="store_true", help="write the file back without the failures")
    again.add_argument("--start", type=int, default=0, help="check only from the N-th puzzle on")
    tables = sub.add_parser("solved", help=f"draw 'win in N' puzzles from a game's solved tables into "
                                            f"its {SOLVED_FILE}")
    tables.add_argument("game")
    tables.add_argument("--count", type=int, default=60)
    tables.add_argument("--seed", type=int, default=0)
    tables.add_argument("--plies", type=int, nargs="+", default=list(SOLVED_PLIES))
    tables.add_argument("--out", type=Path, default=None)
    join = sub.add_parser("merge", help="merge puzzles files of one game into one")
    join.add_argument("out", type=Path)
    join.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "merge":
        merged = merge([read_puzzles(path.read_text("utf-8"), str(path)) for path in args.files])
        write_puzzles(merged, args.out)
        print(f"{merged.game}: {len(merged.puzzles)} puzzles written to {args.out}")
        return 0
    if args.command == "solved":
        made = solved_puzzles(args.game, args.count, seed=args.seed, plies=args.plies)
        target = args.out or package_path(args.game).with_name(SOLVED_FILE)
        write_puzzles(made, target)
        print(f"{made.game}: {len(made.puzzles)} puzzles from the tables written to {target}")
        return 0
    game = load(args.game)
    if args.command == "check":
        path = args.file or package_path(game.id)
        stored = read_puzzles(path.read_text("utf-8"), str(path))
        prover = Prover(game)
        results = [check(p, stored.budget.deeper(), seed=args.seed, prover=prover)
                   for p in stored.puzzles[args.start:]]
        failed = {r.puzzle for r in results if not r.ok}
        for result in results:
            if not result.ok:
                print(f"{result.puzzle}: {result.reason}", file=sys.stderr)
        print(f"{game.id}: {len(results) - len(failed)}/{len(results)} puzzles hold", flush=True)
        if args.prune and failed:
            kept = replace(stored, puzzles=tuple(p for p in stored.puzzles if p.id not in failed))
            write_puzzles(merge([kept]), path)
            print(f"{game.id}: {len(kept.puzzles)} puzzles kept in {path}")
            return 0
        return 1 if failed else 0
    out = args.out or package_path(game.id)
    changes = {name: getattr(args, name) for name in ("plies", "nodes", "worlds", "depth", "gap")
               if getattr(args, name) is not None}
    found = run_generator(game, args.count, seed=args.seed, budget=replace(default_budget(game), **changes),
                          pairs=parse_pairs(args.pairs) if args.pairs else None,
                          records=read_records(args.records, game) if args.records else (),
                          kept_so_far=lambda so_far: write_puzzles(so_far, out))
    write_puzzles(found, out)
    print(f"{game.id}: {len(found.puzzles)} puzzles written to {out}")
    return 0


def run_generator(game: Game, count: int, *, seed: int = 0, records: Sequence[Record] = (),
                  budget: Budget | None = None,
                  kept_so_far: Callable[[PuzzleSet], None] | None = None,
                  pairs: Sequence[tuple[str, str]] | None = None) -> PuzzleSet:
    """:func:`generate` with a Rich progress bar on standard error."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(f"{game.id}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=False) as bar:
        task = bar.add_task("puzzles", total=count)
        return generate(game, count, seed=seed, records=records, budget=budget, kept_so_far=kept_so_far,
                        pairs=pairs,
                        progress=lambda done, total: bar.update(task, completed=done, total=total))


__all__ = [
    "FILE_NAME",
    "SOLVED_FILE",
    "SOLVED_SOURCE",
    "THEMES",
    "Budget",
    "Check",
    "FileRatingStore",
    "Found",
    "Prover",
    "Puzzle",
    "PuzzleError",
    "PuzzleSet",
    "Rating",
    "Verdict",
    "after_step",
    "check",
    "check_win_in",
    "generate",
    "has_puzzles",
    "judge",
    "load_puzzles",
    "merge",
    "nearest",
    "position",
    "puzzle_rating",
    "rate",
    "read_puzzles",
    "read_records",
    "run_generator",
    "self_play",
    "solved_puzzles",
    "solver_plies",
    "state_at",
    "states_of",
    "steps",
    "validate",
    "wins_within",
    "write_puzzles",
]


if __name__ == "__main__":
    raise SystemExit(main())
