"""The terminal points of the testers' issue: saying what happened (removed pieces, revealed
tiles, captures), a legal example, a labelled line of play, ``info`` in sentences; the hot-seat
hand-over and ``replay`` keeping secrets; saving at the game's end, a confirmed resignation, no
echo while a bot thinks, French numbers and wrapping; help without ``<bool>``, whole tables when
piped, Elo intervals, and one form for every command's errors."""

from __future__ import annotations

import io
import os
import random
import re
import select
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text
from typer.testing import CliRunner

import ludotheque
from ludotheque import i18n
from ludotheque.ai.arena import run_arena
from ludotheque.cli.arena import MESSAGES as ARENA_WORDS
from ludotheque.cli.arena import show_report
from ludotheque.cli.boards import board_module
from ludotheque.cli.main import app
from ludotheque.cli.play import HUMAN, Session, Terminal
from ludotheque.cli.rules import game_rules
from ludotheque.core import Record

from .test_terminal import HOT_SEAT, play_lines

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


# -- 13. Say what happened ---------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "removed", "revealed"), [
    ("en", r"Tile revealed: [a-z ]+ — the piece placed on ([a-h][1-8]) is removed: no piece can perform it\.",
     r"Tile revealed: [a-z ]+ — (Light|Dark) performs it now\."),
    ("fr", r"Tuile retournée : [a-zé ]+ — le pion posé en ([a-h][1-8]) est retiré : "
           r"aucun pion ne peut la jouer\.",
     r"Tuile retournée : [a-zé ]+ — (Clair|Foncé) la joue maintenant\."),
])
def test_imbrication_says_which_tile_was_revealed_and_which_piece_was_removed(
    lang: str, removed: str, revealed: str
) -> None:
    played = play_lines("imbrication", ["random"] * 60 + ["quit"], seats=[HUMAN, "random"], lang=lang, seed=3)
    assert re.search(revealed, played.output), played.output[-2000:]
    cells = re.findall(removed, played.output)
    assert cells, played.output[-2000:]
    outcomes = [entry["outcome"] for entry in played.session.state.view(None)["revealed"]]
    assert len(cells) == outcomes.count("removed"), "one sentence per removed piece"


def test_expion_says_which_marbles_were_captured() -> None:
    played = play_lines("expion", ["random"] * 400 + ["quit"], seats=[HUMAN, "random"], players=2, seed=1)
    said = re.findall(r"(North|East|South|West)'s marbles? on ([a-i][1-9](?:(?:, | and )[a-i][1-9])*) "
                      r"(?:is|are) captured\.", played.output)
    assert said, played.output[-2000:]
    start = played.session.states[0].view(None)["marbles"]
    end = played.session.state.view(None)["marbles"]
    lost = sum(start.values()) - sum(end.values())
    assert sum(len(re.findall(r"[a-i][1-9]", cells)) for _, cells in said) == lost
    french = play_lines("expion", ["hasard"] * 400 + ["quitter"], seats=[HUMAN, "random"], players=2, seed=1,
                        lang="fr")
    camps = r"(du Nord|de l'Est|du Sud|de l'Ouest)"
    assert re.search(rf"(La bille|Les billes) {camps} en [a-i][1-9]", french.output)


@pytest.mark.parametrize(("game_id", "players", "seats"), [
    ("pylos", 2, [HUMAN, "random"]), ("pylos", 2, ["random", HUMAN]),
    ("expion", 4, [HUMAN, "random", "random", "random"]), ("expion", 2, ["random", HUMAN]),
    ("expion", 3, [HUMAN, "random", "random"]),
    ("imbrication", 2, [HUMAN, "random"]), ("plimil", 2, [HUMAN, "random"]), ("plimil", 2, ["random", HUMAN]),
])
def test_the_example_move_is_legal_for_the_seat_to_move(game_id: str, players: int, seats: list[str]) -> None:
    for lang, pattern in (("en", r"Type a move \(e\.g\. (.+?)\) or 'help'"), ("fr", r"par ex\. (.+?)\) ou")):
        played = play_lines(game_id, ["quit"], seats=seats, players=players, lang=lang)
        [example] = re.findall(pattern, played.output)
        legal = [str(move) for move in played.session.state.legal_moves()]
        assert example in legal, (example, legal[:5])


def test_eval_labels_the_expected_line_of_play_and_writes_french_numbers() -> None:
    english = play_lines("pylos", ["eval easy", "quit"], seats=HOT_SEAT).output
    assert re.search(r"^Expected line of play: \S+", english, re.MULTILINE), english
    french = play_lines("pylos", ["analyse facile", "quitter"], seats=HOT_SEAT, lang="fr").output
    assert re.search(r"^Suite attendue : \S+", french, re.MULTILINE), french
    assert re.search(r"pour Clair : (0|[+−]\d+),\d\d ;", french), french


