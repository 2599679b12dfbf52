"""Fit each game's analysis thresholds (inaccuracy, mistake, blunder) on self-play.

For each game, ``--games`` games of the ``medium`` level against the ``hard`` level (seats
alternating, fixed seeds) are analysed with the game's default budget
(``ludotheque.analysis.budget_for``), each move by what its mover knew. The thresholds are
quantiles of the losses of all analysed moves (both levels together): an inaccuracy from the
``--quantiles`` first (default 0.80), a mistake from the second (0.92), a blunder from the third
(0.97), each at least ``FLOORS`` (0.05, 0.10, 0.25: below those a loss is search noise), rounded
to 0.01 and kept rising. The figures printed beside them (each level's rate of marks with the
fitted thresholds, mean loss) check that they tell the levels apart: medium should be marked
more often than hard. With ``--write`` the thresholds go into ``engines/<id>/analysis.json``
(the budget there is kept). Run from the repository root::

    .venv/bin/python benchmarks/analysis_thresholds.py --games 4 --write
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import ludotheque
from ludotheque import ai
from ludotheque.analysis import MARKS, Thresholds, analyse, budget_for, settings_for
from ludotheque.core.records import Record

ROOT = Path(__file__).resolve().parent.parent
FLOORS = (0.05, 0.10, 0.25)
GAMES = ("pylos", "expion", "imbrication", "plimil")


def self_play(game_id: str, seed: int, levels: tuple[str, str], max_plies: int) -> Record | None:
    """One game of ``levels[0]`` (seat 0) against ``levels[1]``; ``None`` if it runs past ``max_plies``."""
    game = ludotheque.load(game_id, players=2)
    bots = [ai.bot(level, game, seed=seed * 7 + seat) for seat, level in enumerate(levels)]
    state = game.new_state(seed=seed)
    moves: list[str] = []
    while not state.is_over:
        if len(moves) >= max_plies:
            return None
        assert state.to_move is not None
        move = bots[state.to_move].choose(state)
        moves.append(str(move))
        state = state.play(move)
    return Record.start(game, seed=seed).with_moves(moves).finished(state.result())


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def fit(losses: list[float], quantiles: tuple[float, float, float]) -> Thresholds:
    picked: list[float] = []
    low = 0.0
    for q, floor in zip(quantiles, FLOORS, strict=True):
        value = max(floor, round(quantile(losses, q), 2), round(low + 0.01, 2) if picked else 0.0)
        picked.append(min(2.0, value))
        low = value
    return Thresholds(*picked)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_ids", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--games", type=int, default=4, help="self-play games per game id")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--quantiles", type=float, nargs=3, default=(0.80, 0.92, 0.97))
    parser.add_argument("--write", action="store_true", help="store the thresholds in analysis.json")
    parser.add_argument("--cache", type=Path, default=None, metavar="DIR",
                        help="keep the self-play records in DIR/<game>.jsonl and reuse them (refits "
                             "with other quantiles or budgets then skip the self-play)")
    options = parser.parse_args()
    for game_id in options.games_ids:
        started = time.perf_counter()
        records: list[tuple[Record, tuple[str, str]]] = []
        cached = options.cache / f"{game_id}.jsonl" if options.cache else None
        if cached is not None and cached.exists():
            for line in cached.read_text("utf-8").splitlines()[: options.games]:
                data = json.loads(line)
                records.append((Record.from_json(data["record"]), (data["levels"][0], data["levels"][1])))
        seed = 1 + max((r.seed or 0 for r, _ in records), default=-1)
        while len(records) < options.games and seed < 4 * options.games:
            levels = ("medium", "hard") if seed % 2 == 0 else ("hard", "medium")
            record = self_play(game_id, seed, levels, options.max_plies)
            seed += 1
            if record is not None and all(r.seed != record.seed for r, _ in records):
                records.append((record, levels))
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text("".join(json.dumps({"record": r.to_json(), "levels": list(lv)}) + "\n"
                                      for r, lv in records), "utf-8")
        played = time.perf_counter() - started
        per_level: dict[str, list[float]] = {"medium": [], "hard": []}
        analyses = []
        for record, levels in records:
            analysis = analyse(record)
            analyses.append((analysis, levels))
            for entry in analysis.plies:
                if entry.loss is not None:
                    per_level[levels[entry.mover]].append(entry.loss)
        losses = per_level["medium"] + per_level["hard"]
        low_q, mid_q, high_q = options.quantiles
        thresholds = fit(losses, (low_q, mid_q, high_q))
        rates = {}
        for level, mine in per_level.items():
            marks = [thresholds.mark(loss) if loss > 0 else None for loss in mine]
            rates[level] = {name: round(marks.count(name) / max(1, len(mine)), 3) for name in MARKS}
            rates[level]["mean_loss"] = round(statistics.fmean(mine), 4) if mine else 0.0
            rates[level]["moves"] = len(mine)
        report = {
            "game": game_id,
            "games": len(records),
            "moves": len(losses),
            "budget": budget_for(game_id).__dict__,
            "thresholds": thresholds.to_json(),
            "rates": rates,
            "seconds": {"self_play": round(played, 1),
                        "analysis": round(time.perf_counter() - started - played, 1)},
        }
        print(json.dumps(report), flush=True)
        if options.write:
            path = ROOT / "src" / "ludotheque" / "engines" / game_id / "analysis.json"
            data = dict(settings_for(game_id))
            data["thresholds"] = thresholds.to_json()
            data["fitted"] = {
                "method": f"quantiles {list(options.quantiles)} of the losses of every move of "
                          f"medium against hard self-play, floors {list(FLOORS)}",
                "games": len(records), "moves": len(losses), "rates": rates,
                "date": datetime.now(UTC).date().isoformat(),
            }
            path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
            print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
