"""The ``ludotheque`` command, driven as a person would type it (Typer's CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludotheque.cli import common
from ludotheque.cli.main import app
from ludotheque.core import Record, replay

runner = CliRunner()


def run(*args: str, input: str | None = None, width: int | None = None) -> tuple[int, str]:
    """``ludotheque *args`` with ``input`` typed; ``width``: the terminal's columns (Rich's default
    otherwise)."""
    if width is None:
        result = runner.invoke(app, list(args), input=input)
        return result.exit_code, result.output
    previous = common.console.width
    common.console.width = width
    try:
        result = runner.invoke(app, list(args), input=input)
    finally:
        common.console.width = previous
    return result.exit_code, result.output


def test_help_lists_the_commands() -> None:
    code, out = run("--help")
    assert code == 0
    for command in ("play", "replay", "bench", "rules"):
        assert command in out


def test_unknown_game_is_one_clear_line_and_exit_status_one() -> None:
    code, out = run("play", "chess", "--lang", "en")
    assert code == 1
    assert "unknown game 'chess'" in out and "Traceback" not in out


def test_a_bad_move_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = "\n".join(["1e9", "2a1", "1a1", "moves", "1b1", f"save {path}", "quit"]) + "\n"
    code, out = run("play", "pylos", "--seats", "human,human", "--lang", "en", input=typed)
    assert code == 0
    assert "Move refused: '1e9' is not a move: unknown cell '1e9'" in out
    assert "Move refused: '2a1' is not legal: 2a1 is not available" in out
    assert "Played: 1a1" in out and "Played: 1b1" in out
    assert "Legal moves (15)" in out
    record = Record.read(path)
    assert record.moves == ("1a1", "1b1") and record.result is None


def test_undo_takes_back_the_last_human_move_and_the_bot_reply(tmp_path: Path) -> None:
    path = tmp_path / "undo.json"
    typed = "\n".join(["1a1", "undo", "1d4", f"save {path}", "quit"]) + "\n"
    code, out = run("play", "pylos", "--vs", "random", "--seed", "3", "--lang", "en", input=typed)
    assert code == 0 and "Move taken back." in out
    moves = Record.read(path).moves
    assert moves[0] == "1d4" and len(moves) == 2, "the bot answered the new move only"


def test_the_legal_moves_wrap_between_moves_never_inside_one() -> None:
    # Plimil's block moves hold spaces ("block d1 BRR"): at 35 columns the list goes over several
    # lines, each made of whole moves (two to a line; the console alone cut the third in two).
    typed = "stems TSSSSTTT\nmoves\nquit\n"
    code, out = run("play", "plimil", "--seats", "human,human", "--lang", "en", input=typed,
                    width=35)
    assert code == 0
    listed = out.split("Legal moves (9):\n", 1)[1].split("Blue (player 0) to move", 1)[0].splitlines()
    assert [move for line in listed for move in line.split("  ")] == [
        f"block d1 B{middle}{top}" for middle in "BNR" for top in "BNR"]
    assert len(listed) == 5 and all(len(line) <= 35 for line in listed)
    # The history too: each numbered move whole on its line.
    typed = "stems TSSSSTTT\nblock d1 BNR\nhistory\nquit\n"
    code, out = run("play", "plimil", "--seats", "human,human", "--lang", "en", input=typed, width=35)
    history = out.split("Moves played (2):\n", 1)[1].split(" to move > ", 1)[0]
    assert code == 0 and history.startswith("1. stems TSSSSTTT (Blue)\n2. block d1 BNR (Blue)\n"), history


def test_french_messages_and_commands() -> None:
    typed = "aide\ncoups\nquitter\n"
    code, out = run("play", "pylos", "--seats", "human,human", "--lang", "fr", input=typed)
    assert code == 0
    assert "Coups légaux (16)" in out and "Au revoir." in out


def test_a_whole_game_against_random_ends_and_is_saved(tmp_path: Path) -> None:
    path = tmp_path / "whole.json"
    typed = "random\n" * 400
    code, out = run(
        "play", "pylos", "--vs", "random", "--second", "--seed", "11", "--lang", "en",
        "--save", str(path), input=typed,
    )
    assert code == 0 and "Game over" in out
    record = Record.read(path)
    states = replay(record)
    assert states[-1].is_over and states[-1].result() == record.result


def test_resign_ends_the_game_with_the_other_player_winning(tmp_path: Path) -> None:
    path = tmp_path / "resign.json"
    code, out = run("play", "pylos", "--seats", "human,human", "--lang", "en", "--save", str(path),
                    input="1a1\nresign\nyes\n")
    assert code == 0 and "Dark (player 1) resigns." in out
    assert "Game over — Light wins: Dark resigned." in out
    result = Record.read(path).result
    assert result is not None and result.winners == (0,) and result.reason == "resign"


def test_replay_steps_forward_and_back(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    run("play", "pylos", "--seats", "human,human", "--lang", "en", "--save", str(path),
        input="1a1\n1b1\n1c1\nresign\nyes\n")
    code, out = run("replay", str(path), "--lang", "en", input="n\nn\np\ng 3\nq\n")
    assert code == 0
    assert "Start position (0/3)" in out
    assert out.index("Move 1/3: 1a1") < out.index("Move 2/3: 1b1") < out.index("Move 3/3: 1c1")
    code, out = run("replay", str(path), "--to-end", "--lang", "en")
    assert code == 0 and "Move 3/3: 1c1" in out and "Result: Light wins: Dark resigned." in out


def test_replay_refuses_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"format": 1, "game": "pylos", "variant": "standard", "players": 2,
                                "seed": 0, "moves": ["1a1", "1a1"]}))
    code, out = run("replay", str(path))
    assert code == 1 and "move 2 '1a1' does not replay" in out
    path.write_text("{not json")
    code, out = run("replay", str(path))
    assert code == 1 and "is not JSON" in out


def test_bench_reports_playouts_moves_and_length_as_json() -> None:
    code, out = run("bench", "pylos", "--variant", "standard", "--seconds", "0.3", "--json")
    assert code == 0
    [figures] = json.loads(out)
    assert figures["variant"] == "standard" and figures["playouts"] > 0
    assert figures["moves_per_second"] > 0 and figures["mean_length"] >= 30


def test_bench_covers_every_rule_set_by_default() -> None:
    code, out = run("bench", "pylos", "--seconds", "0.1")
    assert code == 0
    for variant in ("standard", "kids", "advanced"):
        assert variant in out


def test_bench_times_each_level_per_move() -> None:
    code, out = run("bench", "expion", "--players", "4", "--bots", "random,easy", "--games", "2",
                    "--max-moves", "6", "--json")
    assert code == 0
    figures = json.loads(out)
    assert [(f["level"], f["players"], f["moves"]) for f in figures] == [("random", 4, 12), ("easy", 4, 12)]
    assert figures[1]["algorithm"] == "alphabeta"  # two teams: alpha-beta over the sides
    assert figures[1]["engine"] in ("plain", "kernel") and figures[0]["engine"] == "plain"
    for f in figures:
        assert 0 <= f["mean_s"] <= f["max_s"] and f["p95_s"] <= f["max_s"] and f["cpu_p95_s"] >= 0
    assert figures[1]["max_s"] > 0  # a search takes measurable time


def test_bench_refuses_an_unknown_level() -> None:
    code, out = run("bench", "pylos", "--bots", "easy,grandmaster")
    assert code != 0 and "grandmaster" in out


def test_rules_in_both_languages() -> None:
    code, out = run("rules", "pylos", "--lang", "fr")
    assert code == 0 and "Décisions" in out
    code, out = run("rules", "pylos", "--lang", "en")
    assert code == 0 and "Decisions" in out


def test_eval_shows_a_bot_evaluation_and_best_move() -> None:
    code, out = run("play", "pylos", "--seats", "human,human", "--lang", "en",
                    input="1a1\neval easy\nquit\n")
    assert code == 0
    assert "easy's evaluation for Dark:" in out and "best move 1" in out


def test_every_game_can_be_played_in_the_terminal_to_the_end() -> None:
    for game in ("imbrication", "expion", "plimil"):
        code, out = run("play", game, "--vs", "random", "--seed", "2", "--lang", "en",
                        input="random\n" * 2500)
        assert code == 0 and "Game over" in out, game


def test_hot_seat_with_hidden_information_hands_over_between_players() -> None:
    typed = "random\n" + "\n" + "random\n" * 12 + "\n" + "quit\n"
    code, out = run("play", "plimil", "--seats", "human,human", "--lang", "en", input=typed)
    assert code == 0
    assert "Hand the keyboard to Red (player 1)" in out
    code, out = run("play", "pylos", "--seats", "human,human", "--lang", "en", input="1a1\nquit\n")
    assert "Hand the keyboard" not in out, "Pylos hides nothing: no hand-over"


def test_without_vs_the_other_seat_is_the_medium_level_in_both_languages() -> None:
    code, out = run("play", "pylos", "--second", "--seed", "2", "--lang", "en", input="quit\n")
    assert code == 0 and "Light: medium, Dark: human" in out and "Light (medium) plays " in out
    code, out = run("play", "pylos", "--seed", "2", "--lang", "fr", input="quitter\n")
    assert code == 0 and "Clair : humain, Foncé : moyen" in out
    code, out = run("play", "--help")
    assert "default: medium" in out


def test_perfect_says_when_a_move_is_outside_its_tables(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # No tables at all: every move of the perfect level is its fallback's, and it says so.
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(tmp_path))
    code, out = run("play", "pylos", "--variant", "kids", "--vs", "perfect", "--second", "--seed", "3",
                    "--lang", "en", input="quit\n")
    flat = " ".join(out.split())
    assert code == 0 and "Light: perfect, Dark: human" in flat
    assert re.search(r"Light \(perfect\) plays \S+: a position outside the tables here, the hard "
                     r"level's move\.", flat)
    code, out = run("play", "pylos", "--variant", "kids", "--vs", "parfait", "--second", "--seed", "3",
                    "--lang", "fr", input="quitter\n")
    assert re.search(r"Clair \(parfait\) joue \S+ : position hors des tables ici, coup du niveau "
                     r"difficile\.", " ".join(out.split()))


def test_three_player_expion_says_the_lone_seat_nearly_always_wins() -> None:
    code, out = run("play", "expion", "--players", "3", "--seats", "human,random,random", "--lang", "en",
                    input="quit\n")
    flat = " ".join(out.split())
    assert code == 0 and "at equal strength North and South nearly always win." in flat
    code, out = run("play", "expion", "--players", "3", "--seats", "humain,hasard,hasard", "--lang", "fr",
                    input="quitter\n")
    assert "à force égale, Nord et Sud gagnent presque toujours." in " ".join(out.split())
    code, out = run("play", "expion", "--players", "4", "--seats", "human,random,random,random",
                    "--lang", "en", input="quit\n")
    assert code == 0 and "nearly always win" not in " ".join(out.split())


def test_vs_or_a_side_beside_seats_is_an_error() -> None:
    code, out = run("play", "pylos", "--seats", "human,human", "--vs", "hard", "--lang", "en")
    assert code == 1 and "--vs and --seats do not go together" in out
    code, out = run("play", "pylos", "--seats", "human,human", "--second", "--lang", "fr")
    assert code == 1 and "ludotheque play : --first/--second et --seats ne vont pas ensemble" in out


def test_seats_and_opponents_take_french_names() -> None:
    code, out = run("play", "pylos", "--seats", "humain,facile", "--lang", "fr", "--seed", "1",
                    input="1a1\nquitter\n")
    assert code == 0 and "Clair : humain, Foncé : facile" in out and "Foncé (facile) joue " in out
    code, out = run("play", "pylos", "--vs", "Difficile", "--second", "--lang", "en", "--seed", "1",
                    input="quit\n")
    assert code == 0 and "Light: hard, Dark: human" in out
    code, out = run("play", "pylos", "--vs", "grandmaster", "--lang", "fr")
    assert code == 1 and "place inconnue « grandmaster »" in out and "Traceback" not in out


def test_unknown_game_variant_or_player_count_in_french() -> None:
    code, out = run("play", "echecs", "--lang", "fr")
    assert code == 1 and "ludotheque play : jeu inconnu « echecs »" in out
    code, out = run("play", "pylos", "--variant", "turbo", "--lang", "fr")
    assert code == 1 and "variante inconnue « turbo »" in out
    code, out = run("play", "expion", "--players", "5", "--lang", "fr")
    assert code == 1 and "ne se joue pas à 5 joueurs" in out


def test_replay_says_an_unknown_command_and_the_result_in_words(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    run("play", "pylos", "--seats", "human,human", "--lang", "en", "--save", str(path),
        input="1a1\nresign\nyes\n")
    code, out = run("replay", str(path), "--lang", "fr", input="n\nz\ng x\nq\n")
    assert code == 0
    assert "Commande inconnue « z »." in out and "Commande inconnue « g x »." in out
    assert out.count("Clair (0) — réserve") == 2, "the start, then the first move: no redraw after z"
    assert "Résultat : Clair gagne : Foncé abandonne." in out


def test_games_lists_every_game_with_variants_and_player_counts() -> None:
    code, out = run("games", "--json")
    assert code == 0
    games = {entry["id"]: entry for entry in json.loads(out)}
    assert list(games) == ["expion", "imbrication", "plimil", "pylos"]
    assert games["expion"]["players"] == [2, 3, 4] and games["expion"]["default_players"] == 4
    assert games["plimil"]["variants"] == ["standard", "setup10", "open"]
    code, out = run("games", "--lang", "fr")
    assert code == 0 and "variantes" in out and "Ex*Pion" in out and "setup10" in out


def test_version() -> None:
    code, out = run("--version")
    assert code == 0 and re.fullmatch(r"ludotheque \d+\.\d+\.\d+\S*\n", out)


def test_bench_takes_french_level_names() -> None:
    code, out = run("bench", "pylos", "--bots", "facile", "--games", "1", "--max-moves", "2", "--json")
    assert code == 0 and json.loads(out)[0]["level"] == "easy"
    code, out = run("bench", "pylos", "--bots", "facile,champion", "--lang", "fr")
    assert code == 1 and "pas « champion »" in out


def test_bench_fast_measures_the_kernel_beside_the_plain_engine_with_its_compile_time_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out = run("bench", "pylos", "--variant", "standard", "--engine", "fast", "--seconds", "0.3",
                    "--json")
    assert code == 0
    [figures] = json.loads(out)
    assert figures["engine"] == "fast" and figures["playouts"] > 0 and figures["compile_seconds"] >= 0
    assert isinstance(figures["compiled"], bool)  # compiled now, or loaded from Numba's cache
    plain = figures["plain"]
    assert plain["engine"] == "plain" and plain["variant"] == "standard" and plain["playouts"] > 0
    assert figures["ratio"] > 1  # the kernel is faster than the contract loop, whatever the load
    assert figures["mean_length"] >= 30 and plain["mean_length"] >= 30
    # Rich reads COLUMNS when the console is made (at import): widen it, or the headers are cut.
    monkeypatch.setattr(common.console, "width", 200)
    wide = runner.invoke(app, ["bench", "pylos", "--variant", "kids", "--engine", "fast", "--seconds", "0.2",
                               "--lang", "fr"])
    assert wide.exit_code == 0
    assert "noyau compilé" in wide.output and "compilation s" in wide.output and "× simple" in wide.output
    assert "fast" in wide.output and "plain" in wide.output


def test_bench_fast_covers_every_game_whose_kernel_runs_here() -> None:
    import ludotheque
    from ludotheque.core import info

    with_kernel = [g for g in ludotheque.games() if info(g).load_kernel() is not None]
    assert "pylos" in with_kernel
    for game_id in with_kernel:
        facts = info(game_id)
        code, out = run("bench", game_id, "--variant", facts.default_variant, "--players",
                        str(facts.default_players), "--engine", "fast", "--seconds", "0.05", "--json")
        assert code == 0, out
        [figures] = json.loads(out)
        assert figures["game"] == game_id and figures["engine"] == "fast" and figures["plain"]["playouts"] > 0


def test_bench_refuses_an_unknown_engine() -> None:
    code, out = run("bench", "pylos", "--engine", "turbo", "--lang", "en")
    assert code == 1 and "--engine is plain or fast, not 'turbo'" in out


def test_bench_fast_without_a_kernel_says_so_in_one_line_in_both_languages() -> None:
    import subprocess
    import sys

    for lang, words in (("en", "has no compiled kernel that runs here"),
                        ("fr", "n'a pas de noyau compilé utilisable ici")):
        code = (
            "import sys; sys.modules['numba'] = None\n"
            "from ludotheque.cli.main import app\n"
            f"app(['bench', 'pylos', '--engine', 'fast', '--seconds', '0.1', '--lang', '{lang}'])\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        assert done.returncode == 1 and words in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) <= 2  # one line (Rich may wrap it once)
