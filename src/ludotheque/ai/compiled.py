"""Bots that search inside a game's compiled kernel, and the random-playout UCT baselines.

A game's kernel (``GameInfo.load_kernel()``, the interface ``ludotheque.engines.kernels.Kernel``)
comes with a module of compiled searches over it (``GameInfo.load_searches()``, the interface
``ludotheque.engines.kernels.Searches``), each answering a
:class:`~ludotheque.engines.compiled.SearchResult` in the kernel's move codes:

- ``alphabeta(state, *, depth, nodes, seed, progress, **options)`` and
  ``uct(state, *, iterations, exploration, seed, progress, **options)``, for perfect information;
- ``pimc(worlds, *, depth, nodes, seed, progress, **options)`` and
  ``ismcts(worlds, *, iterations, exploration, seed, progress, **options)``, for hidden
  information: ``worlds`` are full states the bot drew with ``state.determinize(player, rng)``
  for the player to move, never the true state.

A level asks for one with its ``kernel`` options (``"algorithm"`` among them names the search;
by default the level's own, ``mcts`` meaning ``uct``); :func:`kernel_bot` builds the bot when
the kernel runs here and offers that search, else the level plays on the plain engine. The bots
convert the contract's ``State`` at the root only and give back the plain move whose text is the
kernel's (``kernel.move_text``). Their budgets are nodes and iterations, and the worlds and the
kernel's seed come from the bot's generator of (seed, ply): a move is a pure function of
(seed, state), or for hidden information of (seed, ``view(player)``).

>>> import ludotheque
>>> from ludotheque.core.contract import LevelSpec
>>> game = ludotheque.load("pylos")
>>> kernel_search(game, "uct") is not None, kernel_search(ludotheque.load("expion"), "nothing")
(True, None)
>>> kernel_plan(LevelSpec("mcts", {"kernel": {"iterations": 500}}), game)
('uct', {'iterations': 500})
>>> kernel_plan(LevelSpec("alphabeta", {"depth": 3}), game) is None
True
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..core.contract import Game, LevelSpec, Player, State
from .base import Analysis, Bot, Progress, has_two_sides, report, terminal_values
from .evaluators import GainDetector, LeafValues, gain_detector_for

KERNEL_SEARCHES = ("alphabeta", "uct", "pimc", "ismcts")
"""The searches a kernel may offer, by the name of its function."""
PERFECT_INFORMATION_SEARCHES = ("alphabeta", "uct")
"""Those that read the full state, so only for games that hide nothing."""
PIMC_WORLDS = 8
"""Worlds a determinized alpha-beta searches when its level does not say (``samples``)."""
ISMCTS_WORLDS = 100
"""Worlds an information-set MCTS cycles through when its level does not say (``samples``):
enough for the secrets to vary between iterations, few enough that drawing them and converting
them at the root stays a small part of a move."""
_SEED_BITS = 63


def kernel_search(game: Game, search: str) -> ModuleType | None:
    """The module of the game's compiled searches when its kernel can run here and it offers
    ``search`` (one of :data:`KERNEL_SEARCHES`), else ``None``."""
    module = game.info.load_searches()
    return module if module is not None and callable(getattr(module, search, None)) else None


def kernel_plan(spec: LevelSpec, game: Game) -> tuple[str, dict[str, Any]] | None:
    """Which kernel search ``spec`` asks for, with its options, or ``None`` when it asks for
    none. The ``uct`` algorithm (the baselines) asks for UCT with random playouts and no
    evaluator: ``uct`` in the kernel, ``ismcts`` for a game that hides information. Raises
    ``ValueError`` for an unknown search, or a perfect-information one for a game that hides
    information (a level that could never play)."""
    if spec.algorithm == "uct":
        search = "ismcts" if game.has_hidden_information else "uct"
        return search, {key: spec.options[key] for key in ("iterations", "exploration", "samples")
                        if key in spec.options}
    declared = spec.options.get("kernel")
    if declared is None:
        return None
    options = dict(declared)
    search = str(options.pop("algorithm", None) or ("uct" if spec.algorithm == "mcts" else spec.algorithm))
    if search not in KERNEL_SEARCHES:
        raise ValueError(f"{game.id}: unknown kernel search {search!r}; "
                         f"searches: {', '.join(KERNEL_SEARCHES)}")
    if search in PERFECT_INFORMATION_SEARCHES and game.has_hidden_information:
        raise ValueError(f"{game.id} hides information: its levels cannot search the kernel with "
                         f"{search}, which reads the full state (pimc or ismcts can)")
    return search, options


def kernel_bot(spec: LevelSpec, game: Game, *, rng: random.Random) -> Bot | None:
    """The bot that searches the kernel as ``spec`` asks (:func:`kernel_plan`), or ``None`` when
    it asks for no kernel search or the game's kernel cannot run it here (no kernel, Numba
    missing, or no such search): the level then plays on the plain engine."""
    plan = kernel_plan(spec, game)
    if plan is None or kernel_search(game, plan[0]) is None:
        return None
    search, options = plan
    if search == "alphabeta":
        deny = gain_detector_for(game) if options.pop("deny_gains", False) else None
        return KernelAlphaBetaBot(game, rng=rng, deny=deny, **options)
    if search == "uct":
        return KernelUCTBot(game, rng=rng, **options)
    if search == "pimc":
        return KernelPIMCBot(game, rng=rng, **options)
    return KernelISMCTSBot(game, rng=rng, **options)


class _KernelBot(Bot):
    """What every kernel bot shares: the kernel and its search, found at construction, and the
    options it passes on, checked against the search's signature then."""

    search = ""
    engine = "kernel"
    visits = False  # the search's scores are visit counts (MCTS), not values

    def __init__(self, game: Game, *, rng: random.Random | None, options: Mapping[str, Any]) -> None:
        if self.search in PERFECT_INFORMATION_SEARCHES and game.has_hidden_information:
            raise ValueError(f"{game.id} hides information: the kernel's {self.search} reads the full state")
        searches = kernel_search(game, self.search)
        kernel = game.info.load_kernel()
        if searches is None or kernel is None:
            raise ValueError(f"{game.id}: no compiled kernel with {self.search} here")
        try:
            inspect.signature(getattr(searches, self.search)).bind_partial(None, **options)
        except TypeError as error:
            raise ValueError(f"{game.id}: the kernel's {self.search} takes no such options "
                             f"{sorted(options)}: {error}") from None
        super().__init__(game, rng=rng)
        self.kernel = kernel
        self.searches = searches
        self.options = dict(options)

    def budget(self) -> dict[str, Any]:
        """The search's budget arguments (depth and nodes, or iterations and exploration)."""
        raise NotImplementedError

    def run_search(self, argument: Any, rng: random.Random, progress: Progress | None) -> Any:
        """The kernel's search on ``argument`` (a state, or worlds), seeded from ``rng``."""
        search = getattr(self.searches, self.search)
        return search(argument, seed=_kernel_seed(rng), progress=progress, **self.budget(), **self.options)

    def _plain_move(self, state: State, code: int) -> Any:
        """The plain engine's legal move that the kernel's ``code`` names."""
        text = self.kernel.move_text(int(code))
        for move in state.legal_moves():
            if str(move) == text:
                return move
        raise AssertionError(f"{state.game.id}: the kernel's move {text!r} is not legal at ply {state.ply}")

    def _analysis(self, state: State, found: Any, *, visits: bool, iterations: int | None = None) -> Analysis:
        """The search's answer as an ``Analysis``: its line as text, and with ``visits`` the
        root moves' scores as visit counts, most visited first."""
        counted: dict[str, int] = {}
        if visits:
            ranked = sorted(zip(found.moves, found.scores, strict=True), key=lambda pair: -pair[1])
            counted = {self.kernel.move_text(int(m)): int(v) for m, v in ranked if v > 0}
        return Analysis(
            value=max(-1.0, min(1.0, float(found.value))),
            best_move=self._plain_move(state, found.move),
            principal_variation=tuple(self.kernel.move_text(int(m)) for m in found.line),
            visits=counted,
            iterations=int(found.nodes if iterations is None else iterations),
            depth=int(found.depth) if not visits else len(found.line),
            algorithm=self.algorithm,
        )


