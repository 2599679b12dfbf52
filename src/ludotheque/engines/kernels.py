"""The written kernel interface: what a game's compiled kernel (``engines/<id>/kernel.py``) and
its searches (``engines/<id>/search.py``, or any module ``GameInfo.searches`` names) provide, as
Protocols that a test checks every registered kernel against (``tests/kernels/test_conformance.py``),
and the agreement check any kernel can run against its plain engine through that interface.

A kernel is found by the registry (``GameInfo.load_kernel()``, ``GameInfo.load_searches()``);
nothing else reads it by name. The compiled side of a kernel (array layouts, move codes) is the
kernel's own business, documented in its module and in ``docs/kernels.md``; a new game's kernel
can instead give the compiled functions of the array-kernel interface
(``searches.KERNEL_FUNCTIONS``), and ``searches.build`` then makes every search over it
(alpha-beta, UCT, IS-MCTS, PIMC, playouts, perft).

>>> import ludotheque
>>> info = ludotheque.load("pylos").info
>>> isinstance(info.load_kernel(), Kernel), isinstance(info.load_searches(), PerfectSearches)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..core.contract import Game, Result, State
from .compiled import Agreement, KernelMismatchError, Playouts, SearchResult

SEARCHES = ("alphabeta", "uct", "pimc", "ismcts")
"""The searches a kernel's search module may offer, by name."""


@runtime_checkable
class Position(Protocol):
    """A position as a kernel holds it (a value: equal positions compare equal), the positions
    seen so far included where repetitions count."""

    @property
    def is_over(self) -> bool: ...

    def result(self) -> Result: ...


@runtime_checkable
class Kernel(Protocol):
    """What every game's kernel module provides, in Python (each function compiled inside):

    - ``AVAILABLE``: whether it runs here (Numba imports);
    - ``from_state(state)`` and ``to_state(position, game=None)``: positions from and to the
      contract's ``State`` (an exact round trip);
    - ``legal_moves(position)``: the legal moves' integer codes in the contract's canonical
      order; ``play(position, code)``: the next position (``ValueError`` on an illegal code);
    - ``move_code(text)`` and ``move_text(code)``: the coding of moves, text as the rules file
      writes it;
    - ``playouts(state, n, seed)``: ``n`` uniformly random playouts (wins per player, draws,
      lengths), a pure function of the seed; ``trace_playout(state, seed)``: the first of them,
      move by move, and where it ended;
    - ``perft(depth, state)``: positions after exactly ``depth`` plies;
    - ``compare_with_plain(game, games, seed)``: random games played by the kernel and the
      plain engine side by side, compared at every ply (raises ``KernelMismatchError``).

    Outcomes, hashing and evaluation are compiled functions inside the kernel and its searches;
    a hidden-information game's kernel plays full states, and its searches get the worlds a bot
    drew with ``state.determinize`` (never the true state)."""

    AVAILABLE: bool

    def from_state(self, state: Any) -> Any: ...

    def to_state(self, position: Any, game: Any = None) -> Any: ...

    def legal_moves(self, position: Any) -> list[int]: ...

    def play(self, position: Any, move: int) -> Any: ...

    def move_code(self, text: str) -> int: ...

    def move_text(self, code: int) -> str: ...

    def playouts(self, state: Any, n: int, seed: int = 0) -> Playouts: ...

    def trace_playout(self, state: Any, seed: int = 0) -> tuple[list[int], Any]: ...

    def perft(self, depth: int, state: Any = None) -> int: ...

    def compare_with_plain(self, game: Any, games: int, seed: int = 0) -> Agreement: ...


@runtime_checkable
class PerfectSearches(Protocol):
    """The searches of a game that hides nothing: ``alphabeta(state, *, depth, nodes, seed,
    progress, **options)`` (two sides) and ``uct(state, *, iterations, exploration, seed,
    progress, **options)``, each a pure function of (seed, position) answering a
    :class:`~ludotheque.engines.compiled.SearchResult` in the kernel's move codes."""

    def alphabeta(self, state: Any, *, depth: int = ..., nodes: int = ..., seed: int = ...,
                  progress: Callable[[float], None] | None = None) -> SearchResult: ...

    def uct(self, state: Any, *, iterations: int = ..., exploration: float = ..., seed: int = ...,
            progress: Callable[[float], None] | None = None) -> SearchResult: ...


@runtime_checkable
class HiddenSearches(Protocol):
    """The searches of a game that hides information, over the worlds a bot drew:
    ``pimc(worlds, *, depth, nodes, seed, progress, **options)`` and
    ``ismcts(worlds, *, iterations, exploration, seed, progress, **options)``."""

    def ismcts(self, worlds: Sequence[Any], *, iterations: int = ..., exploration: float = ...,
               seed: int = ..., progress: Callable[[float], None] | None = None) -> SearchResult: ...


def offered(searches: object) -> tuple[str, ...]:
    """The searches of :data:`SEARCHES` that ``searches`` (a game's search module) offers."""
    return tuple(name for name in SEARCHES if callable(getattr(searches, name, None)))


def compare_through_interface(kernel: Kernel, game: Game, games: int, seed: int = 0) -> Agreement:
    """``compare_with_plain`` for any kernel, through :class:`Kernel` alone: ``games`` random
    games (moves drawn by ``random.Random(seed)``) played by the kernel and the plain engine side
    by side; at every ply the ordered legal moves (as text), the position (``from_state`` of the
    plain state), the end and the result are compared, and at the end ``to_state`` gives the
    plain state back. Raises :class:`KernelMismatchError` at the first difference."""
    rng = random.Random(seed)
    plies = compared = 0
    endings: dict[str, int] = {}
    for number in range(games):
        state: State = game.new_state(seed=seed + number)
        position = kernel.from_state(state)
        where = f"{game.id}/{game.variant}/{game.players} game {number} (seed {seed + number})"
        while True:
            plain = [str(move) for move in state.legal_moves()]
            codes = kernel.legal_moves(position)
            texts = [kernel.move_text(code) for code in codes]
            if plain != texts:
                raise KernelMismatchError(f"{where} ply {state.ply}: plain {plain} kernel {texts}")
            if kernel.from_state(state) != position:
                raise KernelMismatchError(f"{where} ply {state.ply}: {kernel.from_state(state)} {position}")
            compared += len(codes)
            if state.is_over:
                break
            index = rng.randrange(len(codes))
            state = state.play(plain[index])
            position = kernel.play(position, codes[index])
            plies += 1
            if state.is_over != position.is_over or (state.is_over and state.result() != position.result()):
                raise KernelMismatchError(f"{where} ply {state.ply}: the results differ")
        if kernel.to_state(position, game).to_json() != state.to_json():
            raise KernelMismatchError(f"{where}: to_state differs from the plain state")
        reason = state.result().reason
        endings[reason] = endings.get(reason, 0) + 1
    return Agreement(f"{game.id}/{game.variant}/{game.players}", games, plies, compared, endings)
