"""The command line derives from the registry (issue 14): its help texts name the registered games,
results and variants are worded by each game's ``GameInfo``, and the generic terminal board draws
any game's view. (A game installed from another distribution: ``tests/extension``.)"""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import ludotheque
from ludotheque.cli import common
from ludotheque.cli.boards import board_module, generic
from ludotheque.cli.common import game_list
from ludotheque.cli.main import app
from ludotheque.core import info

runner = CliRunner()


def run(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


def printed(renderable: object) -> str:
    console = Console(width=120, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_the_help_texts_name_the_registered_games() -> None:
    titles = [info(game_id).title["en"] for game_id in ludotheque.games()]
    assert ", ".join(titles[:-1]) + f" and {titles[-1]}" in run("--help")
    for command in ("play", "bench", "rules", "arena"):
        assert f"The game: {game_list()}" in run(command, "--help"), command
    assert game_list() == ", ".join(ludotheque.games()[:-1]) + f" or {ludotheque.games()[-1]}"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_results_read_in_the_words_each_game_declares(lang: str) -> None:
    view = ludotheque.load("pylos").new_state().view(None)
    result = {"winners": [1], "scores": [-1, 1], "reason": "empty_reserve"}
    loser = board_module("pylos").side_name(view, 0, lang=lang)
    expected = info("pylos").reason_text("empty_reserve", lang, loser=loser)
    assert expected is not None and board_module("pylos").outcome(view, result, lang=lang).endswith(expected)
    resigned = {"winners": [0], "scores": [1, -1], "reason": "resign"}
    assert board_module("pylos").outcome(view, resigned, lang="en") == "Light wins: Dark resigned"


def test_games_and_play_say_the_variants_names(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table wraps to the console's width, fixed when the console was made (80 off a terminal).
    monkeypatch.setattr(common.console, "width", 200)
    assert "kids — enfants" in run("games", "--lang", "fr")
    typed = ["play", "pylos", "--variant", "kids", "--seats", "human,human", "--lang", "fr"]
    result = runner.invoke(app, typed, input="quitter\n")
    assert "Pylos (enfants, 2 joueurs)" in result.stdout


@pytest.mark.parametrize("game_id", ludotheque.games())
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_generic_board_draws_any_games_view(game_id: str, lang: str) -> None:
    state = ludotheque.load(game_id).new_state(seed=1)
    view = state.view(0)
    text = printed(generic.render(view, lang=lang, last_move="x1"))
    own_fields = [key for key in view if key not in generic.COMMON]
    assert all(f"{key}{' :' if lang == 'fr' else ':'}" in text for key in own_fields)
    assert generic.side_name(view, 0, lang=lang) in text
    if lang == "fr":
        assert not re.search(r"\w:", text), "French puts a space before a colon"
