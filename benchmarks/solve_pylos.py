"""The kids solver of Pylos: its speed, its lookups, and its tables checked (issue #28).

Usage: ``python benchmarks/solve_pylos.py [--folder DIR] [--speed] [--lookups N] [--check N]
[--games N] [--cycles B] [--out FILE]``.

- ``--speed``: solves the same rules with 6 balls a player (6.3 million entries) in a temporary
  folder, after a warm-up that compiles the solver, and gives entries per second; with the tables of
  ``--folder`` (default: the data folder's), their own figures too (``progress.json``).
- ``--lookups N``: the time of one lookup (``KidsTable.probe``) and of one ``perfect`` decision
  (every move's exact value) over N positions of the solved layers.
- ``--check N``: N random positions of the solved layers, each solved again by an exhaustive
  negamax over the plain engine (``tests/solve/plain.py``, nothing of the solver's), compared; the
  positions are near the end (at most ``--reserve`` balls left in the reserves, 6 by default),
  where that search is quick. With ``--check-variant standard`` (or ``advanced``): positions of that
  rule set's tables, each checked by the bounded plain search instead (a win or loss in ``d``: forced
  within ``d`` plies, not within ``d - 2``).
- ``--games N``: where the start is solved, N games of ``perfect`` (the second player, who wins)
  against each of ``--opponents`` (``hard`` and ``uct100k``): ``perfect`` must win them all, in the
  table's plies.
- ``--drawn-games N`` with ``--check-variant standard`` (or ``advanced``): N games of ``perfect``
  against the first of ``--opponents`` from positions that rule set's tables say are drawn (the
  start, then a few random moves from it), ``perfect`` first or second in turn: it must lose none.
- ``--cycles B``: the standard and advanced rules with B balls a player (5 by default in the
  figures of docs/solving.md): the retrograde analysis's time and passes, and the proof search of
  the start's nodes and time, alone and over the finished analysis (``solve_proof``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.solve.plain import loses_within, plain_value, wins_within  # noqa: E402

import ludotheque  # noqa: E402
from ludotheque import ai  # noqa: E402
from ludotheque.engines.pylos.perfect import PerfectBot, move_values, position_value  # noqa: E402
from ludotheque.engines.pylos.rules import PylosState  # noqa: E402
from ludotheque.engines.pylos.solve_cycles import CyclesSolver  # noqa: E402
from ludotheque.engines.pylos.solve_proof import ProofSearch  # noqa: E402
from ludotheque.engines.pylos.solver import KidsSolver, KidsTable, read_progress, tables_dir  # noqa: E402


def speed(folder: Path) -> dict[str, Any]:
    """Entries a second on a small game (6 balls a player), and the big solve's own figures."""
    with tempfile.TemporaryDirectory() as warm:
        KidsSolver(warm, balls=3).run()
    with tempfile.TemporaryDirectory() as scratch:
        solver = KidsSolver(scratch, balls=6)
        began = time.perf_counter()
        progress = solver.run()
        seconds = time.perf_counter() - began
    found: dict[str, Any] = {"six_balls": {"entries": progress.solved, "seconds": round(seconds, 2),
                                           "entries_per_s": round(progress.solved / seconds)}}
    big = read_progress(folder)
    if big is not None:
        found["tables"] = {"solved": big.solved, "entries": KidsSolver(folder).plan().entries,
                           "layers_done": sorted(big.done), "cpu_wall_s": big.seconds,
                           "entries_per_s": round(big.solved / big.seconds) if big.seconds else None,
                           "start": None if big.start is None else vars(big.start)}
    return found


def solved_positions(table: KidsTable, count: int, reserve_left: int, seed: int) -> list[PylosState]:
    """``count`` positions of solved layers, from random games, with at most ``reserve_left``
    balls left in both reserves together."""
    game, rng = ludotheque.load("pylos", variant="kids"), random.Random(seed)
    found: list[PylosState] = []
    while len(found) < count:
        state = cast(PylosState, game.new_state())
        limit = rng.randrange(1, reserve_left + 1)
        while not state.is_over and state.reserve(0) + state.reserve(1) > limit:
            state = state.play(rng.choice(state.legal_moves()))
        if state.to_move is not None and table.probe(state.balls(0), state.balls(1), state.to_move):
            found.append(state)
    return found


