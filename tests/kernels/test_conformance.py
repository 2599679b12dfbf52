"""The kernel conformance suite: every registered game's compiled kernel, and the test game's
(Nim, ``tests/extension/nim/kernel.py``: one file, its searches the shared ones of
``engines/searches.py``), checked through the written interface (``engines/kernels.py``) alone:
the interface itself, agreement with the plain engine, move coding and positions, perft,
playouts (and that the shared module's perft and playouts, written once for every kernel, count
and play what the kernel does), determinization purity for hidden games, and the sanity of every
search it offers: a legal move, a pure function of the seed, and a win in one taken by each.
A new game's kernel passes this suite by being registered (``GameInfo.kernel``).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai.compiled import (
    KernelAlphaBetaBot,
    KernelISMCTSBot,
    KernelPIMCBot,
    KernelUCTBot,
    kernel_bot,
)
from ludotheque.core.contract import Game, LevelSpec, State
from ludotheque.engines import searches as shared_searches
from ludotheque.engines.compiled import AVAILABLE
from ludotheque.engines.kernels import HiddenSearches, Kernel, PerfectSearches, offered

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="Numba is not installed")

NIM_KERNEL = "tests.extension.nim.kernel"


@dataclass(frozen=True)
class Subject:
    """A game with a kernel: how to make it, its kernel and its searches."""

    name: str
    make: Callable[[str, int], Game]
    configurations: tuple[tuple[str, int], ...]

    def game(self, variant: str | None = None, players: int | None = None) -> Game:
        variant = variant or self.configurations[0][0]
        players = players or self.configurations[0][1]
        return self.make(variant, players)

    @property
    def kernel(self) -> Any:
        module = self.game().info.load_kernel()
        assert module is not None
        return module

    @property
    def searches(self) -> Any:
        return self.game().info.load_searches()


def _registered(game_id: str) -> Subject:
    info = ludotheque.load(game_id).info
    configurations = tuple((v, p) for v in info.variants for p in info.player_counts)
    return Subject(game_id, lambda v, p: ludotheque.load(game_id, variant=v, players=p), configurations)


def _nim() -> Subject:
    from tests.extension.nim import GAME, NimGame

    info = dataclasses.replace(GAME, kernel=NIM_KERNEL, searches=NIM_KERNEL)

    class KernelNim(NimGame):
        pass

    KernelNim.info = info
    configurations = tuple((v, p) for v in info.variants for p in info.player_counts)
    return Subject("nim", KernelNim, configurations)


SUBJECTS = [*(_registered(g) for g in ludotheque.games() if ludotheque.load(g).info.kernel is not None),
            _nim()]


@pytest.fixture(params=SUBJECTS, ids=[s.name for s in SUBJECTS])
def subject(request: pytest.FixtureRequest) -> Subject:
    found: Subject = request.param
    return found


def played(game: Game, seed: int, plies: int = 400) -> Iterator[State]:
    """The states of one random game (moves drawn by the seed)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(plies):
        yield state
        if state.is_over:
            return
        state = state.play(rng.choice(state.legal_moves()))


def some_states(game: Game, seed: int = 0, every: int = 7) -> list[State]:
    return [s for i, s in enumerate(played(game, seed)) if i % every == 0 and not s.is_over]


def plain_perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    return sum(plain_perft(state.play(move), depth - 1) for move in state.legal_moves())


# -- the interface -----------------------------------------------------------------------------------
def test_the_kernel_and_its_searches_implement_the_written_interface(subject: Subject) -> None:
    kernel, searches = subject.kernel, subject.searches
    assert isinstance(kernel, Kernel)
    names = offered(searches)
    assert names, f"{subject.name}: no search offered"
    hidden = subject.game().has_hidden_information
    if hidden:
        assert isinstance(searches, HiddenSearches) or "pimc" in names
        assert not {"alphabeta", "uct"} & set(names), "a hidden game's search reads the true state"
    else:
        assert isinstance(searches, PerfectSearches) or "uct" in names
    for name in names:
        parameters = set(inspect.signature(getattr(searches, name)).parameters)
        budget = {"depth", "nodes"} if name in ("alphabeta", "pimc") else {"iterations", "exploration"}
        assert budget | {"seed", "progress"} <= parameters, (name, parameters)