def _kernel_seed(rng: random.Random) -> int:
    return rng.getrandbits(_SEED_BITS)


class KernelAlphaBetaBot(_KernelBot):
    """Alpha-beta inside the kernel (``searches.alphabeta``): iterative deepening to ``depth``
    within ``nodes`` positions, ties broken by the seed; other ``options`` go to the kernel's
    search. ``deny(state)`` (the game's ``immediate_gain``), when given, makes the root prefer
    the best move after which the opponent has no immediate gain, as
    :class:`~ludotheque.ai.alphabeta.AlphaBetaBot` does. Raises ``ValueError`` unless the game has
    two sides, hides nothing and its kernel runs alpha-beta here."""

    algorithm = "alphabeta"
    search = "alphabeta"

    def __init__(self, game: Game, *, rng: random.Random | None = None, depth: int = 64,
                 nodes: int = 1_000_000, deny: GainDetector | None = None, **options: Any) -> None:
        if not has_two_sides(game):
            raise ValueError(f"{game.id}: alpha-beta needs two players (or two teams), "
                             f"not {len(game.teams)} sides")
        if depth < 1 or nodes < 1:
            raise ValueError(f"alpha-beta needs a depth and nodes of at least 1, not {depth!r}, {nodes!r}")
        super().__init__(game, rng=rng, options=options)
        self.depth = depth
        self.nodes = nodes
        self.deny = deny

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        self._check_playable(state)
        found = self.run_search(state, self.rng_for(state), progress)
        if self.deny is not None:
            best, value = self._deny_gains(state, found)
            if best != found.move:
                found = found._replace(move=best, value=value, line=(best,))
        report(progress, 1.0)
        return self._analysis(state, found, visits=False)

    def budget(self) -> dict[str, Any]:
        return {"depth": self.depth, "nodes": self.nodes}

    def _deny_gains(self, state: State, found: Any) -> tuple[int, float]:
        """The best root move that leaves the opponent no immediate gain, if one exists that is
        not a proven loss; the search's own choice when it proved a win (``AlphaBetaBot``)."""
        assert self.deny is not None
        if found.value >= 1.0:
            return int(found.move), float(found.value)
        mover = state.to_move
        assert mover is not None
        sides = {player: side for side, members in enumerate(self.game.teams) for player in members}
        values = {int(m): float(v) for m, v in zip(found.moves, found.scores, strict=True)}
        ranked = sorted(values, key=lambda m: (m != found.move, -values[m]))
        for code in ranked:
            if values[code] <= -1.0:
                break
            child = state.play(self._plain_move(state, code))
            if child.is_over or child.to_move is None or sides[child.to_move] == sides[mover]:
                return code, values[code]  # the turn stays with this side: nothing conceded
            if not self.deny(child):
                return code, values[code]
        return int(found.move), float(found.value)


