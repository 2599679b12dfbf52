"""The public contract shared by every game: ``Game``, ``State``, ``Result`` and ``GameInfo``.

A game package declares its facts once in a :class:`GameInfo`; the registry turns those declarations
into ``ludotheque.games()`` and ``ludotheque.load()``.

>>> Result(winners=(1,), scores=(-1, 1), reason="top").to_json()
{'winners': [1], 'scores': [-1, 1], 'reason': 'top'}
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module, resources
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import Any, Generic, Protocol, Self, TypeVar

from .errors import IllegalMoveError

Player = int
JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of a finished game: ``winners`` empty means a draw."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str = ""

    def to_json(self) -> JSON:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """Rebuild a result; raises ``ValueError`` when a field is missing or mistyped."""
        try:
            winners = tuple(int(w) for w in data["winners"])
            scores = tuple(data["scores"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed result {data!r}") from error
        if not all(isinstance(s, int | float) for s in scores):
            raise ValueError(f"malformed result scores {data!r}")
        return cls(winners, scores, str(data.get("reason", "")))


# Words people read, by language: ``{"fr": ..., "en": ...}``.
Words = Mapping[str, str]
# A position's value for one player, in [-1, 1] (each game's ``evaluate.py``).
Evaluator = Callable[["State", Player], float]


@dataclass(frozen=True)
class ResultWords:
    """How a result's ``reason`` reads: ``plain`` ("a reserve is empty"), and where exactly one
    side lost, ``naming_loser`` with a ``{loser}`` field ("Light's reserve is empty").

    >>> ResultWords({"en": "a reserve is empty"}, {"en": "{loser}'s reserve is empty"}).text(
    ...     "en", loser="Light")
    "Light's reserve is empty"
    """

    plain: Words
    naming_loser: Words = field(default_factory=dict)

    def text(self, lang: str, *, loser: str | None = None) -> str:
        """The phrase in ``lang`` (English when missing), naming ``loser`` when given and known."""
        if loser is not None and self.naming_loser:
            return _in(self.naming_loser, lang).format(loser=loser)
        return _in(self.plain, lang)


def _in(words: Words, lang: str) -> str:
    return words.get(lang) or words.get("en") or next(iter(words.values()), "")


@dataclass(frozen=True)
class LevelSpec:
    """One bot level: an algorithm name (as ``ai.bot`` knows it), its options and a description.

    ``leaf`` for MCTS is ``"heuristic"`` (the game's evaluator), ``"rollout"`` (random
    playouts) or ``"rollout+heuristic"`` (short playouts, then the evaluator). Plain data: a game
    declares its tuned levels without knowing the bots that read them.
    """

    algorithm: str
    options: Mapping[str, Any] = field(default_factory=dict)
    leaf: str = "heuristic"
    description: str = ""


@dataclass(frozen=True)
class GameInfo:
    """The static facts of a game, declared once by its package (see docs/style.md §1); the registry,
    the lobby, the rules pages, the command line, the bots and the arena all derive from it."""

    id: str
    title: Words
    summary: Words
    player_counts: tuple[int, ...]
    default_players: int
    variants: tuple[str, ...]
    default_variant: str
    rules_version: int
    make: Callable[[str, int], Game] = field(repr=False)
    # A generous bound on the length of a game, in plies, used by the conformance tests.
    max_plies: int = 5000
    # The package that declares the game: its ``RULES.md`` (``## Français`` then ``## English``)
    # is the rules page, and its page and terminal boards are found beside the others by id.
    package: str = ""
    # Each variant's name for people (the id itself when missing).
    variant_names: Mapping[str, Words] = field(default_factory=dict)
    # Each phase's name for people, for the phases the game adds to ``play`` and ``over``.
    phase_names: Mapping[str, Words] = field(default_factory=dict)
    # How each result reason the engine gives reads (``Result.reason``).
    reasons: Mapping[str, ResultWords] = field(default_factory=dict)
    # Bot levels tuned for this game: players -> level -> spec (``0``: every player count); the
    # levels of the game's kind serve where it declares none.
    levels: Mapping[int, Mapping[str, LevelSpec]] = field(default_factory=dict, repr=False)
    # The static evaluator for bots (``engines/<id>/evaluate.py``), and its optional detector of
    # an immediate gain a careful opponent would have prevented (Pylos: a square to close).
    evaluator: Evaluator | None = field(default=None, repr=False)
    gain_detector: Callable[[State], bool] | None = field(default=None, repr=False)
    # The module of the game's compiled kernel (``engines/<id>/kernel.py``), imported only when
    # asked for (Numba is slow to import); ``None`` when the game has none.
    kernel: str | None = None
    # The module of its compiled searches over that kernel (``alphabeta``, ``uct``, ``pimc``,
    # ``ismcts``: ``ludotheque.engines.kernels.Searches``); ``None``: the module ``search`` beside
    # the kernel, when there is one. The kernel never imports it (no import cycle).
    searches: str | None = None
    # The module of the game's fixed integer action encoding and observation planes for the
    # research interfaces (``engines/<id>/actions.py``: OpenSpiel, PettingZoo, Gymnasium),
    # imported only when asked for; ``None`` when the game has none.
    actions: str | None = None

    @property
    def package_name(self) -> str:
        """The package that declares the game (``package``; else its game class's package)."""
        return self.package or self.make.__module__.rpartition(".")[0]

    def resource(self, name: str) -> Traversable | None:
        """The file ``name`` the game's package ships (``RULES.md``, a page or terminal board),
        ``None`` when it ships none."""
        try:
            found = resources.files(self.package_name).joinpath(name)
        except (ModuleNotFoundError, ValueError, TypeError):
            return None
        return found if found.is_file() else None

    def load_kernel(self) -> ModuleType | None:
        """The game's compiled kernel module when it has one that can run here (Numba imports),
        else ``None``: callers then use the plain engine."""
        if self.kernel is None:
            return None
        module = import_module(self.kernel)
        return module if getattr(module, "AVAILABLE", False) else None

    def load_searches(self) -> ModuleType | None:
        """The module of the game's compiled searches (``searches``, by default ``search`` beside
        its kernel) when its kernel can run here, else ``None``; a search it lacks is an
        attribute it lacks (``ludotheque.engines.kernels.Searches`` lists them)."""
        if self.load_kernel() is None or self.kernel is None:
            return None
        name = self.searches or f"{self.kernel.rpartition('.')[0]}.search"
        try:
            return import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                return None
            raise

    def load_actions(self) -> ModuleType | None:
        """The game's action-encoding module (``actions``), imported on demand; ``None`` when
        the game declares none.

        >>> from ludotheque.core.registry import info
        >>> info("pylos").load_actions().action_count("kids", 2)
        186
        """
        return None if self.actions is None else import_module(self.actions)

    def rules_text(self) -> str | None:
        """The game's whole ``RULES.md`` (``## Français`` then ``## English``), if it ships one."""
        found = self.resource("RULES.md")
        return found.read_text("utf-8") if found is not None else None

    def variant_name(self, variant: str, lang: str) -> str:
        """``variant``'s name in ``lang``, or the id itself."""
        words = self.variant_names.get(variant)
        return _in(words, lang) if words else variant

    def phase_name(self, phase: str, lang: str) -> str | None:
        """``phase``'s name in ``lang``; ``None`` when the game does not declare it."""
        words = self.phase_names.get(phase)
        return _in(words, lang) if words else None

    def reason_text(self, reason: str, lang: str, *, loser: str | None = None) -> str | None:
        """How ``reason`` reads in ``lang``; ``None`` when the game does not declare it."""
        words = self.reasons.get(reason)
        return words.text(lang, loser=loser) if words else None


class Game(ABC):
    """One game with fixed parameters (variant, number of players)."""

    info: GameInfo

    def __init__(self, variant: str, players: int) -> None:
        self._variant = variant
        self._players = players

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def variant(self) -> str:
        return self._variant

    @property
    def players(self) -> int:
        return self._players

    @property
    def rules_version(self) -> int:
        return self.info.rules_version

    @property
    def has_chance(self) -> bool:
        """Whether ``new_state(seed)`` depends on the seed."""
        return False

    @property
    def has_hidden_information(self) -> bool:
        """Whether some player's view lacks something the full state holds."""
        return False

    @abstractmethod
    def new_state(self, seed: int = 0) -> State:
        """The start position; ``seed`` fixes every chance event."""

    @abstractmethod
    def parse_move(self, state: State, text: str) -> Any:
        """The legal move that ``text`` names in ``state``.

        Raises ``InvalidMoveError`` when ``text`` is not notation and ``IllegalMoveError``
        when it is notation but not legal in ``state``.
        """

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from ``State.to_json()``; raises ``ValueError`` on bad data."""

    @property
    def teams(self) -> tuple[tuple[Player, ...], ...]:
        """The sides that win or lose together (each player alone unless a game says otherwise)."""
        return tuple((player,) for player in range(self.players))

    def resignation(self, player: Player) -> Result:
        """The result when ``player`` resigns: every side but theirs wins.

        >>> from ludotheque import load
        >>> load("pylos").resignation(0)
        Result(winners=(1,), scores=(-1, 1), reason='resign')
        """
        team = next(side for side in self.teams if player in side)
        winners = tuple(p for p in range(self.players) if p not in team)
        scores = tuple(1 if p in winners else -1 for p in range(self.players))
        return Result(winners, scores, "resign")

    def check_json_header(self, data: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` unless ``data`` is a full state of this very game (``to_json``).

        >>> from ludotheque import load
        >>> kids = {"game": "pylos", "variant": "kids", "players": 2}
        >>> load("pylos").check_json_header(kids)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: pylos: state of pylos/kids/2 given to ludotheque.load('pylos', variant='standard', ...
        """
        try:
            facts = (data["game"], data["variant"], data.get("players", self.players))
        except (KeyError, TypeError):
            raise ValueError(f"{self.id}: malformed state: no game and variant") from None
        if facts != (self.id, self.variant, self.players):
            raise ValueError(f"{self.id}: state of {'/'.join(map(str, facts))} given to {self!r}")

    def mask_move_text(self, text: str, mover: Player, reader: Player | None) -> str:
        """The text of ``mover``'s move as ``reader`` may know it (identity unless secret)."""
        return text

    def __repr__(self) -> str:
        return f"ludotheque.load({self.id!r}, variant={self.variant!r}, players={self.players})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and (self.id, self.variant, self.players) == (other.id, other.variant, other.players)
        )

    def __hash__(self) -> int:
        return hash((self.id, self.variant, self.players))