def test_the_kernel_agrees_with_the_plain_engine(subject: Subject) -> None:
    for variant, players in subject.configurations:
        agreement = subject.kernel.compare_with_plain(subject.game(variant, players), 2, seed=3)
        assert agreement.games == 2 and agreement.plies > 0 and sum(agreement.endings.values()) == 2


def test_moves_and_positions_round_trip(subject: Subject) -> None:
    kernel = subject.kernel
    game = subject.game()
    for state in some_states(game, seed=1):
        position = kernel.from_state(state)
        texts = [str(move) for move in state.legal_moves()]
        assert [kernel.move_text(code) for code in kernel.legal_moves(position)] == texts
        assert [kernel.move_code(text) for text in texts] == kernel.legal_moves(position)
        assert kernel.to_state(position, game).to_json() == state.to_json()
        assert not position.is_over
        following = kernel.play(position, kernel.legal_moves(position)[0])
        assert following == kernel.from_state(state.play(texts[0]))
        with pytest.raises(ValueError):
            kernel.play(position, -12345)


def test_perft_counts_what_the_plain_engine_counts(subject: Subject) -> None:
    game = subject.game()
    states = some_states(game, seed=2, every=9)[:3]
    for state in states:
        for depth in (1, 2):
            assert subject.kernel.perft(depth, state) == plain_perft(state, depth), (state.ply, depth)


def test_playouts_are_a_pure_function_of_the_seed(subject: Subject) -> None:
    kernel = subject.kernel
    state = some_states(subject.game(), seed=4, every=1)[1]
    first, again, other = (kernel.playouts(state, 200, seed) for seed in (11, 11, 12))
    assert first.wins.tolist() == again.wins.tolist() and first.lengths.tolist() == again.lengths.tolist()
    assert first.draws == again.draws and len(first.lengths) == 200 and (first.lengths > 0).all()
    assert first.lengths.tolist() != other.lengths.tolist()
    if len(subject.game().teams) == subject.game().players:  # one winner at most: each playout counted once
        assert int(first.wins.sum()) + first.draws == 200
    trail, final = kernel.trace_playout(state, 11)
    assert len(trail) == int(kernel.playouts(state, 1, 11).lengths[0])
    position = kernel.from_state(state)
    for code in trail:
        position = kernel.play(position, code)
    assert position == final and final.is_over


def test_the_shared_perft_and_playouts_are_the_kernel_s(subject: Subject) -> None:
    """Perft and random playouts are written once (``engines/searches.py``): over the game's
    kernel they count what the kernel's own count, and play the same playouts from the same seed."""
    shared = getattr(subject.searches, "SEARCHES", None)
    assert isinstance(shared, shared_searches.Searches), f"{subject.name}: no shared searches"
    for variant, players in subject.configurations:
        game = subject.game(variant, players)
        for state in some_states(game, seed=8, every=11)[:2]:
            for depth in (1, 2):
                assert shared.perft(depth, state) == subject.kernel.perft(depth, state), (variant, depth)
            ours, theirs = shared.playouts(state, 12, 3), subject.kernel.playouts(state, 12, 3)
            assert ((ours.wins.tolist(), ours.draws, ours.lengths.tolist())
                    == (theirs.wins.tolist(), theirs.draws, theirs.lengths.tolist())), (variant, players)


def test_playouts_of_a_finished_game_repeat_its_result(subject: Subject) -> None:
    for variant, players in subject.configurations:
        final = list(played(subject.game(variant, players), seed=7, plies=100_000))[-1]
        assert final.is_over
        wins, draws, lengths = subject.kernel.playouts(final, 5)
        winners = final.result().winners
        assert [int(w) for w in wins] == [5 if p in winners else 0 for p in range(players)]
        assert draws == (0 if winners else 5) and int(lengths.sum()) == 0


