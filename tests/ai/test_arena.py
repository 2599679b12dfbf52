"""The arena: schedule, scores, ratings, files, resume, two processes and the CLI command."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import ludotheque
from ludotheque.ai.arena import (
    GAMES_FILE,
    Outcome,
    Rating,
    expected_score,
    fit_ratings,
    pair_scores,
    run_arena,
    schedule,
    seat_patterns,
    seat_score,
    wilson,
)
from ludotheque.cli.arena import arena


def outcome(index: int, seats: tuple[str, ...], winners: tuple[int, ...]) -> Outcome:
    return Outcome(index, seats, index, winners, 10, "test", 0.0)


def test_two_player_schedule_alternates_sides_for_every_pair() -> None:
    matches = schedule(["a", "b", "c"], players=2, games=4, seed=0)
    assert len(matches) == 12
    for pair in [("a", "b"), ("a", "c"), ("b", "c")]:
        seatings = [m.seats for m in matches if set(m.seats) == set(pair)]
        assert seatings == [pair, pair[::-1], pair, pair[::-1]]
    assert len({m.seed for m in matches}) == 12


def test_more_players_go_round_every_seating_of_the_pair() -> None:
    patterns = seat_patterns(4)
    assert len(patterns) == 14 == len(set(patterns))  # 2**4 minus the two one-bot seatings
    matches = schedule(["x", "y"], players=3, games=6, seed=1)
    assert {m.seats for m in matches} == {
        ("x", "y", "x"), ("y", "x", "y"), ("x", "x", "y"), ("y", "y", "x"),
        ("x", "y", "y"), ("y", "x", "x"),
    }


@pytest.mark.parametrize("players", [3, 4])
def test_team_games_set_one_whole_team_against_the_other(players: int) -> None:
    game = ludotheque.load("expion", players=players)
    matches = schedule(["x", "y"], players=players, games=4, seed=0, teams=game.teams)
    for match in matches:
        for team in game.teams:
            assert len({match.seats[p] for p in team}) == 1  # one bot holds a whole team
        assert set(match.seats) == {"x", "y"}
    firsts = [match.seats[0] for match in matches]
    assert firsts == ["x", "y", "x", "y"]  # the sides alternate


def test_seat_scores_weigh_each_bots_seats() -> None:
    assert seat_score(outcome(0, ("a", "b"), (0,)), "a", "b") == 1.0
    assert seat_score(outcome(0, ("a", "b"), ()), "a", "b") == 0.5
    # Teams of alternate seats: a's team won.
    assert seat_score(outcome(0, ("a", "b", "a", "b"), (0, 2)), "b", "a") == 0.0
    # a holds two seats, one of which won; b's only seat lost: a scores 0.75.
    assert seat_score(outcome(0, ("a", "a", "b"), (1,)), "a", "b") == 0.75


def test_wilson_interval_contains_the_score_and_narrows_with_games() -> None:
    for score in (0.0, 0.3, 1.0):
        low, high = wilson(score, 40)
        assert low <= score <= high
    assert wilson(0.5, 400)[1] - wilson(0.5, 400)[0] < wilson(0.5, 40)[1] - wilson(0.5, 40)[0]


def test_ratings_order_bots_by_results_and_centre_on_zero() -> None:
    bots = ["weak", "mid", "strong"]
    games: list[Outcome] = []
    for i in range(30):
        games.append(outcome(len(games), ("weak", "mid"), (1,) if i % 5 else (0,)))
        games.append(outcome(len(games), ("mid", "strong"), (1,) if i % 4 else ()))
        games.append(outcome(len(games), ("strong", "weak"), (0,)))
    ratings = fit_ratings(games, bots)
    assert [r.name for r in ratings] == ["strong", "mid", "weak"]
    assert sum(r.elo for r in ratings) == pytest.approx(0.0, abs=1e-6)
    for r in ratings:
        assert r.low <= r.elo <= r.high and r.games == 60
    pairs = {(p.first, p.second): p for p in pair_scores(games, bots)}
    assert pairs["weak", "mid"].score == pytest.approx(6 / 30)
    assert pairs["weak", "strong"].losses == 30


def test_an_elo_interval_never_collapses_when_every_game_has_the_same_result() -> None:
    games = [outcome(i, seats, (seats.index("easy"),)) for i, seats in
             enumerate(("easy", "random") if i % 2 else ("random", "easy") for i in range(8))]
    [pair] = pair_scores(games, ["random", "easy"])
    assert (pair.wins, pair.losses, pair.low) == (0, 8, 0.0) and pair.high > 0.3
    ratings = {r.name: r for r in fit_ratings(games, ["random", "easy"])}
    easy, weak = ratings["easy"], ratings["random"]
    assert easy.low < easy.elo < easy.high and weak.low < weak.elo < weak.high
    assert weak.low == -math.inf and easy.high == math.inf, "no bound where every game went one way"
    # Consistent with the pair's Wilson interval: at the bound of the ratings, the weaker bot's
    # expected score is the top of its score interval.
    assert expected_score(weak.high - easy.low) == pytest.approx(pair.high, abs=1e-6)


def test_elo_intervals_agree_with_the_score_intervals_and_narrow_with_games() -> None:
    def ratings(games_per_pair: int) -> dict[str, Rating]:
        games = [outcome(i, ("a", "b"), (0,) if i % 4 else (1,)) for i in range(games_per_pair)]
        return {r.name: r for r in fit_ratings(games, ["a", "b"])}

    few, many = ratings(20), ratings(400)
    [pair] = pair_scores([outcome(i, ("a", "b"), (0,) if i % 4 else (1,)) for i in range(20)], ["a", "b"])
    assert expected_score(few["a"].low - few["b"].high) == pytest.approx(pair.low, abs=1e-6)
    assert expected_score(few["a"].high - few["b"].low) == pytest.approx(pair.high, abs=1e-6)
    assert many["a"].high - many["a"].low < few["a"].high - few["a"].low


def test_reports_say_an_unbounded_interval_as_null_in_json_and_infinity_in_tables(tmp_path: Path) -> None:
    report = run_arena("pylos", ["random", "easy"], games=2, seed=1, out=tmp_path)
    data = json.loads((tmp_path / "summary.json").read_text())
    assert report.to_json() == data
    easy = next(r for r in data["ratings"] if r["name"] == "easy")
    assert easy["high"] is None and easy["low"] is not None
    result = CliRunner().invoke(cli(), ["pylos", "--bots", "random,easy", "--games", "2", "--jobs", "1",
                                        "--out", str(tmp_path), "--resume", "--seed", "1", "--lang", "en"])
    assert "+∞)" in result.output and "(−∞, " in result.output


def test_bots_may_be_named_in_french() -> None:
    report = run_arena("pylos", ["aléatoire", "Facile"], games=2, seed=1)
    assert report.bots == ("random", "easy")
    with pytest.raises(ValueError, match="distinct"):
        run_arena("pylos", ["random", "hasard"], games=1)


def test_arena_writes_every_file_and_resumes_without_replaying(tmp_path: Path) -> None:
    seen: list[int] = []
    first = run_arena("pylos", ["random", "easy"], games=4, out=tmp_path, seed=3,
                      on_result=lambda o, done, total: seen.append(done))
    assert seen == [1, 2, 3, 4] and len(first.outcomes) == 4
    for name in ("arena.json", GAMES_FILE, "games.csv", "pairs.csv", "ratings.csv",
                 "summary.json", "ratings.png"):
        assert (tmp_path / name).stat().st_size > 0
    with (tmp_path / "pairs.csv").open() as handle:
        assert next(csv.DictReader(handle))["games"] == "4"
    # Keep two games, as if interrupted, plus a line cut short; resume plays only the rest.
    lines = (tmp_path / GAMES_FILE).read_text().splitlines()
    (tmp_path / GAMES_FILE).write_text("\n".join(lines[:2]) + '\n{"index": 3, "sea')
    replayed: list[int] = []
    second = run_arena("pylos", ["random", "easy"], games=4, out=tmp_path, seed=3, resume=True,
                       on_result=lambda o, done, total: replayed.append(o.index))
    assert sorted(replayed) == [2, 3]
    # Same seeds, same games, however they were run (only the times differ).
    assert [(o.index, o.winners, o.plies) for o in second.outcomes] == [
        (o.index, o.winners, o.plies) for o in first.outcomes]
    with pytest.raises(ValueError, match="another arena"):
        run_arena("pylos", ["random", "medium"], games=4, out=tmp_path, seed=3, resume=True)


def test_two_processes_play_the_same_games_as_one(tmp_path: Path) -> None:
    one = run_arena("pylos", ["random", "easy"], games=4, seed=8, jobs=1)
    two = run_arena("pylos", ["random", "easy"], games=4, seed=8, jobs=2)
    strip = [(o.index, o.seats, o.winners, o.plies) for o in one.outcomes]
    assert strip == [(o.index, o.seats, o.winners, o.plies) for o in two.outcomes]


@pytest.mark.parametrize("bots", ["random", "random,wizard", "random,random"])
def test_arena_refuses_bad_bot_lists(bots: str) -> None:
    with pytest.raises(ValueError):
        run_arena("pylos", bots.split(","), games=1)


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command()(arena)
    return app


def test_cli_prints_tables_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli(), ["pylos", "--bots", "random,easy", "--games", "2", "--jobs", "1",
                                   "--out", str(tmp_path), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Elo ratings" in result.output and "random – easy" in result.output
    result = runner.invoke(cli(), ["pylos", "--bots", "random,easy", "--games", "2", "--jobs", "1",
                                   "--out", str(tmp_path), "--resume", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 2 and {r["name"] for r in summary["ratings"]} == {"random", "easy"}


def test_cli_reports_a_known_error_in_one_line_and_exits_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli(), ["pylos", "--bots", "random,wizard", "--out", str(tmp_path),
                                        "--lang", "fr"])
    assert result.exit_code == 1
    assert "ludotheque arena : robot inconnu « wizard » ; choisissez parmi aléatoire, facile" in result.output
    assert "Traceback" not in result.output


def test_cli_takes_and_shows_french_bot_names(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli(), ["pylos", "--bots", "hasard,facile", "--games", "2", "--jobs", "1",
                                        "--out", str(tmp_path), "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert "aléatoire – facile" in result.output and "Classement Elo" in result.output
