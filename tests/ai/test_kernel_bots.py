"""Bots that search inside a game's compiled kernel (``ai/compiled.py``): which bot a level gets,
the baselines, the fallbacks to the plain engine, and, for hidden information, that the kernel
is handed determinizations only.

The searches are the Pylos kernel's own (``engines/pylos/search.py``); Pylos hides nothing, so
its ``pimc`` and ``ismcts`` search the one world there is. Where a test needs a hidden-information
kernel search that records what it was given, it adds one to the real Imbrication kernel for
the length of the test.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai import (
    AlphaBetaBot,
    KernelAlphaBetaBot,
    KernelISMCTSBot,
    KernelPIMCBot,
    KernelUCTBot,
    MCTSBot,
)
from ludotheque.ai.compiled import ISMCTS_WORLDS, kernel_plan
from ludotheque.core import Game, State
from ludotheque.core.contract import LevelSpec
from ludotheque.engines.compiled import AVAILABLE, SearchResult
from ludotheque.engines.pylos import search as pylos_search
from tests.extension.nim.rules import NimGame

from .conftest import played_states

needs_numba = pytest.mark.skipif(not AVAILABLE, reason="numba is not installed")
PYLOS = ludotheque.load("pylos")


def bot_of(spec: LevelSpec, game: Game = PYLOS, seed: int = 0) -> ai.Bot:
    return ai.from_spec(spec, game, rng=random.Random(seed))


def middle_states(game: Game = PYLOS, count: int = 4) -> list[State]:
    return played_states(game, seed=3, every=5)[1 : count + 1]


# -- which bot a name gets -------------------------------------------------------------------------
@needs_numba
def test_pylos_hard_searches_the_kernel_and_hard_plain_is_the_hard_level_of_before() -> None:
    hard, plain = ai.bot("hard", PYLOS), ai.bot("hard-plain", PYLOS)
    assert isinstance(hard, KernelAlphaBetaBot) and hard.engine == "kernel"
    assert isinstance(plain, AlphaBetaBot) and plain.engine == "plain"
    assert plain.options.depth == 8 and plain.options.nodes == 30_000 and plain.options.deny is not None


@needs_numba
@pytest.mark.parametrize(("name", "iterations"), [("uct10k", 10_000), ("uct100k", 100_000)])
def test_the_baselines_are_the_kernel_s_uct_with_random_playouts(name: str, iterations: int) -> None:
    baseline = ai.bot(name, PYLOS, seed=1)
    assert isinstance(baseline, KernelUCTBot) and baseline.engine == "kernel"
    assert baseline.iterations == iterations and baseline.options == {}  # no evaluator, no bias
    assert baseline.algorithm == "mcts"


@needs_numba
def test_a_level_s_kernel_options_name_the_search_or_take_the_level_s_algorithm() -> None:
    cases: list[tuple[LevelSpec, type[ai.Bot]]] = [
        (LevelSpec("alphabeta", {"kernel": {"nodes": 5_000}, "depth": 2}), KernelAlphaBetaBot),
        (LevelSpec("mcts", {"kernel": {"iterations": 300}, "iterations": 50}), KernelUCTBot),
        (LevelSpec("alphabeta", {"kernel": {"algorithm": "uct", "iterations": 300}}), KernelUCTBot),
        (LevelSpec("pimc", {"kernel": {"nodes": 5_000, "samples": 2}}), KernelPIMCBot),
        (LevelSpec("mcts", {"kernel": {"algorithm": "ismcts", "iterations": 300}}), KernelISMCTSBot),
    ]
    state = middle_states()[0]
    for spec, expected in cases:
        bot = bot_of(spec)
        assert type(bot) is expected and bot.engine == "kernel"
        analysis = bot.analyse(state)
        assert analysis.best_move in state.legal_moves()
        assert analysis.principal_variation[0] == str(analysis.best_move)


def test_kernel_plans_are_read_from_the_level() -> None:
    assert kernel_plan(LevelSpec("alphabeta", {"depth": 3}), PYLOS) is None
    assert kernel_plan(LevelSpec("uct", {"iterations": 7}), PYLOS) == ("uct", {"iterations": 7})
    hidden = ludotheque.load("imbrication")
    assert kernel_plan(LevelSpec("uct", {"iterations": 7}), hidden) == ("ismcts", {"iterations": 7})
    assert kernel_plan(LevelSpec("pimc", {"kernel": {"samples": 3}}), hidden) == ("pimc", {"samples": 3})


def test_a_level_that_could_never_search_its_kernel_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown kernel search 'minimax'"):
        bot_of(LevelSpec("alphabeta", {"kernel": {"algorithm": "minimax"}}))
    with pytest.raises(ValueError, match="hides information"):
        bot_of(LevelSpec("alphabeta", {"kernel": {"nodes": 10}}), ludotheque.load("imbrication"))


@needs_numba
def test_an_option_the_kernel_s_search_does_not_take_is_a_value_error_at_construction() -> None:
    with pytest.raises(ValueError, match="no such options"):
        bot_of(LevelSpec("alphabeta", {"kernel": {"nodes": 10, "temperature": 2}}))


# -- what the kernel bots play ---------------------------------------------------------------------
@needs_numba
@pytest.mark.parametrize("spec", [
    LevelSpec("alphabeta", {"kernel": {"nodes": 20_000}}),
    LevelSpec("mcts", {"kernel": {"iterations": 500}}),
], ids=["alphabeta", "uct"])
def test_kernel_bots_are_pure_functions_of_seed_and_state(spec: LevelSpec) -> None:
    states = middle_states()
    reused = bot_of(spec, seed=9)
    for state in reversed(states):  # not a game's order: choose must remember nothing
        assert reused.choose(state) == bot_of(spec, seed=9).choose(state)
        assert reused.choose(state) in state.legal_moves()
    start = PYLOS.new_state()
    assert len({str(bot_of(spec, seed=s).choose(start)) for s in range(8)}) > 1  # seeds vary it


@needs_numba
def test_on_a_game_that_hides_nothing_pimc_and_ismcts_search_the_one_world() -> None:
    state = middle_states()[1]
    pairs = [
        (LevelSpec("pimc", {"kernel": {"nodes": 20_000, "samples": 3}}),
         LevelSpec("alphabeta", {"kernel": {"nodes": 20_000}})),
        (LevelSpec("ismcts", {"kernel": {"iterations": 400, "samples": 5}}),
         LevelSpec("mcts", {"kernel": {"iterations": 400}})),
    ]
    for worlds, direct in pairs:
        searched, plain = bot_of(worlds, seed=4).analyse(state), bot_of(direct, seed=4).analyse(state)
        assert searched.to_json() | {"algorithm": ""} == plain.to_json() | {"algorithm": ""}


@needs_numba
def test_progress_rises_to_one_and_the_analysis_names_the_kernel_s_choice() -> None:
    state = middle_states()[2]
    for spec in (LevelSpec("alphabeta", {"kernel": {"nodes": 50_000}}),
                 LevelSpec("mcts", {"kernel": {"iterations": 2_000}})):
        seen: list[float] = []
        analysis = bot_of(spec).analyse(state, progress=seen.append)
        assert seen and seen[-1] == 1.0 and seen == sorted(seen)
        assert -1.0 <= analysis.value <= 1.0 and analysis.iterations > 0
    visits = bot_of(LevelSpec("mcts", {"kernel": {"iterations": 2_000}})).analyse(state).visits
    assert sum(visits.values()) == 2_000 and list(visits.values()) == sorted(visits.values(), reverse=True)


# -- fallbacks: no kernel, Numba missing, a kernel without that search -----------------------------
def test_a_game_without_a_kernel_plays_its_levels_and_baselines_on_the_plain_engine() -> None:
    nim = NimGame("standard", 2)
    assert nim.info.load_kernel() is None
    level = bot_of(LevelSpec("alphabeta", {"kernel": {"nodes": 10}, "depth": 2}), nim)
    assert type(level) is AlphaBetaBot and level.engine == "plain" and level.options.depth == 2
    baseline = ai.bot("uct10k", nim, seed=2)
    assert type(baseline) is MCTSBot and baseline.engine == "plain" and baseline.iterations == 10_000
    state = nim.new_state(seed=1)
    assert level.choose(state) in state.legal_moves()


@needs_numba
def test_a_kernel_without_the_search_leaves_the_level_on_the_plain_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(pylos_search, "alphabeta")
    monkeypatch.delattr(pylos_search, "uct")
    hard = ai.bot("hard", PYLOS, seed=3)
    assert type(hard) is AlphaBetaBot
    state = middle_states()[0]
    assert hard.choose(state) == ai.bot("hard-plain", PYLOS, seed=3).choose(state)
    baseline = ai.bot("uct10k", PYLOS)
    assert type(baseline) is MCTSBot and baseline.engine == "kernel playouts"


def test_without_numba_every_level_and_baseline_plays_on_the_plain_engine() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import ludotheque\n"
        "from ludotheque import ai\n"
        "game = ludotheque.load('pylos')\n"
        "assert game.info.load_kernel() is None\n"
        "state = game.new_state().play('1a1').play('1b1')\n"
        "for name in ('easy', 'medium', 'hard', 'uct10k'):\n"
        "    bot = ai.bot(name, game, seed=1)\n"
        "    assert bot.engine == 'plain', (name, bot.engine)\n"
        "    print(name, type(bot).__name__)\n"
        "hard, plain = ai.bot('hard', game, seed=5), ai.bot('hard-plain', game, seed=5)\n"
        "assert hard.choose(state) == plain.choose(state)\n"
        "baseline = ai.bot('uct10k', game, seed=5)\n"
        "baseline.iterations = 30\n"
        "assert baseline.choose(state) in state.legal_moves()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "hard AlphaBetaBot" in done.stdout and "uct10k MCTSBot" in done.stdout


# -- hidden information: the kernel gets determinizations only ------------------------------------
class Recorder:
    """A hidden-information search added to a real kernel for a test: it records the worlds and
    options it is given and answers the first root move."""

    def __init__(self, kernel: ModuleType) -> None:
        self.kernel = kernel
        self.calls: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []

    def __call__(self, worlds: Sequence[State], **options: Any) -> SearchResult:
        self.calls.append(([world.to_json() for world in worlds], options))
        codes = self.kernel.legal_moves(self.kernel.from_state(worlds[0]))
        return SearchResult(codes[0], 0.0, 1, len(worlds), np.array(codes, dtype=np.int32),
                            np.ones(len(codes)), (codes[0],))


@pytest.fixture
def hidden() -> Iterator[tuple[Game, ModuleType, ModuleType]]:
    game = ludotheque.load("imbrication")
    kernel, searches = game.info.load_kernel(), game.info.load_searches()
    if kernel is None or searches is None:
        pytest.skip("the Imbrication kernel does not run here")
    yield game, kernel, searches


def secret_twins(game: Game) -> tuple[State, State]:
    """Two states of one game that the player to move cannot tell apart, secrets differing."""
    rng = random.Random(0)
    for state in played_states(game, seed=11, every=1):
        player = state.to_move
        assert player is not None
        if len(state.legal_moves()) < 2:
            continue
        twin = state.determinize(player, rng)
        if twin.to_json() != state.to_json():
            return state, twin
    raise AssertionError("no position with secrets")


@pytest.mark.parametrize(("search", "spec"), [
    ("ismcts", LevelSpec("ismcts", {"kernel": {"iterations": 50, "samples": 6}})),
    ("pimc", LevelSpec("pimc", {"kernel": {"depth": 2, "nodes": 100, "samples": 3}})),
])
def test_a_hidden_information_search_gets_determinizations_never_the_true_state(
    hidden: tuple[Game, ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch, search: str,
    spec: LevelSpec,
) -> None:
    game, kernel, searches = hidden
    recorder = Recorder(kernel)
    monkeypatch.setattr(searches, search, recorder, raising=False)
    state, twin = secret_twins(game)
    player = state.to_move
    assert player is not None
    first, second = bot_of(spec, game, seed=7), bot_of(spec, game, seed=7)
    assert first.engine == "kernel"
    assert str(first.choose(state)) == str(second.choose(twin))
    (worlds, options), (twin_worlds, twin_options) = recorder.calls
    assert worlds == twin_worlds and options == twin_options  # nothing of the secrets reached it
    assert len(worlds) == spec.options["kernel"]["samples"]
    assert len({str(world) for world in worlds}) > 1  # drawn, not one world repeated
    assert all(game.state_from_json(world).view(player) == state.view(player) for world in worlds)
    assert "samples" not in options and "algorithm" not in options


def test_a_hidden_information_game_s_baseline_is_the_kernel_s_ismcts_with_random_playouts(
    hidden: tuple[Game, ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, kernel, searches = hidden
    recorder = Recorder(kernel)
    monkeypatch.setattr(searches, "ismcts", recorder, raising=False)
    baseline = ai.bot("uct10k", game, seed=1)
    assert type(baseline) is KernelISMCTSBot and baseline.iterations == 10_000
    state, _ = secret_twins(game)
    baseline.choose(state)
    worlds, options = recorder.calls[0]
    assert len(worlds) == ISMCTS_WORLDS
    assert set(options) == {"iterations", "exploration", "seed", "progress"}  # no leaf, no bias
    monkeypatch.delattr(searches, "ismcts")
    fallback = ai.bot("uct10k", game, seed=1)
    assert type(fallback) is MCTSBot and fallback.algorithm == "ismcts"
    assert fallback.engine == "kernel playouts"


REAL_HIDDEN_SEARCHES = [
    (game_id, search) for game_id in ludotheque.games()
    for search in ("pimc", "ismcts")
    if ludotheque.load(game_id).has_hidden_information
    and callable(getattr(ludotheque.load(game_id).info.load_searches(), search, None))
]
SMALL = {"pimc": {"depth": 2, "nodes": 2_000, "samples": 3}, "ismcts": {"iterations": 200, "samples": 4}}


@pytest.mark.parametrize(("game_id", "search"), REAL_HIDDEN_SEARCHES,
                         ids=[f"{g}-{s}" for g, s in REAL_HIDDEN_SEARCHES])
def test_a_real_kernel_s_hidden_information_search_is_blind_to_the_secrets(game_id: str, search: str) -> None:
    game = ludotheque.load(game_id)
    bot = bot_of(LevelSpec(search, {"kernel": SMALL[search]}), game, seed=5)
    assert bot.engine == "kernel" and bot.algorithm == search
    state, twin = secret_twins(game)
    first, second = bot.analyse(state), bot.analyse(twin)
    assert first == second and first.best_move in state.legal_moves()
