"""The game loop of ``ludotheque play``, driven through its input and output functions: a quiet
loop (no redraw without a change, one prompt), the last move marked, the move list, per-game help
and rules, clear lines for bad arguments, results in words, French."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

import ludotheque
from ludotheque.cli.boards import board_module
from ludotheque.cli.play import HUMAN, Session, Terminal


@dataclass
class Played:
    output: str
    prompts: list[str]
    session: Session


def play_lines(
    game_id: str, lines: Iterable[str], *, seats: list[str], lang: str = "en", seed: int = 0,
    players: int | None = None, offer_save: bool = False,
) -> Played:
    """Play ``lines`` as typed at the prompt (then end of input), capturing what is shown."""
    game = ludotheque.load(game_id, players=players)
    session = Session(game, seed, seats)
    buffer = io.StringIO()
    out = Console(file=buffer, width=120, color_system=None)
    typed = iter(lines)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if session.is_over and not offer_save:  # the lines fed past the game's end are not answers
            raise EOFError
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    Terminal(session, lang, out, ask, offer_save=offer_save).run()
    return Played(buffer.getvalue(), prompts, session)


HOT_SEAT = [HUMAN, HUMAN]


def test_an_empty_line_is_not_a_move() -> None:
    played = play_lines("pylos", ["", "   ", "quit"], seats=HOT_SEAT)
    assert played.session.moves == []
    assert "refused" not in played.output
    assert played.prompts == ["Light (player 0) to move > "] * 3


def test_commands_and_errors_leave_the_board_where_it_is() -> None:
    played = play_lines("pylos", ["help", "moves", "info", "history", "1e9", "rules", "quit"], seats=HOT_SEAT)
    assert played.output.count("Light (0) — reserve") == 1, "drawn once, before the first prompt"
    played = play_lines("pylos", ["1a1", "moves", "1b1", "quit"], seats=HOT_SEAT)
    assert played.output.count("Light (0) — reserve") == 3, "drawn again after each move only"


def test_one_prompt_says_whose_turn_it_is() -> None:
    played = play_lines("pylos", ["1a1", "quit"], seats=HOT_SEAT)
    assert played.prompts == ["Light (player 0) to move > ", "Dark (player 1) to move > "]
    assert "to move" not in played.output, "neither the board nor a message says it again"


@pytest.mark.parametrize(("game_id", "move", "cells"), [
    ("pylos", "1a1", ["○"]),
    ("expion", "e1-e4", ["□", "S"]),
    ("imbrication", "d4", [" L "]),
])
def test_the_last_move_is_marked_on_the_board(game_id: str, move: str, cells: list[str]) -> None:
    game = ludotheque.load(game_id, players=2)
    view = game.new_state(seed=0).play(move).view(None)
    board = board_module(game_id)
    console = Console(width=120, color_system=None)
    segments = list(console.render(board.render(view, lang="en", last_move=move)))
    assert sorted(s.text for s in segments if s.style and s.style.reverse) == sorted(cells)
    unmarked = list(console.render(board.render(view, lang="en")))
    assert not [s for s in unmarked if s.style and s.style.reverse]


def test_recent_moves_are_numbered_under_the_board_and_history_lists_them_all() -> None:
    played = play_lines("pylos", ["1a1", "1b1", "history", "historique", "quit"], seats=HOT_SEAT)
    assert "Last moves: 1. 1a1 (Light) · 2. 1b1 (Dark)" in played.output
    assert "Moves played (2):\n1. 1a1 (Light)  2. 1b1 (Dark)" in played.output
    played = play_lines("pylos", ["historique", "quit"], seats=HOT_SEAT, lang="fr")
    assert "Aucun coup joué." in played.output


def test_the_move_list_hides_another_players_secrets() -> None:
    played = play_lines("plimil", ["random"] * 14 + ["history", "quit"], seats=[HUMAN, "random"])
    assert "Red (random) plays stems ????????." in played.output
    history = played.output[played.output.index("Moves played"):]
    assert "stems ???????? (Red)" in history and "block g7 ??? (Red)" in history
    assert re.search(r"block d1 [BNR]{3} \(Blue\)", history), "one's own secrets are shown"


@pytest.mark.parametrize(("game_id", "examples"), [
    ("pylos", ["1b2", "1a1-2b2", "x1c3"]),
    ("expion", ["e1-e4", "d5-e5"]),
    ("imbrication", ["d4", "d4-d7", "d4xf6xd8"]),
    ("plimil", ["stems STSTTSST", "block d1 BNR", "d3-d4xe4", "@cw", "pass"]),
])
def test_help_gives_the_notation_of_each_game(game_id: str, examples: list[str]) -> None:
    for lang in ("en", "fr"):
        played = play_lines(game_id, ["help", "quit"], seats=[HUMAN] * 2, players=2, lang=lang)
        for example in examples:
            assert example in played.output, (lang, example)
        assert ("rules" if lang == "en" else "regles") in played.output


def test_the_rules_command_shows_the_rules_in_the_chosen_language() -> None:
    english = play_lines("imbrication", ["rules", "quit"], seats=HOT_SEAT).output
    french = play_lines("imbrication", ["règles", "quit"], seats=HOT_SEAT, lang="fr").output
    assert "Decision" in english and "Décision" not in english
    assert "Décision" in french and "Decision" not in french


def test_bad_arguments_get_one_line_each_and_the_game_goes_on(tmp_path: Path) -> None:
    typed = ["eval bogus", "undo 3", "resign now", f"save {tmp_path / 'missing' / 'x.json'}",
             "save bad\0name", "1a1", "quit"]
    played = play_lines("pylos", typed, seats=HOT_SEAT)
    assert "Unknown level 'bogus': choose random, easy, medium, hard." in played.output
    assert "The command 'undo' takes no argument." in played.output
    assert "The command 'resign' takes no argument." in played.output
    assert played.output.count("Cannot save:") == 2
    assert played.session.moves == ["1a1"] and not played.session.is_over
    assert "Traceback" not in played.output


def test_french_level_names_in_game_and_french_words_throughout() -> None:
    played = play_lines("pylos", ["analyse difficile", "analyse bogus", "x", "1a1", "quit"],
                        seats=[HUMAN, "easy"], lang="fr")
    out = played.output
    assert "Évaluation au niveau difficile pour Clair :" in out
    assert "Niveau inconnu « bogus » : choisissez aléatoire, facile, moyen, difficile." in out
    assert "Coup refusé : « x » n'est pas un coup : attendu une case comme « 1b2 »" in out
    assert "Foncé (facile) joue " in out
    assert "-0.00" not in out
    # French puts a space before every colon.
    assert not re.search(r"\w:", out), re.findall(r".{20}\w:.{5}", out)


def test_engine_errors_are_translated() -> None:
    played = play_lines("pylos", ["1a1", "1a1", "2a1", "1a1-2b2"], seats=HOT_SEAT, lang="fr")
    assert "Coup refusé : « 1a1 » n'est pas permis : 1a1 n'est pas disponible" in played.output
    assert "« 2a1 » n'est pas permis : 2a1 n'est pas disponible" in played.output
    assert "aucune de vos billes en 1a1" in played.output


@pytest.mark.parametrize(("game_id", "players", "winner_words"), [
    ("pylos", 2, r"(Light|Dark) wins: |Draw: "),
    ("expion", 4, r"(North–South \(players 0, 2\)|East–West \(players 1, 3\)) wins: |Draw: "),
    ("expion", 3, r"(North–South \(player 0\)|East–West \(players 1, 2\)) wins: |Draw: "),
    ("imbrication", 2, r"(Light|Dark) wins: .*territory|Draw: "),
    ("plimil", 2, r"(Blue|Red) wins: |Draw: "),
])
def test_a_finished_game_says_its_result_in_words(game_id: str, players: int, winner_words: str) -> None:
    played = play_lines(game_id, ["random"] * 3000, seats=[HUMAN] + ["random"] * (players - 1),
                        players=players, seed=4)
    assert played.session.is_over
    [ending] = [line for line in played.output.splitlines() if line.startswith("Game over — ")]
    assert re.search(winner_words, ending), ending
    assert "won by" not in played.output and "scores" not in ending and "_" not in ending


def test_a_finished_plimil_game_shows_both_players_secrets() -> None:
    played = play_lines("plimil", ["random"] * 2000, seats=[HUMAN, "random"], seed=2)
    assert played.session.is_over
    out = played.output
    final = out[out.rindex("every secret, the game being over"):]
    board = final[: final.index("B blue ·")]
    assert "?" not in board, "every stem is shown"
    blocks = final[final.index("Blue's blocks (balls from the bottom up): "):]
    assert "Red's blocks (balls from the bottom up): " in blocks and "?" not in blocks, \
        "every ball of both players' blocks"


@pytest.mark.parametrize(("game_id", "players"), [("pylos", 2), ("expion", 4), ("imbrication", 2),
                                                  ("plimil", 2)])
def test_french_puts_a_space_before_every_colon(game_id: str, players: int) -> None:
    typed = ["aide", "x", "hasard", "info", "historique", "coups", "hasard", "info"]
    played = play_lines(game_id, typed, seats=[HUMAN] + ["easy"] * (players - 1), players=players,
                        lang="fr", seed=3)
    assert played.session.moves, "the game went on"
    assert not re.search(r"\w:", played.output), re.findall(r".{20}\w:.{5}", played.output)
    finished = play_lines(game_id, ["hasard"] * 3000, seats=[HUMAN] + ["random"] * (players - 1),
                          players=players, lang="fr", seed=3)
    assert finished.session.is_over and "Partie terminée — " in finished.output
    assert not re.search(r"\w:", finished.output), re.findall(r".{20}\w:.{5}", finished.output)
