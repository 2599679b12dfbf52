"""Each game's compiled searches, as committed at a git revision (default ``HEAD``) and as in the
working tree, timed side by side in one process: the speed ratio of a refactoring (issue: one
kernel interface, one search).

Usage: ``python benchmarks/search_speed.py [GAME ...] [--base REV] [--rounds N] [--only SEARCH ...]
[--out FILE]``.
The old shared modules (``engines/compiled.py``, ``searches.py``, ``kernels.py``) and the old
``kernel.py`` and ``search.py`` of each game are read with ``git show REV:path`` into a temporary
folder and imported as the package ``ludotheque.engines_base`` (a game's as
``ludotheque.engines_base.<id>``), the games' other modules (``board``, ``rules``, ``evaluate``,
...) the working tree's; no second copy is kept in ``src/``. Both are compiled (and checked to
answer alike) before timing; then, round after round, old and new run the same searches on the
same positions, alternating which goes first (old, new, new, old, or the reverse). The machine
is shared and noisy: the figure to read is each search's ratio new/old (the median over rounds of
the round's ratio; ``ratio_of_fastest``: the fastest round of each, less sensitive to bursts of
load), not the seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SIBLINGS = ("board", "rules", "evaluate", "notation", "view", "actions")
# game -> (load options, searches with budgets); positions: random games at these plies.
WORK: dict[str, tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {
    "pylos": ({}, {"alphabeta": {"depth": 64, "nodes": 150_000}, "uct": {"iterations": 4_000}}),
    "imbrication": ({}, {"pimc": {"depth": 5, "nodes": 200_000, "samples": 4},
                         "ismcts": {"iterations": 3_000, "samples": 8}}),
    "expion": ({"players": 2}, {"alphabeta": {"depth": 64, "nodes": 100_000}, "uct": {"iterations": 1_500}}),
    "plimil": ({}, {"ismcts": {"iterations": 3_000, "samples": 8}}),
}
PLIES = (6, 14, 24)


SHARED = ("compiled", "kernels", "searches")
"""The modules of ``engines/`` that the games' kernels and searches import, loaded as of the base."""