class KernelUCTBot(_KernelBot):
    """UCT inside the kernel (``searches.uct``): ``iterations`` iterations, UCB1 with
    ``exploration``; with no other ``options``, random playouts to the end and no evaluator (the
    baselines). Raises ``ValueError`` for a game that hides information or whose kernel has no
    UCT here."""

    algorithm = "mcts"
    search = "uct"

    def __init__(self, game: Game, *, rng: random.Random | None = None, iterations: int = 10_000,
                 exploration: float = 1.0, **options: Any) -> None:
        if iterations < 1:
            raise ValueError(f"UCT needs at least one iteration, not {iterations!r}")
        super().__init__(game, rng=rng, options=options)
        self.iterations = iterations
        self.exploration = exploration

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        self._check_playable(state)
        found = self.run_search(state, self.rng_for(state), progress)
        report(progress, 1.0)
        return self._analysis(state, found, visits=True)

    def budget(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "exploration": self.exploration}


class _WorldsBot(_KernelBot):
    """A kernel bot for hidden information: it draws ``samples`` worlds with
    ``state.determinize(player, rng)`` and hands the kernel only those, so it reads nothing of
    the true state but its legal moves, ``ply`` and ``to_move``."""

    def __init__(self, game: Game, *, rng: random.Random | None, samples: int,
                 options: Mapping[str, Any]) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples!r}")
        super().__init__(game, rng=rng, options=options)
        self.samples = samples

    def worlds(self, state: State, player: Player, rng: random.Random) -> list[State]:
        """``samples`` determinizations of ``state`` for ``player``; raises ``AssertionError``
        if one's legal moves differ from the state's (the game's ``determinize`` is then wrong:
        a player knows their own legal moves)."""
        expected = [str(move) for move in state.legal_moves()]
        drawn = [state.determinize(player, rng) for _ in range(self.samples)]
        for world in drawn:
            if world.is_over or [str(move) for move in world.legal_moves()] != expected:
                raise AssertionError(f"{state.game.id}: a determinization at ply {state.ply} "
                                     "changed the legal moves of the player to move")
        return drawn

    def forced(self, state: State) -> Analysis | None:
        """The answer without a search when there is one legal move (no secret is touched)."""
        moves = state.legal_moves()
        if len(moves) != 1:
            return None
        return Analysis(0.0, moves[0], (str(moves[0]),), {}, 0, 0, self.algorithm)

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        player = self._check_playable(state)
        answer = self.forced(state)
        if answer is None:
            rng = self.rng_for(state)
            worlds = self.worlds(state, player, rng)
            found = self.run_search(worlds, rng, progress)
            answer = self._analysis(state, found, visits=self.visits)
        report(progress, 1.0)
        return answer


