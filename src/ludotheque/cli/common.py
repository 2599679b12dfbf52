"""Helpers shared by the commands: consoles, language and game options, clean errors (each one
line, ``ludotheque <command>: …``), tables that keep their columns when piped, and help texts
that name the registered games.

A help text (of a command, its arguments and options, or of the whole program) may say
``{games}`` (the game ids: ``expion, imbrication, plimil or pylos``) or ``{titles}`` (their
titles); the registry fills them in each time the command line is built, so a game an installed
distribution adds is named like the others.

>>> with_games("GAME: {games}.") == f"GAME: {game_list()}."
True
>>> game_list(["pylos"]), game_list(["a", "b", "c"])
('pylos', 'a, b or c')
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from typer._click.exceptions import ClickException, UsageError  # what Typer's parser raises
from typer.core import TyperCommand, TyperGroup

from .. import i18n
from ..core import Game, info, load
from ..core import games as game_ids

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the messages: fr or en (default: from LANG)."),
]
VariantOption = Annotated[str | None, typer.Option("--variant", "-v", help="Rule set (variant).")]
PlayersOption = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed for every chance event and random choice.")]
GameArgument = Annotated[str, typer.Argument(metavar="GAME", help="The game: {games}.")]

# The command running (``play``, ``arena``…), named in its errors.
COMMAND: ContextVar[str | None] = ContextVar("COMMAND", default=None)

MESSAGES: dict[str, dict[str, str]] = {
    "error": {"fr": "{program} :", "en": "{program}:"},
    "unknown_language": {
        "fr": "langue inconnue {lang} : choisissez fr ou en",
        "en": "unknown language {lang}: choose fr or en",
    },
    "unknown_game": {
        "fr": "jeu inconnu {game} ; jeux : {games}",
        "en": "unknown game {game}; known games: {games}",
    },
    "unknown_variant": {
        "fr": "{game} : variante inconnue {variant} ; variantes : {variants}",
        "en": "{game}: unknown variant {variant}; variants: {variants}",
    },
    "bad_players": {
        "fr": "{game} ne se joue pas à {players} joueurs ; possible : {counts}",
        "en": "{game} cannot be played by {players} players; allowed: {counts}",
    },
}


def game_list(names: Sequence[str] | None = None) -> str:
    """``names`` (every registered game id by default) as a list in words: ``a, b or c``."""
    names = list(game_ids() if names is None else names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def with_games(text: str | None) -> str | None:
    """``text`` with ``{games}`` and ``{titles}`` naming the registered games."""
    if not text:
        return text
    titles = game_list([info(game_id).title.get("en", game_id) for game_id in game_ids()])
    return text.replace("{games}", game_list()).replace("{titles}", titles.replace(" or ", " and "))


def without_flag_types(params: Sequence[Any]) -> None:
    """Show no type (``<bool>``) beside an option that takes no value (``--json``, ``--help``)."""
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
            param.metavar = ""


class RegistryCommand(TyperCommand):
    """A command whose help texts name the registered games (``{games}``, ``{titles}``), whose
    flags show no ``<bool>``, and whose errors name it (``ludotheque play: …``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["help"] = with_games(kwargs.get("help"))
        super().__init__(*args, **kwargs)
        for param in self.params:
            text = getattr(param, "help", None)
            if isinstance(text, str):
                param.help = with_games(text)  # type: ignore[attr-defined]
        without_flag_types(self.params)

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        without_flag_types([option])
        return option

    def invoke(self, ctx: Any) -> Any:
        token = COMMAND.set(self.name)
        try:
            return super().invoke(ctx)
        finally:
            COMMAND.reset(token)


class RegistryGroup(TyperGroup):
    """The program, whose help names the registered games and shows no ``<bool>`` for a flag;
    a command line its parser refuses (an unknown option, a missing argument) is said in the
    one line every error has: ``ludotheque play: No such option: --bogus (ludotheque play --help)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["help"] = with_games(kwargs.get("help"))
        super().__init__(*args, **kwargs)
        without_flag_types(self.params)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ClickException as error:
            where = getattr(error, "ctx", None)
            command = where.command.name if where is not None and where.parent is not None else None
            message = error.format_message().rstrip(".")
            if isinstance(error, UsageError):
                message += f" ({program(command)} --help)"
            # The parser speaks English: so does the line.
            errors.print(escape(error_line(message, "en", command)), style="bold red", highlight=False)
            raise typer.Exit(error.exit_code) from None

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        without_flag_types([option])
        return option


def say(key: str, lang: str, /, **values: object) -> str:
    """A message of this module in ``lang``."""
    words = MESSAGES[key]
    return words.get(lang, words["en"]).format(**values)


def language(lang: str | None) -> str:
    """The language to speak: ``lang`` when given (validated), else from the environment."""
    if lang is None:
        return i18n.detect_language()
    if lang not in i18n.LANGUAGES:
        fail(say("unknown_language", i18n.detect_language(), lang=i18n.quote(lang, "en")))
    return lang


def program(command: str | None = None) -> str:
    """``ludotheque <command>``: what an error of ``command`` (by default, the one running) starts with."""
    name = command or COMMAND.get()
    return f"ludotheque {name}" if name else "ludotheque"


def error_line(message: str, lang: str | None = None, command: str | None = None) -> str:
    """The one line of an error, the same for every command: ``ludotheque <command>: <message>``
    (``ludotheque <command> : …`` in French).

    >>> error_line("unknown game 'x'", "en", "play"), error_line("jeu inconnu", "fr", "rules")
    ("ludotheque play: unknown game 'x'", 'ludotheque rules : jeu inconnu')
    """
    return f"{say('error', lang or i18n.detect_language(), program=program(command))} {message}"


def fail(message: str, lang: str | None = None, *, command: str | None = None) -> NoReturn:
    """Print one clear line to stderr (``ludotheque <command>: …``) and exit with status 1 (no
    traceback)."""
    errors.print(escape(error_line(message, lang, command)), style="bold red", markup=True, highlight=False)
    raise typer.Exit(1)


def print_table(out: Console, table: Table) -> None:
    """``table`` at the terminal's width, or, piped or captured, at its own full width: no column
    cut short to 80 characters ("varia…")."""
    if out.is_terminal:
        out.print(table)
        return
    width = Measurement.get(out, out.options.update(width=10_000), table).maximum
    previous = out.width
    out.width = max(width, previous)  # print's own width can only narrow the console's
    try:
        out.print(table, crop=False)
    finally:
        out.width = previous


def print_moves(out: Console, moves: Sequence[str]) -> None:
    """``moves`` two spaces apart, as many to a line as the console's width holds, none cut in two
    (a move such as ``block d1 BRR`` holds spaces, where the console would otherwise wrap it)."""
    line = ""
    for move in moves:
        if line and len(line) + 2 + len(move) > out.width:
            out.print(escape(line), crop=False, soft_wrap=True)
            line = ""
        line = f"{line}  {move}" if line else move
    if line:
        out.print(escape(line), crop=False, soft_wrap=True)


def load_game(game_id: str, variant: str | None, players: int | None, lang: str | None = None) -> Game:
    """The game asked for; an unknown game, variant or player count fails in ``lang``."""
    words = lang or i18n.detect_language()
    if game_id not in game_ids():
        fail(say("unknown_game", words, game=i18n.quote(game_id, words), games=", ".join(game_ids())), words)
    facts = info(game_id)
    if variant is not None and variant not in facts.variants:
        fail(say("unknown_variant", words, game=game_id, variant=i18n.quote(variant, words),
                 variants=", ".join(facts.variants)), words)
    if players is not None and players not in facts.player_counts:
        fail(say("bad_players", words, game=game_id, players=players,
                 counts=", ".join(map(str, facts.player_counts))), words)
    try:
        return load(game_id, variant=variant, players=players)
    except ValueError as error:
        fail(str(error), words)
