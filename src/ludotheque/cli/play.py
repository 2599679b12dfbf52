"""``ludotheque play``: a game in the terminal, people and computer opponents at one keyboard.

The loop draws the board only when the position (or the reader, at one keyboard) changed: a
command, an error or an empty line leaves it where it is, and one prompt says whose turn it is.
Under each move it says what the move did that its text does not (a tile revealed, a piece
removed, marbles captured: the board's ``events``). Keys typed while a bot thinks are neither
echoed nor kept; a resignation is confirmed; a finished game offers to save its record.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from .. import i18n
from ..ai.levels import PERFECT, PERFECT_SPEC, canonical_level, level_label
from ..core import Game, Record, Result, State, info
from .boards import board_module
from .common import (
    GameArgument,
    LangOption,
    PlayersOption,
    VariantOption,
    console,
    fail,
    language,
    load_game,
    print_moves,
)
from .rules import game_rules

HUMAN = "human"
HUMAN_NAMES = ("human", "humain")
SEAT_LEVELS = ("random", "easy", "medium", "hard")
DEFAULT_OPPONENT = "medium"
"""Who plays the other seats without ``--vs``: a level that answers at once and still punishes
a loose move, where a random player teaches nothing."""
COMMANDS = {
    "help": ("help", "aide", "?"),
    "moves": ("moves", "coups"),
    "history": ("history", "historique", "list", "liste"),
    "info": ("info", "details", "détails"),
    "rules": ("rules", "regles", "règles"),
    "undo": ("undo", "annuler"),
    "random": ("random", "hasard"),
    "eval": ("eval", "analyse"),
    "save": ("save", "sauver"),
    "resign": ("resign", "abandon", "abandonner"),
    "quit": ("quit", "quitter", "exit"),
}
# The only commands that take an argument; any other refuses one rather than guess.
TAKES_ARGUMENT = ("help", "eval", "save")
# How many of the last moves the board recalls under it.
RECENT_MOVES = 4

MESSAGES: dict[str, dict[str, str]] = {
    "vs_with_seats": {
        "fr": "--vs et --seats ne vont pas ensemble : --seats donne déjà chaque place",
        "en": "--vs and --seats do not go together: --seats already names every seat",
    },
    "side_with_seats": {
        "fr": "--first/--second et --seats ne vont pas ensemble : --seats donne déjà chaque place",
        "en": "--first/--second and --seats do not go together: --seats already names every seat",
    },
    "seat_count": {
        "fr": "--seats donne {count} places, mais {game} se joue ici à {players}",
        "en": "--seats names {count} seats but {game} is played here by {players}",
    },
    "unknown_seat": {
        "fr": "place inconnue {kind} : choisissez parmi humain, aléatoire, facile, moyen, difficile",
        "en": "unknown seat kind {kind}: choose among human, random, easy, medium, hard",
    },
}


def _say(key: str, lang: str, **values: object) -> str:
    words = MESSAGES[key]
    return words.get(lang, words["en"]).format(**values)


@dataclass
class Session:
    """A game being played: every state so far, the move texts, and a result set by a resignation.

    ``version`` counts the changes (moves, take-backs, resignation), so that the board is drawn
    again only when something changed.
    """

    game: Game
    seed: int
    seats: list[str]
    states: list[State] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    resigned: Result | None = None
    version: int = 0

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
        self.version += 1
        return str(move)

    def undo(self) -> bool:
        """Take back the last move made by a person and every move after it."""
        for index in range(len(self.states) - 2, -1, -1):
            mover = self.states[index].to_move
            if mover is not None and self.seats[mover] == HUMAN:
                del self.states[index + 1 :]
                del self.moves[index:]
                self.version += 1
                return True
        return False

    def resign(self, player: int) -> None:
        self.resigned = self.game.resignation(player)
        self.version += 1

    def move_text(self, ply: int, reader: int | None) -> str:
        """The text of move ``ply`` (0-based) as ``reader`` may know it (secrets masked)."""
        mover = self.states[ply].to_move
        assert mover is not None
        return self.game.mask_move_text(self.moves[ply], mover, reader)

    def record(self) -> Record:
        record = Record.start(self.game, self.seed).with_moves(self.moves)
        return record.finished(self.result()) if self.is_over else record


def play(
    game_id: GameArgument,
    variant: VariantOption = None,
    players: PlayersOption = None,
    vs: Annotated[
        str | None,
        typer.Option("--vs", help="Opponents: human, random, easy, medium or hard (French names too; "
                                  f"default: {DEFAULT_OPPONENT})."),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option("--seats", help="One kind per seat, comma-separated (e.g. human,random,hard,human); "
                                     "not with --vs or --first/--second."),
    ] = None,
    first: Annotated[
        bool | None, typer.Option("--first/--second", help="Take the first seat (default) or the second.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the chance events and bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Write the game record to this file when the game ends or is left "
                                    "(without --save, a finished game offers to save it)."),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play GAME in the terminal; type 'help' (or 'aide') during the game for the commands."""
    words = language(lang)
    game = load_game(game_id, variant, players, words)
    kinds = seat_kinds(game, vs, seats, first, words)
    chosen_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    session = Session(game, chosen_seed, kinds)
    Terminal(session, words, console, offer_save=save is None).run()
    if save is not None and session.moves:
        _save(session, save, words, console)