def sentences(renderable: object) -> list[str]:
    console = Console(width=400, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return [line.strip() for line in capture.get().splitlines() if line.strip()]


@pytest.mark.parametrize(("game_id", "players"), [("pylos", 2), ("expion", 4), ("expion", 2),
                                                  ("imbrication", 2), ("plimil", 2)])
def test_info_speaks_in_sentences(game_id: str, players: int) -> None:
    game = ludotheque.load(game_id, players=players)
    board = board_module(game_id)
    rng = random.Random(5)
    state = game.new_state(seed=5)
    for plies in range(60):
        if plies in (0, 1, 59) or state.is_over:
            for lang in ("en", "fr"):
                for viewer in (None, 0):
                    for line in sentences(board.details(state.view(viewer), lang=lang)):
                        assert line[0].isupper() or line[0].isdigit(), line
                        assert line.endswith("."), line
                        assert "/" not in re.sub(r"\[[^]]*\]", "", line), f"a sentence says 'of': {line}"
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))


# -- 14. Hot seat and replay keep the secrets ---------------------------------------------------------
def test_the_hot_seat_hand_over_clears_the_scrollback_too() -> None:
    game = ludotheque.load("plimil")
    session = Session(game, 0, [HUMAN, HUMAN])
    buffer = io.StringIO()
    out = Console(file=buffer, width=100, force_terminal=True, color_system=None)
    typed = iter(["random"] * 20 + ["quit"])

    def ask(prompt: str) -> str:
        buffer.write(prompt)  # as a terminal shows it
        return "" if prompt.startswith("Hand the keyboard") else next(typed)

    Terminal(session, "en", out, ask).run()
    screen = buffer.getvalue()
    handed = screen.index("Hand the keyboard to Red")
    before, after = screen[:handed], screen[handed:]
    assert "\x1b[2J" in before and before.rindex("\x1b[3J") > before.rindex("\x1b[2J"), \
        "the screen, then the lines saved above it"
    assert "\x1b[3J" in after, "cleared again once the next player has the keyboard"


def test_replay_shows_secrets_only_as_the_games_end_would(tmp_path: Path) -> None:
    game = ludotheque.load("plimil")
    rng = random.Random(2)
    state, moves = game.new_state(seed=1), []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    unfinished, finished = tmp_path / "unfinished.json", tmp_path / "finished.json"
    Record.start(game, 1).with_moves(moves[:40]).save(unfinished)
    Record.start(game, 1).with_moves(moves).finished(state.result()).save(finished)
    secret = re.compile(r"stems [ST]{8}|block [a-h][1-8] [BNR]{3}")
    code, out = run("replay", str(unfinished), "--lang", "en", "--to-end")
    assert code == 0 and "spectator" in out and "stems ????????" in out
    assert not secret.search(out), secret.findall(out)[:3]
    code, out = run("replay", str(finished), "--lang", "en", input="n\nn\nq\n")
    assert code == 0 and "Move 1/" in out
    assert not secret.search(out), "the moves and the first positions are a spectator's"
    code, out = run("replay", str(finished), "--lang", "en", "--to-end")
    header, _, rest = out.partition("\n")
    assert not secret.search(header)
    assert "every secret, the game being over" in rest, "the final position, as the game's end shows it"


