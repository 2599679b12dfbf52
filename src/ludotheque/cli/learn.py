"""``ludotheque learn GAME``: the game's course in the terminal, step by step.

Each step shows its explanation, the board (the game's own terminal board) and a task; the person
types a move in notation, and the engine judges it (:mod:`ludotheque.lessons`): right or wrong,
with the step's explanation. ``hint`` (``indice``), ``moves`` (``coups``), ``skip`` (``passer``)
and ``quit`` (``quitter``) work at every prompt. A right answer is kept in the progress file
(``$XDG_DATA_HOME/ludotheque/progress.json``), so the next ``learn`` resumes at the first step not
done; the last step is a whole game against a bot, played by the same loop as ``ludotheque play``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from .. import i18n, lessons
from ..core import Game, State
from .boards import board_module
from .common import GameArgument, LangOption, console, fail, language, load_game, print_moves
from .play import HUMAN, Session, Terminal

# The person whose progress the terminal keeps (the server keeps one per account or guest).
PERSON = "local"

COMMANDS = {
    "hint": ("hint", "indice", "aide", "help", "?"),
    "moves": ("moves", "coups"),
    "skip": ("skip", "passer", "suivant", "next"),
    "quit": ("quit", "quitter", "exit"),
}

MESSAGES: dict[str, dict[str, str]] = {
    "step": {"fr": "Leçon {number}/{count} — {title}", "en": "Lesson {number}/{count} — {title}"},
    "task": {"fr": "À vous : {task}", "en": "Your task: {task}"},
    "prompt": {"fr": "Votre coup (indice, coups, passer, quitter) > ",
               "en": "Your move (hint, moves, skip, quit) > "},
    "right": {"fr": "✓ Juste ({move}) : {why}", "en": "✓ Right ({move}): {why}"},
    "wrong": {"fr": "✗ Pas encore ({move}) : {why} Réessayez.", "en": "✗ Not yet ({move}): {why} Try again."},
    "refused": {"fr": "Coup refusé : {reason}", "en": "Move refused: {reason}"},
    "hint": {"fr": "Indice : {hint}", "en": "Hint: {hint}"},
    "moves": {"fr": "Coups légaux ({count}) :", "en": "Legal moves ({count}):"},
    "skipped": {"fr": "Leçon passée.", "en": "Lesson skipped."},
    "game_prompt": {"fr": "Entrée : commencer la partie · passer · quitter > ",
                    "en": "Enter: start the game · skip · quit > "},
    "game_won": {"fr": "✓ {why}", "en": "✓ {why}"},
    "game_lost": {"fr": "✗ {why} Relancez « ludotheque learn {game} » pour rejouer.",
                  "en": "✗ {why} Run 'ludotheque learn {game}' again to replay."},
    "finished": {"fr": "Cours terminé : vous savez jouer à {title} !",
                 "en": "Course finished: you can play {title}!"},
    "already": {
        "fr": "Vous avez terminé ce cours. --step N pour revoir une leçon, --reset pour recommencer.",
        "en": "You have finished this course. --step N to see a lesson again, --reset to start over.",
    },
    "reset": {"fr": "Progression effacée pour {game}.", "en": "Progress cleared for {game}."},
    "bad_step": {"fr": "--step doit être entre 1 et {count}", "en": "--step must be between 1 and {count}"},
    "goodbye": {"fr": "Au revoir : vous reprendrez à la leçon {number}.",
                "en": "Goodbye: you will resume at lesson {number}."},
    "not_kept": {"fr": "Progression non enregistrée : {reason}", "en": "Progress not saved: {reason}"},
    "resume": {"fr": "Vous reprendrez à la leçon {number}.", "en": "You will resume at lesson {number}."},
}


def _say(key: str, lang: str, **values: object) -> str:
    words = MESSAGES[key]
    return words.get(lang, words["en"]).format(**values)


def learn(
    game_id: GameArgument,
    lang: LangOption = None,
    step: Annotated[int | None, typer.Option("--step", help="Start at lesson N (1 = the first).")] = None,
    reset: Annotated[
        bool, typer.Option("--reset", help="Forget this game's progress and start over.")
    ] = False,
) -> None:
    """Learn GAME step by step, from the setup to a first game won against the easy level."""
    words = language(lang)
    load_game(game_id, None, None, words)
    try:
        course = lessons.load_course(game_id)
    except lessons.LessonError as error:
        fail(str(error), words)
    if step is not None and not 1 <= step <= len(course.steps):
        fail(_say("bad_step", words, count=len(course.steps)), words)
    runner = Course(course, lessons.FileProgressStore(), words, console)
    if reset and runner.keep(runner.store.load(PERSON).reset(game_id)):
        runner.say("reset", game=game_id)
    runner.run(None if step is None else step - 1)


class Course:
    """The course loop: ``ask(prompt)`` reads a line (``EOFError`` quits), ``out`` shows the rest."""

    def __init__(
        self, course: lessons.Course, store: lessons.ProgressStore, lang: str, out: Console,
        ask: Callable[[str], str] | None = None, person: str = PERSON,
    ) -> None:
        self.course = course
        self.store = store
        self.lang = lang
        self.out = out
        self.ask = ask or (lambda prompt: out.input(escape(prompt)))
        self.person = person
        self.board = board_module(course.game)

    def say(self, key: str, **values: object) -> None:
        self.out.print(escape(_say(key, self.lang, **values)))

    def run(self, start: int | None = None) -> None:
        count = len(self.course.steps)
        if start is None:
            start = self.store.load(self.person).next_step(self.course)
            if start == count:
                self.say("already")
                return
        for index in range(start, count):
            outcome = self.lesson(index)
            if outcome in ("quit", "left"):
                number = self.store.load(self.person).next_step(self.course) % count + 1
                self.say("goodbye" if outcome == "quit" else "resume", number=number)
                return
            if outcome == "lost":
                return
        if self.store.load(self.person).finished(self.course):
            from ..core import info

            self.say("finished", title=info(self.course.game).title.get(self.lang, self.course.game))

    # -- one step --------------------------------------------------------------------------------
    def lesson(self, index: int) -> str:
        """Step ``index``: ``done``, ``skipped``, ``lost`` (a game step not won), ``quit``, or
        ``left`` (a game step left unfinished: the game loop has said goodbye)."""
        step = self.course.steps[index]
        self.out.rule(escape(_say("step", self.lang, number=index + 1, count=len(self.course.steps),
                                  title=step.words("title", self.lang))))
        self.out.print(escape(step.words("text", self.lang)))
        game, state = lessons.rebuild(step)
        if step.is_game:
            return self.game_step(step, game)
        self.show(step, game, state)
        self.say("task", task=step.words("task", self.lang))
        while True:
            try:
                line = self.ask(_say("prompt", self.lang)).strip()
            except (EOFError, KeyboardInterrupt):
                return "quit"
            command = self.command(line)
            if not line:
                continue
            if command == "quit":
                return "quit"
            if command == "skip":
                self.say("skipped")
                return "skipped"
            if command == "hint":
                self.say("hint", hint=lessons.hint(step, self.lang))
                continue
            if command == "moves":
                moves = [str(move) for move in state.legal_moves()]
                self.say("moves", count=len(moves))
                print_moves(self.out, moves)
                continue
            try:
                verdict = lessons.check(step, state, line, self.lang)
            except ValueError as error:
                self.say("refused", reason=i18n.move_error(error, self.lang))
                continue
            if verdict.right:
                self.say("right", move=verdict.move, why=verdict.explanation)
                self.done(step)
                return "done"
            self.say("wrong", move=verdict.move, why=verdict.explanation)

    def game_step(self, step: lessons.Step, game: Game) -> str:
        self.say("task", task=step.words("task", self.lang))
        if step.hint is not None:
            self.say("hint", hint=step.words("hint", self.lang))
        try:
            line = self.ask(_say("game_prompt", self.lang)).strip()
        except (EOFError, KeyboardInterrupt):
            return "quit"
        command = self.command(line)
        if command == "quit":
            return "quit"
        if command == "skip":
            self.say("skipped")
            return "skipped"
        seats = [step.opponent] * game.players
        seats[step.seat] = HUMAN
        session = Session(game, step.position.seed, seats)
        for text in step.position.moves:
            session.play(text)
        Terminal(session, self.lang, self.out, self.ask).run()
        if not session.is_over:
            return "left"
        verdict = lessons.judge_game(step, session.state, self.lang)
        if verdict.right:
            self.say("game_won", why=verdict.explanation)
            self.done(step)
            return "done"
        self.say("game_lost", why=verdict.explanation, game=self.course.game)
        return "lost"

    # -- helpers -----------------------------------------------------------------------------------
    def command(self, line: str) -> str | None:
        word = line.lower()
        return next((key for key, names in COMMANDS.items() if word in names), None)

    def done(self, step: lessons.Step) -> None:
        self.keep(self.store.load(self.person).with_done(self.course.game, step.id))

    def keep(self, progress: lessons.Progress) -> bool:
        """Save ``progress``; a store that cannot write is said in one line, and the lesson goes on."""
        try:
            self.store.save(self.person, progress)
        except OSError as error:
            self.say("not_kept", reason=error.strerror or str(error))
            return False
        return True

    def show(self, step: lessons.Step, game: Game, state: State) -> None:
        """The board as the learner sees it, the position's last move marked (unless it may hide
        a secret of another player)."""
        reader = lessons.learner(step, state)
        last = step.position.moves[-1] if step.position.moves else None
        if last is not None and game.has_hidden_information:
            last = None
        self.out.print(self.board.render(state.view(reader), lang=self.lang, last_move=last, turn=False))
