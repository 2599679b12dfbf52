"""``ludotheque puzzle GAME``: solve the game's puzzles in the terminal, with a puzzle rating.

Each puzzle is one the person has not tried, near their rating (:mod:`ludotheque.puzzles`): the
board as the solver sees it (the game's own terminal board), the task, then a move typed in
notation, judged by the engine; a right move that does not end the puzzle is answered by the
line's reply. The first try at each puzzle moves the person's rating and the puzzle's (Glicko-2),
kept in ``$XDG_DATA_HOME/ludotheque/puzzle-ratings.json``. ``moves`` (``coups``), ``skip``
(``passer``) and ``quit`` (``quitter``) work at every prompt.

``--generate N`` writes N new puzzles into the game's ``puzzles.json`` instead (seeded by
``--seed``, from self-play and the stored records given with ``--records``), with a progress bar;
with ``--from-tables``, N "win in N" puzzles drawn from the game's solved tables on this machine
(``ludotheque solve``) into its ``puzzles-solved.json``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from .. import i18n, puzzles
from .boards import board_module
from .common import GameArgument, LangOption, console, fail, language, load_game, print_moves

COMMANDS = {
    "moves": ("moves", "coups"),
    "skip": ("skip", "passer", "suivant", "next"),
    "quit": ("quit", "quitter", "exit"),
}

MESSAGES: dict[str, dict[str, str]] = {
    "title": {"fr": "Problème {id} — classement {rating}", "en": "Puzzle {id} — rated {rating}"},
    "win": {"fr": "Jouez le seul coup gagnant : victoire forcée en {steps} coup(s) de votre camp.",
            "en": "Play the only winning move: a forced win in {steps} move(s) of your side."},
    "save": {"fr": "Tous les coups perdent sauf un : trouvez-le.",
             "en": "Every move loses but one: find it."},
    "gap": {"fr": "Un coup est bien meilleur que tous les autres, quoi que cache l'adversaire : trouvez-le.",
            "en": "One move is far better than all others, whatever the opponent hides: find it."},
    "rating": {"fr": "Votre classement en problèmes : {rating}", "en": "Your puzzle rating: {rating}"},
    "prompt": {"fr": "Votre coup (coups, passer, quitter) > ", "en": "Your move (moves, skip, quit) > "},
    "right": {"fr": "✓ Juste ({move}). Réponse : {replies}.", "en": "✓ Right ({move}). Reply: {replies}."},
    "solved": {"fr": "✓ Résolu ({move}) !", "en": "✓ Solved ({move})!"},
    "wrong": {"fr": "✗ Ce n'est pas ça ({move}).", "en": "✗ That is not it ({move})."},
    "solution": {"fr": "Solution : {line}", "en": "Solution: {line}"},
    "change": {"fr": "Classement : {before} → {after} ({change:+d})",
               "en": "Rating: {before} → {after} ({change:+d})"},
    "refused": {"fr": "Coup refusé : {reason}", "en": "Move refused: {reason}"},
    "moves": {"fr": "Coups légaux ({count}) :", "en": "Legal moves ({count}):"},
    "all_tried": {"fr": "Vous avez essayé tous les problèmes de {game}.",
                  "en": "You have tried every puzzle of {game}."},
    "skipped": {"fr": "Problème passé (compté comme raté).", "en": "Puzzle skipped (counted as failed)."},
    "generated": {"fr": "{count} problèmes écrits dans {path}", "en": "{count} puzzles written to {path}"},
    "generated_one": {"fr": "1 problème écrit dans {path}", "en": "1 puzzle written to {path}"},
    "not_kept": {"fr": "Classement non enregistré : {reason}", "en": "Rating not saved: {reason}"},
}


def _say(key: str, lang: str, **values: object) -> str:
    words = MESSAGES[key]
    return words.get(lang, words["en"]).format(**values)


def _written(count: int, target: Path, words: str) -> None:
    key = "generated_one" if count == 1 else "generated"
    console.print(escape(_say(key, words, count=count, path=target)))


def _generate_from_tables(game_id: str, count: int, seed: int, plies: tuple[int, ...], out: Path | None,
                          words: str) -> None:
    """``--generate N --from-tables``: the drawn puzzles, each checked by a plain search, written."""
    target = out or puzzles.package_path(game_id).with_name(puzzles.SOLVED_FILE)
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(escape(game_id), total=count)
        try:
            found = puzzles.solved_puzzles(game_id, count, seed=seed, plies=plies,
                                           progress=lambda kept, _total: bar.update(task, completed=kept))
        except puzzles.PuzzleError as error:
            fail(str(error), words)
    puzzles.write_puzzles(found, target)
    _written(len(found.puzzles), target, words)


def puzzle(
    game_id: GameArgument,
    lang: LangOption = None,
    generate: Annotated[int | None, typer.Option(
        "--generate", min=1, help="Generate N puzzles into the game's puzzles.json instead.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="The generator's seed.")] = 0,
    records: Annotated[list[Path] | None, typer.Option(
        "--records", help="Stored game records (files or folders) to take puzzles from first.")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where --generate writes (default: the game's "
                                                           "package).")] = None,
    puzzle_id: Annotated[str | None, typer.Option("--id", help="Solve this puzzle.")] = None,
    from_tables: Annotated[bool, typer.Option(
        "--from-tables", help="With --generate: 'win in N' puzzles drawn from the game's solved tables "
                              "(ludotheque solve) into its puzzles-solved.json.")] = False,
    plies: Annotated[list[int] | None, typer.Option(
        "--plies", min=1, help="With --from-tables: the N of 'win in N', in plies (repeat it; default "
                               "3, 5 and 7).")] = None,
) -> None:
    """Solve GAME's puzzles in the terminal: positions where one move wins, with a puzzle rating."""
    words = language(lang)
    game = load_game(game_id, None, None, words)
    if generate is not None and from_tables:
        _generate_from_tables(game.id, generate, seed, tuple(plies or puzzles.SOLVED_PLIES), out, words)
        return
    if generate is not None:
        target = out or puzzles.package_path(game.id)
        found = puzzles.run_generator(game, generate, seed=seed,
                                      records=puzzles.read_records(records or [], game),
                                      kept_so_far=lambda so_far: puzzles.write_puzzles(so_far, target))
        puzzles.write_puzzles(found, target)
        _written(len(found.puzzles), target, words)
        return
    try:
        found = puzzles.load_puzzles(game.id)
    except puzzles.PuzzleError as error:
        fail(str(error), words)
    session = Solver(found, puzzles.FileRatingStore(), words, console)
    if puzzle_id is not None:
        try:
            chosen = found.by_id(puzzle_id)
        except KeyError:
            fail(f"{game.id}: no puzzle {puzzle_id!r}", words)
        session.solve(chosen)
        return
    session.run()