class KernelPIMCBot(_WorldsBot):
    """Determinized alpha-beta inside the kernel (``searches.pimc``): ``samples`` worlds, each
    searched to ``depth`` within the ``nodes`` of the whole decision, the root move best on
    average. Raises ``ValueError`` unless the game has two sides and its kernel runs it here."""

    algorithm = "pimc"
    search = "pimc"

    def __init__(self, game: Game, *, rng: random.Random | None = None, depth: int = 64,
                 nodes: int = 1_000_000, samples: int = PIMC_WORLDS, **options: Any) -> None:
        if not has_two_sides(game):
            raise ValueError(f"{game.id}: determinized alpha-beta needs two players (or two teams), "
                             f"not {len(game.teams)} sides")
        if depth < 1 or nodes < 1:
            raise ValueError(f"alpha-beta needs a depth and nodes of at least 1, not {depth!r}, {nodes!r}")
        super().__init__(game, rng=rng, samples=samples, options=options)
        self.depth = depth
        self.nodes = nodes

    def budget(self) -> dict[str, Any]:
        return {"depth": self.depth, "nodes": self.nodes}


class KernelISMCTSBot(_WorldsBot):
    """Information-set MCTS inside the kernel (``searches.ismcts``): ``iterations`` iterations,
    iteration ``i`` played in world ``i % samples``; with no other ``options``, random playouts
    to the end. Raises ``ValueError`` where the game's kernel does not run it here."""

    algorithm = "ismcts"
    search = "ismcts"
    visits = True

    def __init__(self, game: Game, *, rng: random.Random | None = None, iterations: int = 10_000,
                 exploration: float = 1.0, samples: int = ISMCTS_WORLDS, **options: Any) -> None:
        if iterations < 1:
            raise ValueError(f"MCTS needs at least one iteration, not {iterations!r}")
        super().__init__(game, rng=rng, samples=min(samples, iterations), options=options)
        self.iterations = iterations
        self.exploration = exploration

    def budget(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "exploration": self.exploration}


def kernel_rollout_values(kernel: ModuleType) -> LeafValues:
    """Leaf values from one random playout to the end played by the kernel (``playouts``): +1
    for a winner, -1 for a loser, 0 for all on a draw; seeded by the search's generator."""

    def values(state: State, rng: random.Random) -> tuple[float, ...]:
        if state.is_over:
            return terminal_values(state)
        wins, _, _ = kernel.playouts(state, 1, rng.getrandbits(_SEED_BITS))
        if not int(wins.sum()):
            return tuple(0.0 for _ in range(state.game.players))
        return tuple(1.0 if int(w) else -1.0 for w in wins)

    return values