def lookups(table: KidsTable, count: int) -> dict[str, Any]:
    """Microseconds a lookup and a whole decision (every move's exact value) take."""
    positions = solved_positions(table, count, 8, seed=1)
    began = time.perf_counter()
    for state in positions:
        table.probe(state.balls(0), state.balls(1), state.to_move or 0)
    probe_us = (time.perf_counter() - began) / len(positions) * 1e6
    timings = []
    for state in positions[:200]:
        began = time.perf_counter()
        move_values(state, table)
        timings.append(time.perf_counter() - began)
    return {"positions": len(positions), "probe_us": round(probe_us, 2),
            "decision_ms_median": round(statistics.median(timings) * 1e3, 3),
            "decision_ms_max": round(max(timings) * 1e3, 3)}


def check(table: KidsTable, count: int, reserve_left: int) -> dict[str, Any]:
    """The tables against an exhaustive search over the plain engine, on positions with at most
    ``reserve_left`` balls left in the reserves."""
    memo: dict[tuple[int, int, int], tuple[bool, int]] = {}
    disagree = []
    began = time.perf_counter()
    for state in solved_positions(table, count, reserve_left, seed=2):
        solved = table.probe(state.balls(0), state.balls(1), state.to_move or 0)
        plain = plain_value(state, memo)
        if solved is None or (solved.wins, solved.distance) != plain:
            disagree.append(state.to_json())
    return {"positions": count, "reserve_left_at_most": reserve_left, "disagree": len(disagree),
            "examples": disagree[:3], "seconds": round(time.perf_counter() - began, 1)}


def games(table: KidsTable, count: int, opponents: list[str]) -> dict[str, Any]:
    """``perfect`` as the second player (the winner) against each of ``opponents``."""
    game = ludotheque.load("pylos", variant="kids")
    start = table.probe(0, 0, 0)
    if start is None:
        return {"skipped": "the start is not solved yet"}
    found: dict[str, Any] = {"start": vars(start)}
    for name in opponents:
        won, lengths = 0, []
        for seed in range(count):
            perfect = PerfectBot(game, fallback=ai.bot("hard", game, seed=seed), table=table,
                                 rng=random.Random(seed))
            other = ai.bot(name, game, seed=seed)
            state = game.new_state()
            while not state.is_over:
                state = state.play((perfect if state.to_move == 1 else other).choose(state))
            won += state.result().winners == (1,)
            lengths.append(state.ply)
            print(f"{name} game {seed + 1}: perfect {'won' if state.result().winners == (1,) else 'LOST'} "
                  f"in {state.ply} plies", file=sys.stderr, flush=True)
        found[name] = {"games": count, "perfect_won": won, "plies_max": max(lengths),
                       "plies_median": statistics.median(lengths)}
    return found


def cycles(balls: int, deepest: int = 40) -> dict[str, Any]:
    """The analysis and the proof search of the start, each rule set with cycles, ``balls`` a
    player, after a warm-up that compiles both: the search alone (up to ``deepest`` plies) and
    over the analysis stopped after half its passes."""
    found: dict[str, Any] = {}
    for variant in ("standard", "advanced"):
        with tempfile.TemporaryDirectory() as warm:
            CyclesSolver(warm, variant, balls=2).run()
            ProofSearch(warm, variant, balls=2, table_entries=1 << 12).run()
        with tempfile.TemporaryDirectory() as alone, tempfile.TemporaryDirectory() as scratch, \
                tempfile.TemporaryDirectory() as half:
            began = time.perf_counter()
            done = CyclesSolver(scratch, variant, balls=balls).run()
            analysis_s = time.perf_counter() - began
            stopped = CyclesSolver(half, variant, balls=balls)
            while stopped.progress().passes < len(done.by_pass) // 2:
                stopped.run(max_stretches=1)
            searched = {}
            for name, folder in (("alone", alone), ("over_half_the_passes", half)):
                proof = ProofSearch(folder, variant, balls=balls, table_entries=1 << 22,
                                    max_depth=deepest).run()
                value = None if proof.value is None else vars(proof.value)
                searched[name] = {"nodes": proof.nodes, "seconds": round(proof.seconds, 2),
                                  "depth": proof.depth, "value": value, "draw": proof.draw}
        found[variant] = {"analysis": {"seconds": round(analysis_s, 2), "passes": len(done.by_pass),
                                       "by_pass": done.by_pass, "proved": done.proved},
                          "proof": searched}
    return found


