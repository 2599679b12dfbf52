"""``ludotheque play``: a game in the terminal, people and computer opponents at one keyboard."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from .. import i18n
from ..core import Game, Record, Result, State
from .boards import board_module
from .common import LangOption, PlayersOption, VariantOption, console, fail, language, load_game

HUMAN = "human"
BOT_KINDS = ("random", "easy", "medium", "hard")
COMMANDS = {
    "help": ("help", "aide", "?"),
    "moves": ("moves", "coups"),
    "info": ("info", "details", "détails"),
    "undo": ("undo", "annuler"),
    "random": ("random", "hasard"),
    "eval": ("eval", "analyse"),
    "save": ("save", "sauver"),
    "resign": ("resign", "abandon"),
    "quit": ("quit", "quitter", "exit"),
}


@dataclass
class Session:
    """A game being played: every state so far, the move texts, and a result set by a resignation."""

    game: Game
    seed: int
    seats: list[str]
    states: list[State] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    resigned: Result | None = None

    def __post_init__(self) -> None:
        self.states = [self.game.new_state(seed=self.seed)]

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def is_over(self) -> bool:
        return self.resigned is not None or self.state.is_over

    def result(self) -> Result:
        return self.resigned or self.state.result()

    def play(self, text: str) -> str:
        """Play ``text`` (or a move); returns its canonical text. Raises ``ValueError`` if refused."""
        move = self.game.parse_move(self.state, text)
        self.states.append(self.state.play(move))
        self.moves.append(str(move))
        return str(move)

    def undo(self) -> bool:
        """Take back the last move made by a person and every move after it."""
        for index in range(len(self.states) - 2, -1, -1):
            mover = self.states[index].to_move
            if mover is not None and self.seats[mover] == HUMAN:
                del self.states[index + 1 :]
                del self.moves[index:]
                return True
        return False

    def record(self) -> Record:
        record = Record.start(self.game, self.seed).with_moves(self.moves)
        return record.finished(self.result()) if self.is_over else record


def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="pylos, imbrication, expion or plimil.")],
    variant: VariantOption = None,
    players: PlayersOption = None,
    vs: Annotated[
        str, typer.Option("--vs", help="Opponents: human, random, easy, medium or hard.")
    ] = "random",
    seats: Annotated[
        str | None,
        typer.Option("--seats", help="One kind per seat, comma-separated (e.g. human,random,hard,human)."),
    ] = None,
    first: Annotated[
        bool, typer.Option("--first/--second", help="Take the first seat (default) or the second.")
    ] = True,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the chance events and bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Write the game record to this file when the game ends.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play GAME in the terminal; type 'help' (or 'aide') during the game for the commands."""
    words = language(lang)
    game = load_game(game_id, variant, players)
    kinds = _seat_kinds(game, vs, seats, first)
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    session = Session(game, chosen_seed, kinds)
    Terminal(session, words, console).run()
    if save is not None and session.moves:
        _save(session, save, words)


def _seat_kinds(game: Game, vs: str, seats: str | None, first: bool) -> list[str]:
    allowed = (HUMAN, *BOT_KINDS)
    if seats is not None:
        kinds = [kind.strip().lower() for kind in seats.split(",")]
        if len(kinds) != game.players:
            fail(f"--seats names {len(kinds)} seats but {game.id} is played here by {game.players}")
    else:
        kinds = [vs.lower()] * game.players
        kinds[0 if first else 1] = HUMAN
    for kind in kinds:
        if kind not in allowed:
            fail(f"unknown seat kind {kind!r}: choose among {', '.join(allowed)}")
    return kinds