# -- 15. End of game, resignation, keyboard, French numbers and wrapping -------------------------------
def finished_game(tmp_path: Path, answer: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], str]:
    monkeypatch.chdir(tmp_path)
    session = Session(ludotheque.load("pylos"), 11, [HUMAN, "random"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return answer if session.is_over else "random"

    buffer = io.StringIO()
    Terminal(session, "en", Console(file=buffer, width=120, color_system=None), ask, offer_save=True).run()
    return prompts, buffer.getvalue()


def test_a_finished_game_offers_to_save_its_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prompts, out = finished_game(tmp_path, "yes", monkeypatch)
    assert prompts[-1].startswith("Save this game? 'yes': ludotheque-pylos-11-")
    [saved] = tmp_path.glob("ludotheque-pylos-11-*.json")
    assert Record.read(saved).result is not None and f"Game saved to {saved.name}" in out
    prompts, out = finished_game(tmp_path / "..", "mine.json", monkeypatch)
    assert Record.read(tmp_path.parent / "mine.json").result is not None
    for answer in ("", "random", "no"):
        folder = tmp_path / f"other-{answer or 'empty'}"
        folder.mkdir()
        prompts, out = finished_game(folder, answer, monkeypatch)
        assert not list(folder.iterdir()), "nothing saved"
        assert "Game not saved." in out


def test_resign_asks_for_confirmation() -> None:
    played = play_lines("pylos", ["resign", "no", "1a1", "resign", "yes"], seats=HOT_SEAT)
    assert played.prompts[1] == "Resign the game? Type 'yes' to confirm (anything else: play on) > "
    assert "No resignation: the game goes on." in played.output
    assert played.session.moves == ["1a1"] and played.session.is_over
    assert played.session.result().winners == (0,)
    french = play_lines("pylos", ["abandon", "oui"], seats=HOT_SEAT, lang="fr")
    assert french.prompts[1].startswith("Abandonner la partie ? Tapez « oui »") and french.session.is_over


def test_keys_typed_while_a_bot_thinks_are_neither_echoed_nor_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    termios = pytest.importorskip("termios")
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    with os.fdopen(slave, "r") as keyboard:
        monkeypatch.setattr(sys, "stdin", keyboard)
        out = Console(file=io.StringIO(), force_terminal=True, width=100)
        terminal = Terminal(Session(ludotheque.load("pylos"), 0, [HUMAN, "random"]), "en", out, lambda p: "")
        echoed: list[bool] = []

        def search(progress: object) -> str:
            echoed.append(bool(termios.tcgetattr(slave)[3] & termios.ECHO))
            os.write(master, b"1a1")  # typed while the bot thinks
            return "1b1"

        assert terminal.thinking("Dark", "random", search) == "1b1"
        assert echoed == [False], "no echo while the bot thinks"
        assert termios.tcgetattr(slave)[3] & termios.ECHO, "echo is back for the prompt"
        assert not select.select([slave], [], [], 0.2)[0], "the keys typed meanwhile were dropped"
    os.close(master)


def test_french_numbers_have_a_decimal_comma() -> None:
    assert i18n.number(1234.5, 1, "fr") == "1\u202f234,5" and i18n.signed(-0.5, lang="fr") == "−0,50"
    code, out = run("bench", "pylos", "--variant", "kids", "--seconds", "0.2", "--lang", "fr")
    assert code == 0
    [row] = [line for line in out.splitlines() if "kids" in line]
    assert re.search(r"\d,\d", row) and not re.search(r"\d\.\d", row), row


@pytest.mark.parametrize("game_id", ["plimil", "pylos", "expion", "imbrication"])
def test_no_wrapped_line_starts_with_french_high_punctuation(game_id: str) -> None:
    page = Markdown(game_rules(game_id, "fr"))
    for width in range(40, 101, 3):
        console = Console(width=width, color_system=None)
        with console.capture() as capture:
            console.print(page)
        lines = capture.get().splitlines()
        starts = [line for line in lines if line.lstrip().startswith((":", ";", "!", "»"))]
        assert not starts, (width, starts[:3])
    console = Console(width=29, color_system=None)
    with console.capture() as capture:
        console.print(Text("44 tiges, 24 blocs, 72 billes : 24 bleues"))
    assert capture.get() == "44 tiges, 24 blocs, 72 \nbilles : 24 bleues\n"


# -- 16. Options, tables, intervals and errors ------------------------------------------------------
@pytest.mark.parametrize("args", [["--help"], ["games", "--help"], ["bench", "--help"], ["arena", "--help"],
                                  ["play", "--help"], ["replay", "--help"]])
def test_flags_show_no_bool_in_help(args: list[str]) -> None:
    code, out = run(*args)
    assert code == 0 and "<bool>" not in out and "--help" in out


def test_tables_keep_their_columns_when_piped() -> None:
    code, out = run("games", "--lang", "en")
    assert code == 0 and "…" not in out
    assert "standard, setup10 — setup on 10 stems, open — open (nothing hidden)" in out
    assert any("Four camps, two teams: capture by flanking and push the EX*PION into an enemy camp." in line
               for line in out.splitlines())


def test_elo_intervals_are_open_at_infinity_with_true_minus_signs(tmp_path: Path) -> None:
    report = run_arena("pylos", ["random", "easy"], games=2, seed=1, out=tmp_path)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    show_report(report, ARENA_WORDS["en"], console, "en")
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "+∞)" in out and "(−∞, " in out and "∞]" not in out and "[−∞" not in out and "[+∞" not in out
    ratings = out[out.index("Elo ratings"):]
    assert not re.search(r"-\d", ratings), "a negative number has a minus sign (U+2212), not a hyphen"
    assert re.search(r"−\d", ratings)


@pytest.mark.parametrize(("command", "args"), [
    ("play", ["play", "chess"]),
    ("rules", ["rules", "chess"]),
    ("bench", ["bench", "pylos", "--seconds", "0"]),
    ("games", ["games", "--lang", "xx"]),
    ("replay", ["replay", "missing.json"]),
    ("arena", ["arena", "pylos", "--bots", "random,wizard"]),
    ("selfplay", ["selfplay", "pylos", "--level", "wizard"]),
])
def test_every_command_starts_its_errors_the_same_way(command: str, args: list[str]) -> None:
    for lang, colon in (("en", ":"), ("fr", " :")):
        extra = [] if command == "games" else ["--lang", lang]
        result = runner.invoke(app, [*args, *extra], env={"LANG": "fr_FR.UTF-8" if lang == "fr" else "C"})
        assert result.exit_code == 1, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"ludotheque {command}{colon} "), lines


@pytest.mark.parametrize(("args", "start"), [
    (["play", "pylos", "--bogus"], "ludotheque play: No such option: --bogus"),
    (["play"], "ludotheque play: Missing argument 'GAME'"),
    (["bench", "pylos", "--seconds", "many"], "ludotheque bench: Invalid value for '--seconds'"),
    (["nope"], "ludotheque: No such command 'nope'"),
])
def test_a_refused_command_line_is_said_the_same_way(args: list[str], start: str) -> None:
    code, out = run(*args)
    lines = out.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(start), out
    assert lines[0].endswith("--help)")