class State(ABC):
    """An immutable position. ``play`` returns a new state and leaves this one unchanged."""

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game: ...

    @property
    @abstractmethod
    def to_move(self) -> Player | None:
        """The player to act, ``None`` once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many moves have been played since ``new_state``."""

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move in canonical order, without duplicates; empty once over."""

    @abstractmethod
    def play(self, move: Any) -> State:
        """The state after ``move`` (a move or its text); raises ``IllegalMoveError`` or
        ``InvalidMoveError`` and changes nothing when the move is refused."""

    @abstractmethod
    def result(self) -> Result:
        """The result; raises ``ValueError`` while the game is not over."""

    @abstractmethod
    def view(self, player: Player | None = None) -> JSON:
        """What ``player`` may know (``None``: a spectator), as JSON-serialisable data."""

    @abstractmethod
    def to_json(self) -> JSON:
        """The full state, secrets included (server side only)."""

    @abstractmethod
    def determinize(self, player: Player | None, rng: random.Random) -> State:
        """A full state consistent with ``view(player)``; unknowns are drawn from ``rng``."""

    def hidden_facts(self, player: Player | None) -> int:
        """How many facts of this state ``player`` does not know (``None``: a spectator), ``0``
        when nothing is hidden. A move after which the count falls revealed something to
        ``player``: the server never takes a move back past one (a takeback would show what a
        fresh game would not). Not part of the design's contract; only comparisons of it matter.

        >>> from ludotheque import load
        >>> load("pylos").new_state().hidden_facts(0)
        0
        """
        return 0

    def _not_over_error(self) -> ValueError:
        return ValueError(f"{self.game.id}: the game is not over (ply {self.ply})")


GameT = TypeVar("GameT", bound=Game)
MoveT = TypeVar("MoveT")
# Longer lists of legal moves are searched through a set, built once: Imbrication's capture
# chains run to tens of thousands, and a search plays each of them. Shorter ones are scanned,
# which costs less than building a set when a state is played once (random playouts).
_SCAN_AT_MOST = 1024


class StoredState(State, Generic[GameT, MoveT]):
    """The bookkeeping every engine here shares, so that a game's state class holds only its rules.

    A subclass stores its game in ``_game``, its ply count in ``_ply`` and its result in ``_result``
    (``None`` until the game ends), starts with ``_legal = None`` and implements three steps:
    ``_generate_legal_moves`` (the moves are generated once, on first use, and copied out;
    ``_is_legal`` checks a move against them), ``_apply`` (the state after a legal move: ``play``
    parses or checks the move first) and ``_view`` (what a seat may know: ``view`` checks the seat
    first). Two states are equal when their full states (``to_json``) are; each game defines a
    ``__hash__`` consistent with that.
    """

    # ``_legal_set`` is left unset until a long list is first searched.
    __slots__ = ("_game", "_legal", "_legal_set", "_ply", "_result")
    _game: GameT
    _legal: list[MoveT] | None
    _legal_set: frozenset[MoveT]
    _ply: int
    _result: Result | None

    @property
    def game(self) -> GameT:
        return self._game

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def ply(self) -> int:
        return self._ply

    def legal_moves(self) -> list[MoveT]:
        if self._result is not None:
            return []
        if self._legal is None:
            self._legal = self._generate_legal_moves()
        return list(self._legal)

    @abstractmethod
    def _generate_legal_moves(self) -> list[MoveT]:
        """Every legal move in canonical order (called once, while the game is not over)."""

    def play(self, move: MoveT | str) -> Self:
        """The state after ``move`` (a move or its text): a text is parsed against this position,
        a move checked against the legal ones, then ``_apply`` makes the new state."""
        if isinstance(move, str):
            legal: MoveT = self._game.parse_move(self, move)
            return self._apply(legal)
        if not self._is_legal(move):
            raise IllegalMoveError.here(self._game.id, move, self._ply)
        return self._apply(move)

    @abstractmethod
    def _apply(self, move: MoveT) -> Self:
        """The state after the legal ``move`` (already checked)."""

    def view(self, player: Player | None = None) -> JSON:
        check_viewer(self, player)
        return self._view(player)

    @abstractmethod
    def _view(self, player: Player | None) -> JSON:
        """What ``player`` (a checked seat, or ``None``) may know."""

    def _json_header(self) -> JSON:
        """The fields every full state starts with; ``Game.check_json_header`` reads them back."""
        return {"game": self._game.id, "variant": self._game.variant, "players": self._game.players}

    def _is_legal(self, move: object) -> bool:
        """Whether ``move`` is a legal move: usually one of the very objects ``legal_moves``
        listed (found by identity), else an equal move."""
        legal = self._legal if self._legal is not None else self.legal_moves()
        if len(legal) > _SCAN_AT_MOST:
            try:
                lookup = self._legal_set
            except AttributeError:
                lookup = self._legal_set = frozenset(legal)
            try:
                return move in lookup
            except TypeError:  # unhashable: not a move
                return False
        for candidate in legal:
            if candidate is move:
                return True
        return move in legal

    def result(self) -> Result:
        if self._result is None:
            raise self._not_over_error()
        return self._result

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoredState) or type(other) is not type(self):
            return False
        return self.to_json() == other.to_json()


class Position(Protocol):
    """The contract's facts every view starts with: what ``base_view`` reads of a position. A
    game's view module extends it with the read-only facts it needs (never the state's class)."""

    @property
    def game(self) -> Game: ...

    @property
    def to_move(self) -> Player | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def ply(self) -> int: ...

    def result(self) -> Result: ...


RULES_SECTIONS = {"fr": "## Français", "en": "## English"}


def rules_section(text: str, lang: str) -> str:
    """The ``## Français`` or ``## English`` section of a RULES.md, without its heading (the whole
    text when it has no such section).

    >>> rules_section("# T\\n## Français\\nBonjour\\n## English\\nHello\\n", "en")
    'Hello\\n'
    """
    lines = text.splitlines(keepends=True)
    heading = RULES_SECTIONS["fr" if lang == "fr" else "en"]
    start = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[start + 1 : end])


def base_view(state: Position, viewer: Player | None, phase: str) -> JSON:
    """The fields every view starts with (docs/design.md: game, variant, players, viewer, ...)."""
    game = state.game
    return {
        "game": game.id,
        "variant": game.variant,
        "players": game.players,
        "viewer": viewer,
        "to_move": state.to_move,
        "phase": phase,
        "result": state.result().to_json() if state.is_over else None,
        "ply": state.ply,
    }


def check_viewer(state: State, player: Player | None) -> None:
    """Raise ``ValueError`` unless ``player`` is ``None`` or a seat of the game."""
    if player is not None and not (
        isinstance(player, int) and not isinstance(player, bool) and 0 <= player < state.game.players
    ):
        raise ValueError(f"{state.game.id}: no player {player!r} in a {state.game.players}-player game")


def seats_in_order(first: Player, players: int) -> Sequence[Player]:
    """Seats starting from ``first`` and going round once.

    >>> list(seats_in_order(2, 4))
    [2, 3, 0, 1]
    """
    return [(first + i) % players for i in range(players)]