@pytest.mark.parametrize("subject", [s for s in SUBJECTS if s.name != "nim"], ids=lambda s: s.name)
def test_without_numba_the_kernel_imports_and_says_so(subject: Subject) -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import importlib, ludotheque\n"
        f"game = ludotheque.load({subject.name!r})\n"
        "info = game.info\n"
        "assert info.load_kernel() is None and info.load_searches() is None\n"
        "kernel = importlib.import_module(info.kernel)\n"
        "assert not kernel.AVAILABLE\n"
        "state = game.new_state()\n"
        "text = str(state.legal_moves()[-1])\n"
        "assert kernel.move_text(kernel.move_code(text)) == text\n"
        "searches = importlib.import_module(info.kernel.rpartition('.')[0] + '.search')\n"
        "calls = [lambda: kernel.playouts(state, 1)]\n"
        "whole = lambda name: state if name in ('alphabeta', 'uct') else [state]\n"
        "calls += [lambda name=name: getattr(searches, name)(whole(name))\n"
        "          for name in ('alphabeta', 'uct', 'pimc', 'ismcts') if hasattr(searches, name)]\n"
        "for call in calls:\n"
        "    try:\n        call()\n"
        "    except RuntimeError as error:\n        print(error)\n"
        "print(len(calls))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert done.stdout.count("Numba, which cannot be imported") == int(lines[-2]) >= 2


def test_determinizations_keep_the_legal_moves_and_see_no_secret(subject: Subject) -> None:
    kernel = subject.kernel
    game = subject.game()
    for state in some_states(game, seed=5)[:6]:
        player = state.to_move
        assert player is not None
        codes = kernel.legal_moves(kernel.from_state(state))
        worlds = [state.determinize(player, random.Random(k)) for k in range(3)]
        for world in worlds:
            assert kernel.legal_moves(kernel.from_state(world)) == codes
            assert world.view(player) == state.view(player)
        # The same draws from a state that differs only in secrets give the same worlds.
        twin = worlds[0]
        assert ([kernel.from_state(twin.determinize(player, random.Random(k))) for k in range(3)]
                == [kernel.from_state(state.determinize(player, random.Random(k))) for k in range(3)])
        if not game.has_hidden_information:
            assert all(kernel.from_state(world) == kernel.from_state(state) for world in worlds)


SMALL: dict[str, dict[str, Any]] = {
    "alphabeta": {"depth": 3, "nodes": 3_000}, "uct": {"iterations": 300},
    "pimc": {"depth": 2, "nodes": 3_000}, "ismcts": {"iterations": 300},
}


def _search(searches: ModuleType, name: str, state: State, seed: int) -> Any:
    function = getattr(searches, name)
    if name in ("pimc", "ismcts"):
        player = state.to_move
        worlds = [state.determinize(player, random.Random(k)) for k in range(3)]
        before = [world.to_json() for world in worlds]
        found = function(worlds, seed=seed, **SMALL[name])
        assert [world.to_json() for world in worlds] == before
        return found
    return function(state, seed=seed, **SMALL[name])


def test_every_search_answers_a_legal_move_and_is_a_pure_function_of_the_seed(subject: Subject) -> None:
    kernel, searches = subject.kernel, subject.searches
    game = subject.game()
    states = [s for s in some_states(game, seed=6, every=5) if len(s.legal_moves()) > 1][:3]
    for name in offered(searches):
        for state in states:
            codes = kernel.legal_moves(kernel.from_state(state))
            found = _search(searches, name, state, seed=9)
            assert found.move in codes and -1.0 <= found.value <= 1.0
            assert [int(m) for m in found.moves] == codes and len(found.scores) == len(codes)
            assert found.line[0] == found.move and found.nodes > 0
            again = _search(searches, name, state, seed=9)
            assert (again.move, again.value, again.nodes, again.line) == (found.move, found.value,
                                                                          found.nodes, found.line)


@functools.cache
def win_in_one(subject: Subject) -> tuple[State, list[State], tuple[int, ...]] | None:
    """A position of a two-sided game where the player to move wins at once by some moves but
    not by all, met near the end of the kernel's random playouts, with the worlds a hidden
    game's searches get (in each of which those moves win too) and the winning codes; ``None``
    when none is met in 40 playouts."""
    game = subject.game()
    if len(game.teams) != 2:
        return None
    for seed in range(40):
        state = game.new_state(seed=seed)
        trail, _ = subject.kernel.trace_playout(state, seed)
        states = [state]
        for code in trail[:-1]:
            states.append(states[-1].play(subject.kernel.move_text(code)))
        for candidate in reversed(states[-8:]):
            found = _winning(subject, candidate)
            if found is not None:
                return found
    return None