def seat_kinds(game: Game, vs: str | None, seats: str | None, first: bool | None, lang: str) -> list[str]:
    """What sits on each seat: ``human`` or a bot's canonical name (French names accepted)."""
    if seats is not None:
        if vs is not None:
            fail(_say("vs_with_seats", lang), lang)
        if first is not None:
            fail(_say("side_with_seats", lang), lang)
        names = [kind.strip() for kind in seats.split(",")]
        if len(names) != game.players:
            fail(_say("seat_count", lang, count=len(names), game=game.id, players=game.players), lang)
        return [_seat_kind(name, lang) for name in names]
    kinds = [_seat_kind(vs or DEFAULT_OPPONENT, lang)] * game.players
    kinds[0 if first is None or first else 1] = HUMAN
    return kinds


def _seat_kind(name: str, lang: str) -> str:
    if name.lower() in HUMAN_NAMES:
        return HUMAN
    try:
        return canonical_level(name)
    except ValueError:
        fail(_say("unknown_seat", lang, kind=i18n.quote(name, lang)), lang)


class Terminal:
    """The read–play loop: people type moves and commands, bots answer.

    ``ask(prompt)`` reads a line (``EOFError`` or ``KeyboardInterrupt`` quits) and ``out`` shows
    everything, so the loop runs as well on a real terminal as on scripted input and a capture.
    """

    def __init__(
        self, session: Session, lang: str, out: Console, ask: Callable[[str], str] | None = None, *,
        offer_save: bool = False,
    ) -> None:
        self.session = session
        self.lang = lang
        self.out = out
        self.ask = ask or (lambda prompt: out.input(escape(prompt)))
        self.offer_save = offer_save
        self.board: ModuleType = board_module(session.game.id)
        self.bots: dict[tuple[int, str], Any] = {}
        self.last_human: int | None = None
        self.hinted = False
        # (session version, reader) of the board on the screen, if any.
        self.shown: tuple[int, int | None] | None = None

    def say(self, key: str, **values: object) -> None:
        self.out.print(escape(i18n.text(key, self.lang, **values)))

    def run(self) -> None:
        self.introduce()
        try:
            while not self.session.is_over:
                player = self.session.state.to_move
                assert player is not None
                if self.session.seats[player] != HUMAN:
                    self.bot_turn(player)
                elif not self.human_turn(player):
                    self.say("quit")
                    return
        except KeyboardInterrupt:  # while a bot thinks: the same as quitting
            self.say("quit")
            return
        self.finish()
        if self.offer_save and self.session.moves:
            self.offer_to_save()

    def introduce(self) -> None:
        game = self.session.game
        seats = ", ".join(
            i18n.text("seat", self.lang, side=self.side(p), who=self.who(p)) for p in range(game.players)
        )
        facts = info(game.id)
        title = facts.title.get(self.lang, game.id)
        self.say("start", title=title, variant=facts.variant_name(game.variant, self.lang),
                 players=game.players, seats=seats)
        seating_note = getattr(self.board, "seating_note", None)
        note = seating_note(game.players, lang=self.lang) if seating_note is not None else None
        if note:
            self.out.print(escape(note))

    # -- turns -------------------------------------------------------------------------------
    def human_turn(self, player: int) -> bool:
        """One command or move from ``player``; ``False`` when they quit."""
        self.hand_over(player)
        self.show(player)
        if not self.hinted:  # once, with a move this player may play now
            self.hinted = True
            self.say("hint", example=self.example())
        try:
            line = self.ask(i18n.text("prompt", self.lang, side=self.side(player), player=player))
        except (EOFError, KeyboardInterrupt):
            return False
        return self.handle(player, line.strip())

    def handle(self, player: int, line: str) -> bool:
        """Act on one line; ``False`` when the player quits. An empty line does nothing."""
        if not line:
            return True
        word, _, argument = line.partition(" ")
        command = next((key for key, names in COMMANDS.items() if word.lower() in names), None)
        argument = argument.strip()
        if command is None:
            self.try_move(line)
        elif argument and command not in TAKES_ARGUMENT:
            self.say("takes_no_argument", command=word)
        elif command == "quit":
            return False
        else:
            getattr(self, f"command_{command}")(player, argument)
        return True

    def try_move(self, text: str) -> None:
        before = self.session.state
        try:
            played = self.session.play(text)
        except ValueError as error:
            self.say("bad_move", reason=i18n.move_error(error, self.lang))
        else:
            self.say("played", move=played)
            self.tell_events(before)

    def bot_turn(self, player: int) -> None:
        kind = self.session.seats[player]
        label = level_label(kind, self.lang)
        before = self.session.state
        with quiet_keyboard(self.out):  # building the bot (a kernel to load) takes time too
            bot = self.bot(player, kind)
            said = self.thinking(self.side(player), label, lambda progress: bot.analyse(before, progress))
        self.session.play(str(said.best_move))
        shown = self.session.move_text(len(self.session.moves) - 1, self.reader())
        if kind == PERFECT and said.algorithm != PERFECT:
            # Perfect play only where the tables reach: elsewhere say whose move it was.
            self.say("bot_played_unsolved", side=self.side(player), level=label, move=shown,
                     fallback=level_label(PERFECT_SPEC.options["fallback"], self.lang))
        else:
            self.say("bot_played", side=self.side(player), level=label, move=shown)
        self.tell_events(before)

    def tell_events(self, before: State) -> None:
        """What the last move did that its text does not say, as the reader may know it (the
        board's ``events``: a tile revealed, a piece removed, marbles captured…)."""
        events = getattr(self.board, "events", None)
        if events is None:
            return
        reader = self.reader()
        move = self.session.move_text(len(self.session.moves) - 1, reader)
        for line in events(before.view(reader), self.session.state.view(reader), move, lang=self.lang):
            self.out.print(escape(line))

    def thinking(self, side: str, level: str, search: Callable[[Callable[[float], None]], Any]) -> Any:
        """Run a bot's ``search`` behind a progress bar fed by its progress callback; keys typed
        meanwhile are neither echoed onto the bar nor kept."""
        label = escape(i18n.text("bot_thinking", self.lang, side=side, level=level))
        with quiet_keyboard(self.out), Progress(TextColumn("{task.description}"), BarColumn(),
                                                TimeElapsedColumn(), console=self.out, transient=True) as bar:
            task = bar.add_task(label, total=1.0)
            return search(lambda done: bar.update(task, completed=done))

    def finish(self) -> None:
        """The last position (every secret shown, the game being over) and the result in words."""
        state = self.session.state
        final_view = getattr(self.board, "final_view", None)
        if final_view is not None and self.session.game.has_hidden_information:
            view = final_view([state.view(p) for p in range(self.session.game.players)])
            last = self.last_move(None)
            self.out.print(self.board.render(view, lang=self.lang, last_move=last, turn=False))
            self.out.print(self.board.details(view, lang=self.lang))
        else:
            self.show(self.reader(), force=True)
        outcome = self.board.outcome(state.view(None), self.session.result().to_json(), lang=self.lang)
        self.say("game_over", outcome=outcome)

    # -- commands ------------------------------------------------------------------------------
    def command_help(self, player: int, argument: str) -> None:
        notation = getattr(self.board, "NOTATION", {})
        words = notation.get(self.lang) or notation.get("en") or f"  {self.example()}"
        self.say("help", notation=words)

    def command_moves(self, player: int, argument: str) -> None:
        moves = [str(m) for m in self.session.state.legal_moves()]
        self.say("legal_moves", count=len(moves))
        print_moves(self.out, moves)

    def command_history(self, player: int, argument: str) -> None:
        count = len(self.session.moves)
        if not count:
            self.say("no_history")
            return
        self.say("history", count=count)
        print_moves(self.out, [self.numbered(ply, player) for ply in range(count)])

    def command_info(self, player: int, argument: str) -> None:
        details = getattr(self.board, "details", None)
        if details is None:
            self.say("no_details")
        else:
            self.out.print(details(self.session.state.view(player), lang=self.lang))

    def command_rules(self, player: int, argument: str) -> None:
        page: RenderableType = Markdown(game_rules(self.session.game.id, self.lang))
        if self.out.is_terminal:
            with self.out.pager():  # plain text: a pager shows escape codes unless told otherwise
                self.out.print(page)
        else:
            self.out.print(page)

    def command_undo(self, player: int, argument: str) -> None:
        self.say("undone" if self.session.undo() else "nothing_to_undo")

    def command_random(self, player: int, argument: str) -> None:
        before = self.session.state
        move = self.bot(player, "random").choose(before)
        self.say("played", move=self.session.play(str(move)))
        self.tell_events(before)

    def command_eval(self, player: int, argument: str) -> None:
        try:
            level = canonical_level(argument or "medium")
            with quiet_keyboard(self.out):
                bot = self.bot(player, level)
        except ValueError:
            levels = ", ".join(level_label(name, self.lang) for name in SEAT_LEVELS)
            self.say("unknown_level", level=i18n.quote(argument, self.lang), levels=levels)
            return
        label = level_label(level, self.lang)
        analysis = self.thinking(self.side(player), label,
                                 lambda progress: bot.analyse(self.session.state, progress))
        self.say("evaluation", level=label, side=self.side(player),
                 value=i18n.signed(analysis.value, lang=self.lang), move=analysis.best_move)
        if analysis.principal_variation:
            self.say("expected_line", moves=" ".join(analysis.principal_variation))

    def command_save(self, player: int, argument: str) -> None:
        _save(self.session, Path(argument) if argument else _default_path(self.session), self.lang, self.out)

    def command_resign(self, player: int, argument: str) -> None:
        try:
            answer = self.ask(i18n.text("confirm_resign", self.lang))
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() not in i18n.YES:
            self.say("not_resigned")
            return
        self.say("resigned", side=self.side(player), player=player)
        self.session.resign(player)

    def offer_to_save(self) -> None:
        """At the game's end: save the record where the player says: ``yes`` for the default
        name, or a file name ending in ``.json`` (any other answer, a move typed ahead, saves
        nothing)."""
        path = _default_path(self.session)
        try:
            answer = self.ask(i18n.text("offer_save", self.lang, path=str(path))).strip()
        except (EOFError, KeyboardInterrupt):
            return
        if answer.lower() in i18n.YES:
            _save(self.session, path, self.lang, self.out)
        elif answer.lower().endswith(".json"):
            _save(self.session, Path(answer), self.lang, self.out)
        else:
            self.say("not_saved")

    # -- helpers -------------------------------------------------------------------------------
    def example(self) -> str:
        """A move the player to move may play now: the board's ``EXAMPLE`` where it is legal,
        else one from the middle of the legal moves (not always the first cell)."""
        moves = [str(move) for move in self.session.state.legal_moves()]
        example: str = getattr(self.board, "EXAMPLE", "")
        if example in moves:
            return example
        return moves[len(moves) // 2] if moves else ""

    def bot(self, player: int, kind: str) -> Any:
        """The bot ``kind`` of ``player`` (built once); raises ``ValueError`` for an unknown kind."""
        key = (player, kind)
        if key not in self.bots:
            from .. import ai

            self.bots[key] = ai.bot(kind, self.session.game, seed=self.session.seed + player)
        return self.bots[key]

    def side(self, player: int) -> str:
        """How ``player`` is called in this game (Light, North–South, Blue…)."""
        name: str = self.board.side_name(self.session.states[0].view(None), player, lang=self.lang)
        return name

    def who(self, player: int) -> str:
        kind = self.session.seats[player]
        return i18n.text("human", self.lang) if kind == HUMAN else level_label(kind, self.lang)

    def reader(self) -> int | None:
        """Whose secrets the screen may show: the one person playing, else nobody's."""
        humans = [p for p, kind in enumerate(self.session.seats) if kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def numbered(self, ply: int, reader: int | None) -> str:
        mover = self.session.states[ply].to_move
        assert mover is not None
        return f"{ply + 1}. {self.session.move_text(ply, reader)} ({self.side(mover)})"

    def last_move(self, reader: int | None) -> str | None:
        moves = self.session.moves
        return self.session.move_text(len(moves) - 1, reader) if moves else None

    def show(self, viewer: int | None, *, force: bool = False) -> None:
        """The board as ``viewer`` sees it, the last move marked, and the last few moves; drawn
        only when something changed since it was last drawn."""
        key = (self.session.version, viewer)
        if key == self.shown and not force:
            return
        self.shown = key
        view = self.session.state.view(viewer)
        self.out.print(self.board.render(view, lang=self.lang, last_move=self.last_move(viewer), turn=False))
        count = len(self.session.moves)
        if count:
            plies = range(max(0, count - RECENT_MOVES), count)
            recent = " · ".join(self.numbered(ply, viewer) for ply in plies)
            self.say("last_moves", moves=("… " if count > RECENT_MOVES else "") + recent)
        # A board that draws no cells to choose from (the generic one): the moves under it.
        state = self.session.state
        if getattr(self.board, "LIST_MOVES", False) and viewer is not None and state.to_move == viewer:
            self.command_moves(viewer, "")

    def hand_over(self, player: int) -> None:
        """At one keyboard, hide a hidden-information game's board while players change seats."""
        humans = [p for p, kind in enumerate(self.session.seats) if kind == HUMAN]
        changing = self.last_human is not None and self.last_human != player
        if self.session.game.has_hidden_information and len(humans) > 1 and changing:
            self.clear_all()
            with contextlib.suppress(EOFError):
                self.ask(i18n.text("handover", self.lang, side=self.side(player), player=player))
            self.clear_all()
            self.shown = None
        self.last_human = player

    def clear_all(self) -> None:
        """Clear the screen and the terminal's scrollback too (the previous player's secrets
        must not stay a scroll away)."""
        self.out.clear()
        if self.out.is_terminal:
            self.out.file.write(CLEAR_SCROLLBACK)
            self.out.file.flush()


# Erase the saved lines (xterm, VTE, tmux, iTerm2, Windows Terminal…), after the screen's clear.
CLEAR_SCROLLBACK = "\x1b[3J"


@contextlib.contextmanager
def quiet_keyboard(out: Console) -> Iterator[None]:
    """While a bot thinks: keys typed are not echoed (onto the progress bar), and are dropped
    afterwards rather than typed into the next prompt unseen. A no-op without a terminal."""
    try:
        import termios
    except ImportError:  # not a POSIX system
        yield
        return
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd) if out.is_terminal and sys.stdin.isatty() else None
    except (OSError, ValueError, termios.error):  # no real standard input (a capture, a test)
        saved = None
    if saved is None:
        yield
        return
    quiet = list(saved)
    quiet[3] = saved[3] & ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        with contextlib.suppress(termios.error):
            termios.tcflush(fd, termios.TCIFLUSH)
            termios.tcsetattr(fd, termios.TCSANOW, saved)


def _default_path(session: Session) -> Path:
    return Path(f"ludotheque-{session.game.id}-{session.seed}-{len(session.moves)}.json")


def _save(session: Session, path: Path, lang: str, out: Console) -> None:
    try:
        session.record().save(path)
    except (OSError, ValueError) as error:  # ValueError: a path the system refuses (a NUL byte)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        out.print(escape(i18n.text("save_failed", lang, reason=reason)))
    else:
        out.print(escape(i18n.text("saved", lang, path=str(path))))