class Terminal:
    """The read–play loop: people type moves and commands, bots answer."""

    def __init__(
        self, session: Session, lang: str, out: Console, ask: Callable[[str], str] | None = None
    ) -> None:
        self.session = session
        self.lang = lang
        self.out = out
        self.ask = ask or (lambda prompt: out.input(prompt))
        self.board = board_module(session.game.id)
        self.bots: dict[tuple[int, str], Any] = {}
        self.last_human: int | None = None

    def say(self, key: str, **values: object) -> None:
        self.out.print(escape(i18n.text(key, self.lang, **values)))

    def run(self) -> None:
        self.say("help")
        while not self.session.is_over:
            player = self.session.state.to_move
            assert player is not None
            if self.session.seats[player] == HUMAN:
                if not self.human_turn(player):
                    self.say("quit")
                    return
            else:
                self.bot_turn(player)
        self.show(self.final_viewer())
        self.announce_result()

    # -- turns -------------------------------------------------------------------------------
    def human_turn(self, player: int) -> bool:
        """One command or move from ``player``; ``False`` when they quit."""
        self.hand_over(player)
        self.show(player)
        self.say("your_turn", player=player)
        try:
            line = self.ask(f"{i18n.text('prompt', self.lang, player=player, name=self.name(player))} > ")
        except (EOFError, KeyboardInterrupt):
            return False
        return self.handle(player, line.strip())

    def handle(self, player: int, line: str) -> bool:
        word, _, argument = line.partition(" ")
        command = next((key for key, names in COMMANDS.items() if word.lower() in names), None)
        if command == "quit":
            return False
        if command is None:
            self.try_move(line)
        else:
            getattr(self, f"command_{command}")(player, argument.strip())
        return True

    def try_move(self, text: str) -> None:
        try:
            played = self.session.play(text)
        except ValueError as error:
            self.say("bad_move", reason=str(error))
        else:
            self.say("played", move=played)

    def bot_turn(self, player: int) -> None:
        bot = self.bot(player, self.session.seats[player])
        name = self.name(player)
        move = self.thinking(name, lambda progress: bot.choose(self.session.state, progress))
        self.say("bot_played", name=name, move=self.session.play(str(move)))

    def thinking(self, name: str, search: Callable[[Callable[[float], None]], Any]) -> Any:
        """Run a bot's ``search`` behind a progress bar fed by its progress callback."""
        label = i18n.text("bot_thinking", self.lang, name=name)
        with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                      console=self.out, transient=True) as bar:
            task = bar.add_task(label, total=1.0)
            return search(lambda done: bar.update(task, completed=done))

    # -- commands ------------------------------------------------------------------------------
    def command_help(self, player: int, argument: str) -> None:
        self.say("help")

    def command_moves(self, player: int, argument: str) -> None:
        moves = [str(m) for m in self.session.state.legal_moves()]
        self.say("legal_moves", count=len(moves))
        self.out.print(escape("  ".join(moves)))

    def command_info(self, player: int, argument: str) -> None:
        details = getattr(self.board, "details", None)
        if details is None:
            self.say("no_details")
        else:
            self.out.print(details(self.session.state.view(player), lang=self.lang))

    def command_undo(self, player: int, argument: str) -> None:
        self.say("undone" if self.session.undo() else "nothing_to_undo")

    def command_random(self, player: int, argument: str) -> None:
        move = self.bot(player, "random").choose(self.session.state)
        self.say("played", move=self.session.play(str(move)))

    def command_eval(self, player: int, argument: str) -> None:
        level = argument or "medium"
        bot = self.bot(player, level)
        analysis = self.thinking(level, lambda progress: bot.analyse(self.session.state, progress))
        self.say("evaluation", name=level, player=player, value=analysis.value, move=analysis.best_move)
        if analysis.principal_variation:
            self.out.print(escape(" ".join(analysis.principal_variation)))

    def command_save(self, player: int, argument: str) -> None:
        _save(self.session, Path(argument) if argument else _default_path(self.session), self.lang)

    def command_resign(self, player: int, argument: str) -> None:
        self.say("resigned", player=player)
        self.session.resigned = self.session.game.resignation(player)

    # -- helpers -------------------------------------------------------------------------------
    def bot(self, player: int, kind: str) -> Any:
        key = (player, kind)
        if key not in self.bots:
            from .. import ai

            self.bots[key] = ai.bot(kind, self.session.game, seed=self.session.seed + player)
        return self.bots[key]

    def name(self, player: int) -> str:
        kind = self.session.seats[player]
        return kind if kind != HUMAN else {"fr": "humain", "en": "human"}.get(self.lang, kind)

    def show(self, viewer: int | None) -> None:
        self.out.print(self.board.render(self.session.state.view(viewer), lang=self.lang))

    def hand_over(self, player: int) -> None:
        """At one keyboard, hide a hidden-information game's board while players change seats."""
        humans = [p for p, kind in enumerate(self.session.seats) if kind == HUMAN]
        changing = self.last_human is not None and self.last_human != player
        if self.session.game.has_hidden_information and len(humans) > 1 and changing:
            self.out.clear()
            with contextlib.suppress(EOFError):
                self.ask(i18n.text("handover", self.lang, player=player, name=self.name(player)))
            self.out.clear()
        self.last_human = player

    def final_viewer(self) -> int | None:
        humans = [p for p, kind in enumerate(self.session.seats) if kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def announce_result(self) -> None:
        result = self.session.result()
        if result.winners:
            outcome = i18n.text("winner", self.lang, players=", ".join(map(str, result.winners)))
        else:
            outcome = i18n.text("draw", self.lang)
        scores = i18n.text("scores", self.lang, scores=" – ".join(map(str, result.scores)))
        self.say("game_over", outcome=f"{outcome} ({result.reason}); {scores}")


def _default_path(session: Session) -> Path:
    return Path(f"ludotheque-{session.game.id}-{session.seed}-{len(session.moves)}.json")


def _save(session: Session, path: Path, lang: str) -> None:
    try:
        session.record().save(path)
    except OSError as error:
        console.print(escape(i18n.text("save_failed", lang, reason=error.strerror or str(error))))
    else:
        console.print(escape(i18n.text("saved", lang, path=str(path))))