class Solver:
    """The puzzle loop: ``ask(prompt)`` reads a line (``EOFError`` quits), ``out`` shows the rest."""

    def __init__(self, found: puzzles.PuzzleSet, store: puzzles.FileRatingStore, lang: str, out: Console,
                 ask: Callable[[str], str] | None = None, rng: random.Random | None = None) -> None:
        self.found = found
        self.store = store
        self.lang = lang
        self.out = out
        self.ask = ask or (lambda prompt: out.input(escape(prompt)))
        self.rng = rng or random.Random()
        self.board = board_module(found.game)

    def say(self, key: str, **values: object) -> None:
        self.out.print(escape(_say(key, self.lang, **values)))

    def run(self) -> None:
        """Puzzle after puzzle near the person's rating, until ``quit`` or none is left."""
        while True:
            person, tried, own = self.store.load(self.found.game)
            ratings = {pid: rating.rating for pid, rating in own.items()}
            chosen = puzzles.nearest(self.found.puzzles, ratings, person.rating, tried, self.rng)
            if chosen is None:
                self.say("all_tried", game=self.found.game)
                return
            if self.solve(chosen) == "quit":
                return

    def solve(self, puzzle: puzzles.Puzzle) -> str:
        """One puzzle: ``solved``, ``failed`` or ``quit``."""
        person, _, own = self.store.load(puzzle.game)
        rating = own.get(puzzle.id, puzzles.puzzle_rating(puzzle))
        self.out.rule(escape(_say("title", self.lang, id=puzzle.id, rating=round(rating.rating))))
        self.say("rating", rating=round(person.rating))
        self.say(puzzle.theme, steps=puzzles.steps(puzzle))
        step, shown = 0, -1
        while True:
            if shown != step:  # the board once per step, not again after a command
                state = puzzles.state_at(puzzle, step)
                self.out.print(self.board.render(state.view(puzzle.solver), lang=self.lang, turn=False))
                shown = step
            outcome = self.answer(puzzle, step)
            if outcome is None:
                return "quit"
            if isinstance(outcome, str):
                if outcome == "skip":
                    self.say("skipped")
                    self.finish(puzzle, solved=False)
                    return "failed"
                continue
            if not outcome.right:
                self.say("wrong", move=outcome.move)
            elif outcome.done:
                self.say("solved", move=outcome.move)
            else:
                self.say("right", move=outcome.move, replies=", ".join(outcome.replies))
            if outcome.done:
                self.say("solution", line=" ".join(puzzle.line))
                self.finish(puzzle, solved=outcome.right)
                return "solved" if outcome.right else "failed"
            step = outcome.step

    def answer(self, puzzle: puzzles.Puzzle, step: int) -> puzzles.Verdict | str | None:
        """The verdict on the next line typed, ``"again"`` (a command or a refused move),
        ``"skip"``, or ``None`` to quit."""
        try:
            line = self.ask(_say("prompt", self.lang)).strip()
        except (EOFError, KeyboardInterrupt):
            return None
        word = line.lower()
        command = next((key for key, names in COMMANDS.items() if word in names), None)
        if command == "quit":
            return None
        if command == "skip":
            return "skip"
        if command == "moves":
            moves = [str(move) for move in puzzles.state_at(puzzle, step).legal_moves()]
            self.say("moves", count=len(moves))
            print_moves(self.out, moves)
            return "again"
        if not line:
            return "again"
        try:
            return puzzles.judge(puzzle, step, line)
        except ValueError as error:
            self.say("refused", reason=i18n.move_error(error, self.lang))
            return "again"

    def finish(self, puzzle: puzzles.Puzzle, *, solved: bool) -> None:
        """The first try at ``puzzle`` moves both ratings; later tries change nothing."""
        person, tried, own = self.store.load(puzzle.game)
        if puzzle.id in tried:
            return
        before = person
        after, puzzle_after = puzzles.rate(person, own.get(puzzle.id, puzzles.puzzle_rating(puzzle)), solved)
        own[puzzle.id] = puzzle_after
        try:
            self.store.save(puzzle.game, after, tried | {puzzle.id}, own)
        except OSError as error:
            self.say("not_kept", reason=error.strerror or str(error))
            return
        self.say("change", before=round(before.rating), after=round(after.rating),
                 change=round(after.rating) - round(before.rating))
