"""The rules pages (``engines/<id>/RULES.md``): both languages, and what issue 19 asked them to say."""

from __future__ import annotations

from importlib import resources

import pytest

import ludotheque


def sections(game_id: str) -> tuple[str, str]:
    text = resources.files(f"ludotheque.engines.{game_id}").joinpath("RULES.md").read_text("utf-8")
    assert text.count("## Français") == 1 and text.count("## English") == 1
    french, english = text.split("## English")
    return french, english


@pytest.mark.parametrize("game_id", ludotheque.games())
def test_each_page_has_french_then_english_with_the_same_sections(game_id: str) -> None:
    french, english = sections(game_id)
    assert french.count("\n### ") == english.count("\n### ") > 2
    assert french.count("```") == english.count("```")


@pytest.mark.parametrize(
    ("game_id", "in_french", "in_english"),
    [
        # The chameleon reads "peut" in the rulebook: the automatic capture is a choice.
        ("expion", ["« peut »", "orthogonalement voisine de l'EX\\*PION (un contact en diagonale"],
         ['"peut" (may)', "orthogonally next to the EX\\*PION (a diagonal contact"]),
        ("pylos", ["peut en faire partie", "+1 et le perdant −1", "0 à chacun",
                   "doi:10.1177/13896911261418683", "36 (enfants), 40 (standard) et 46 (avancée)",
                   "peuvent différer"],
         ["may include the ball just played", "+1 and the loser −1", "gives both 0",
          "doi:10.1177/13896911261418683", "36 (kids), 40 (standard) and 46 (advanced)",
          "may differ"]),
        ("plimil", ["zone de départ", "zones latérales", "doit exister et être libre",
                    "100 se comptent en demi-coups", "`pass` compris"],
         ["start zone", "lateral zones", "must exist and be free", "The 100 are plies",
          "`pass` included"]),
        ("imbrication", ["r = random.Random(seed)", "`order1[0]` sort la première",
                         "(`d4xf4`, `d4xf4xf6`, `d4xd6`)", "même famille"],
         ["r = random.Random(seed)", "`order1[0]` comes out first", "(`d4xf4`, `d4xf4xf6`, `d4xd6`)",
          "same family"]),
    ],
)
def test_the_pages_say_what_issue_19_asked(game_id: str, in_french: list[str],
                                           in_english: list[str]) -> None:
    french, english = (" ".join(part.split()) for part in sections(game_id))
    for text in in_french:
        assert text in french, text
    for text in in_english:
        assert text in english, text


def test_plimil_names_its_zones_as_the_rulebook_does() -> None:
    french, english = sections("plimil")
    assert "coin" not in french and "wedge" not in english