def _winning(subject: Subject, state: State) -> tuple[State, list[State], tuple[int, ...]] | None:
    """``state`` with its worlds and winning codes, if some moves but not all win there at once
    (in the state and in each world)."""
    kernel = subject.kernel
    mover = state.to_move
    if mover is None:
        return None
    worlds = [state.determinize(mover, random.Random(k)) for k in range(3)]
    winning: set[int] | None = None
    for world in (state, *worlds):
        position = kernel.from_state(world)
        wins = {code for code in kernel.legal_moves(position)
                if (after := kernel.play(position, code)).is_over and mover in after.result().winners}
        winning = wins if winning is None else winning & wins
        if not winning:
            return None
    if winning is None or len(winning) == len(kernel.legal_moves(kernel.from_state(state))):
        return None
    return state, worlds, tuple(sorted(winning))


WINNING_BUDGETS: dict[str, dict[str, Any]] = {
    "alphabeta": {"depth": 2, "nodes": 100_000}, "uct": {"iterations": 3_000},
    "pimc": {"depth": 2, "nodes": 30_000}, "ismcts": {"iterations": 3_000},
}


@pytest.mark.parametrize("name", sorted(WINNING_BUDGETS))
def test_every_search_takes_a_win_in_one(subject: Subject, name: str) -> None:
    searches = subject.searches
    if name not in offered(searches):
        pytest.skip(f"{subject.name} offers no {name}")
    found = win_in_one(subject)
    if found is None:
        pytest.skip(f"{subject.name}: no win in one met at the end of 40 random playouts")
    state, worlds, winning = found
    argument = worlds if name in ("pimc", "ismcts") else state
    answer = getattr(searches, name)(argument, seed=1, **WINNING_BUDGETS[name])
    if name in ("alphabeta", "pimc"):  # the win sooner is worth more
        assert answer.move in winning and answer.value > 0.9, (name, subject.kernel.move_text(answer.move))
    else:  # playouts value a win now and a forced win later alike: a move that won them all
        assert answer.move in winning or answer.value == 1.0, (name, subject.kernel.move_text(answer.move))


# -- the test game: a fifth kernel, one file, and the shared searches play it -------------------------
def test_the_shared_searches_play_the_test_game_through_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.extension.nim import GAME, NimGame

    monkeypatch.setattr(NimGame, "info", dataclasses.replace(GAME, kernel=NIM_KERNEL, searches=NIM_KERNEL))
    game = NimGame("standard", 2)
    specs = {
        KernelAlphaBetaBot: LevelSpec("alphabeta", {"kernel": {"nodes": 20_000}}),
        KernelUCTBot: LevelSpec("mcts", {"kernel": {"iterations": 500}}),
        KernelPIMCBot: LevelSpec("pimc", {"kernel": {"nodes": 5_000, "samples": 2}}),
        KernelISMCTSBot: LevelSpec("ismcts", {"kernel": {"iterations": 300, "samples": 2}}),
    }
    for expected, spec in specs.items():
        bot = kernel_bot(spec, game, rng=random.Random(1))
        assert type(bot) is expected and bot.engine == "kernel"
        state = game.new_state(seed=3)
        while not state.is_over:
            state = state.play(bot.choose(state))
    # Perfect play from a won position: alpha-beta wins it against anyone.
    hard = KernelAlphaBetaBot(game, rng=random.Random(2), nodes=200_000)
    for seed in range(4):
        state = game.new_state(seed=seed)
        heaps = state.view(None)["heaps"]
        if heaps[0] ^ heaps[1] ^ heaps[2] == 0:
            continue
        rng = random.Random(seed)
        while not state.is_over:
            state = state.play(hard.choose(state) if state.to_move == 0 else rng.choice(state.legal_moves()))
        assert state.result().winners == (0,)
    assert ai.bot("uct10k", game, seed=1).engine == "kernel"