def check_variant(variant: str, count: int, reserve_left: int, seed: int = 7) -> dict[str, Any]:
    """``count`` positions of random ``variant`` games (at most ``reserve_left`` balls left in the
    reserves) whose value the tables of this machine prove, each checked by the bounded plain
    search (``tests/solve/plain.py``): a win in ``d`` is a forced win within ``d`` plies and none
    within ``d - 2``; a loss in ``d`` the same for the other side."""
    game = ludotheque.load("pylos", variant=variant)
    rng = random.Random(seed)
    checked, disagree, began = 0, [], time.perf_counter()
    while checked < count:
        state = cast(PylosState, game.new_state())
        while not state.is_over and state.reserve(0) + state.reserve(1) > reserve_left:
            state = state.play(rng.choice(state.legal_moves()))
        value = None if state.is_over else position_value(state)
        if value is None or value.draw:
            continue
        memo: dict[tuple[int, int, int, int, bool], bool] = {}
        within = wins_within if value.wins else loses_within
        checked += 1
        if not within(state, value.plies, memo) or within(state, value.plies - 2, memo):
            disagree.append(state.to_json())
    return {"variant": variant, "positions": checked, "reserve_left_at_most": reserve_left,
            "disagree": len(disagree), "examples": disagree[:3],
            "seconds": round(time.perf_counter() - began, 1)}


def drawn_games(variant: str, count: int, opponent: str, seed: int = 11, most_plies: int = 300
                ) -> dict[str, Any]:
    """``count`` games of ``perfect`` against ``opponent`` from positions ``variant``'s tables say
    are drawn (reached by a few random moves from the start, the start itself first), ``perfect``
    to move in even games and second in odd ones: a draw must never be lost. A game still going
    after ``most_plies`` plies counts as unfinished."""
    game = ludotheque.load("pylos", variant=variant)
    rng = random.Random(seed)
    outcomes = {"perfect_won": 0, "drawn": 0, "perfect_lost": 0, "unfinished": 0}
    lengths, lost, began, number = [], [], time.perf_counter(), 0
    while number < count:
        state = cast(PylosState, game.new_state())
        for _ in range(0 if number == 0 else rng.randrange(2, 13)):
            state = state.play(rng.choice(state.legal_moves()))
        value = None if state.is_over else position_value(state)
        if value is None or not value.draw:
            continue  # another position
        mover = cast(int, state.to_move)
        perfect_side = mover if number % 2 == 0 else 1 - mover
        bots = {perfect_side: ai.bot("perfect", game, seed=number),
                1 - perfect_side: ai.bot(opponent, game, seed=number)}
        start, plies = state.to_json(), 0
        while not state.is_over and plies < most_plies:
            state = state.play(bots[cast(int, state.to_move)].choose(state))
            plies += 1
        winners = state.result().winners if state.is_over else None
        kind = ("unfinished" if winners is None else "drawn" if not winners
                else "perfect_won" if perfect_side in winners else "perfect_lost")
        outcomes[kind] += 1
        lengths.append(plies)
        if kind == "perfect_lost":
            lost.append(start)
        print(f"{variant} drawn game {number + 1}: {kind} in {plies} plies", file=sys.stderr, flush=True)
        number += 1
    played = sum(outcomes.values())
    return {"variant": variant, "opponent": opponent, "games": played, **outcomes,
            "plies_median": statistics.median(lengths) if lengths else None,
            "lost_from": lost[:3], "seconds": round(time.perf_counter() - began, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=tables_dir())
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--lookups", type=int, default=0)
    parser.add_argument("--check", type=int, default=0)
    parser.add_argument("--check-variant", default=None,
                        help="--check N over this rule set's tables (standard, advanced) instead of kids'")
    parser.add_argument("--reserve", type=int, default=6, help="--check: balls left at most")
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--opponents", default="hard,uct100k", help="--games: bots, comma-separated")
    parser.add_argument("--cycles", type=int, default=0, help="balls a player of the small games")
    parser.add_argument("--drawn-games", type=int, default=0,
                        help="with --check-variant: games of perfect from drawn positions (never lost)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    table = KidsTable(args.folder)
    results: dict[str, Any] = {"folder": str(args.folder)}
    if args.speed:
        results["speed"] = speed(args.folder)
    if args.lookups and table.available:
        results["lookups"] = lookups(table, args.lookups)
    if args.check and args.check_variant:
        results["check"] = check_variant(args.check_variant, args.check, args.reserve)
    elif args.check and table.available:
        results["check"] = check(table, args.check, args.reserve)
    if args.drawn_games and args.check_variant:
        opponent = args.opponents.split(",")[0]
        results["drawn_games"] = drawn_games(args.check_variant, args.drawn_games, opponent)
    if args.games and table.available:
        results["games"] = games(table, args.games, args.opponents.split(","))
    if args.cycles:
        results["cycles"] = cycles(args.cycles)
    text = json.dumps(results, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