def _git_show(revision: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout


def _package(name: str, folder: Path) -> None:
    folder.mkdir(exist_ok=True)
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    package.__package__ = name
    sys.modules[name] = package


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found
    spec.loader.exec_module(found)
    return found


def load_base(game_id: str, revision: str, folder: Path) -> tuple[types.ModuleType, types.ModuleType]:
    """The game's kernel and search modules as committed at ``revision``, over the shared
    modules of that revision (loaded once)."""
    root = "ludotheque.engines_base"
    if root not in sys.modules:
        _package(root, folder / "engines_base")
        for module in SHARED:
            (folder / "engines_base" / f"{module}.py").write_text(
                _git_show(revision, f"src/ludotheque/engines/{module}.py"))
            _load(f"{root}.{module}", folder / "engines_base" / f"{module}.py")
    name = f"{root}.{game_id}"
    package_folder = folder / "engines_base" / game_id
    _package(name, package_folder)
    for module in ("kernel", "search"):
        (package_folder / f"{module}.py").write_text(
            _git_show(revision, f"src/ludotheque/engines/{game_id}/{module}.py"))
    for sibling in SIBLINGS:
        with contextlib.suppress(ModuleNotFoundError):
            current = importlib.import_module(f"ludotheque.engines.{game_id}.{sibling}")
            sys.modules[f"{name}.{sibling}"] = current
    loaded = [_load(f"{name}.{module}", package_folder / f"{module}.py") for module in ("kernel", "search")]
    return loaded[0], loaded[1]


def find(modules: tuple[types.ModuleType, types.ModuleType], search: str) -> Callable[..., Any]:
    """A search where its game defines it (search module first, else the kernel's)."""
    for module in reversed(modules):
        function = getattr(module, search, None)
        if callable(function):
            return function  # type: ignore[no-any-return]
    raise LookupError(search)


def calls(game_id: str, modules: tuple[types.ModuleType, types.ModuleType]) -> dict[str, Callable[[], Any]]:
    """Each search of the game, bound to its positions and budget: one call runs them all."""
    import ludotheque

    options, searches = WORK[game_id]
    game = ludotheque.load(game_id, **options)
    states = []
    for plies in PLIES:
        state = game.new_state(seed=plies)
        rng = random.Random(plies)
        for _ in range(plies):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            states.append(state)
    bound: dict[str, Callable[[], Any]] = {}
    for search, budget in searches.items():
        function = find(modules, search)
        budget = dict(budget)
        samples = budget.pop("samples", 0)

        def run(function: Callable[..., Any] = function, budget: dict[str, Any] = budget,
                samples: int = samples) -> list[tuple[int, float, int]]:
            answers = []
            for state in states:
                if samples:
                    rng = random.Random(1)
                    argument: Any = [state.determinize(state.to_move, rng) for _ in range(samples)]
                else:
                    argument = state
                found = function(argument, seed=3, **budget)
                answers.append((int(found.move), round(float(found.value), 9), int(found.nodes)))
            return answers

        bound[search] = run
    return bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(WORK))
    parser.add_argument("--base", default="HEAD", help="the revision of the old searches")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="only these searches (e.g. alphabeta uct)")
    arguments = parser.parse_args()
    import ludotheque.engines  # noqa: F401 - the package the old modules join

    figures = []
    with tempfile.TemporaryDirectory(prefix="search-speed-") as folder:
        for game_id in arguments.games:
            old = load_base(game_id, arguments.base, Path(folder))
            new = (importlib.import_module(f"ludotheque.engines.{game_id}.kernel"),
                   importlib.import_module(f"ludotheque.engines.{game_id}.search"))
            old_calls, new_calls = calls(game_id, old), calls(game_id, new)
            for search in old_calls:
                if arguments.only and search not in arguments.only:
                    continue
                started = time.perf_counter()
                before = old_calls[search]()
                compile_old = time.perf_counter() - started
                started = time.perf_counter()
                after = new_calls[search]()
                compile_new = time.perf_counter() - started
                if before != after:
                    raise SystemExit(f"{game_id} {search}: the answers differ: {before} vs {after}")
                ratios, olds, news, cpu_ratios = [], [], [], []
                for round_ in range(arguments.rounds):
                    # old, new, new, old (then the other way round): drifts in the machine's load
                    # within a round fall on both alike.
                    order = [("old", old_calls[search]), ("new", new_calls[search])]
                    if round_ % 2:
                        order.reverse()
                    seconds = {"old": 0.0, "new": 0.0}
                    cpu = {"old": 0.0, "new": 0.0}
                    for label, run in [*order, *reversed(order)]:
                        started, used = time.perf_counter(), time.process_time()
                        run()
                        seconds[label] += time.perf_counter() - started
                        cpu[label] += time.process_time() - used
                    olds.append(seconds["old"])
                    news.append(seconds["new"])
                    ratios.append(seconds["new"] / seconds["old"])
                    cpu_ratios.append(cpu["new"] / cpu["old"])
                figure = {"game": game_id, "search": search, "rounds": arguments.rounds,
                          "ratio_new_over_old": round(statistics.median(ratios), 3),
                          "ratio_of_fastest": round(min(news) / min(olds), 3),
                          # This process's processor time: other processes' load counts less.
                          "cpu_ratio_new_over_old": round(statistics.median(cpu_ratios), 3),
                          "ratios": [round(r, 3) for r in ratios],
                          "old_seconds": round(statistics.median(olds), 4),
                          "new_seconds": round(statistics.median(news), 4),
                          "first_call_seconds": {"old": round(compile_old, 2), "new": round(compile_new, 2)},
                          "answers_identical": True}
                figures.append(figure)
                print(json.dumps(figure), flush=True)
    if arguments.out is not None:
        arguments.out.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
