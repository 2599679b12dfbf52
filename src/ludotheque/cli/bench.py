"""``ludotheque bench GAME``: random playouts/s, moves/s and mean game length; with ``--engine
fast``, the compiled kernel's beside the plain engine's (its compilation timed apart); with
``--bots``, each level's time per move (95th percentile) in games against itself."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.progress import Progress, TaskID
from rich.table import Table

from .. import i18n
from ..ai.levels import canonical_level, level_label
from ..bench import BenchFigures, BotTimes, bot_move_times, kernel_playouts, random_playouts
from .common import (
    GameArgument,
    LangOption,
    PlayersOption,
    SeedOption,
    VariantOption,
    console,
    fail,
    language,
    load_game,
    print_table,
)

WORDS = {
    "fr": {
        "playouts_title": "{game} : parties aléatoires, un fil d'exécution",
        "bots_title": "{game} : secondes par coup de chaque niveau contre lui-même, un fil d'exécution",
        "variant": "variante", "players": "joueurs", "playouts": "parties", "playouts/s": "parties/s",
        "moves/s": "coups/s", "mean length": "longueur moyenne", "level": "niveau",
        "algorithm": "algorithme", "moves": "coups", "p95 s": "p95 s", "mean s": "moyenne s",
        "max s": "max s", "cpu p95 s": "p95 s processeur",
        "seconds": "--seconds doit être positif",
        "bad_levels": "--bots prend des niveaux parmi {levels} ; pas {wrong}",
        "counts": "--games et --max-moves valent au moins 1",
        "fast_title": "{game} : parties aléatoires du noyau compilé et du moteur simple, un fil d'exécution",
        "engine": "moteur", "ratio": "× simple", "compile s": "compilation s",
        "no_kernel": "{game} n'a pas de noyau compilé utilisable ici (le jeu n'en a pas, ou Numba "
                     "manque) : ludotheque bench {game} mesure le moteur simple",
        "bad_engine": "--engine vaut plain ou fast, pas {engine}",
        "cached": "depuis le cache",
    },
    "en": {
        "playouts_title": "{game}: random playouts, one thread",
        "bots_title": "{game}: seconds per move of each level against itself, one thread",
        "variant": "variant", "players": "players", "playouts": "playouts", "playouts/s": "playouts/s",
        "moves/s": "moves/s", "mean length": "mean length", "level": "level", "algorithm": "algorithm",
        "moves": "moves", "p95 s": "p95 s", "mean s": "mean s", "max s": "max s", "cpu p95 s": "cpu p95 s",
        "seconds": "--seconds must be positive",
        "bad_levels": "--bots takes levels among {levels}; not {wrong}",
        "counts": "--games and --max-moves must be at least 1",
        "fast_title": "{game}: random playouts of the compiled kernel and the plain engine, one thread",
        "engine": "engine", "ratio": "× plain", "compile s": "compile s",
        "no_kernel": "{game} has no compiled kernel that runs here (the game has none, or Numba is "
                     "missing): ludotheque bench {game} measures the plain engine",
        "bad_engine": "--engine is plain or fast, not {engine}",
        "cached": "from the cache",
    },
}


def bench(
    game_id: GameArgument,
    variant: VariantOption = None,
    players: PlayersOption = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Seconds per configuration.")] = 10.0,
    seed: SeedOption = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    bots: Annotated[str | None, typer.Option(
        "--bots", help="Time these levels instead (e.g. easy,medium,hard; also uct10k, uct100k, "
                       "hard-plain): each plays itself.")] = None,
    games: Annotated[int, typer.Option("--games", help="With --bots: games per level.")] = 2,
    max_moves: Annotated[int | None, typer.Option(
        "--max-moves", help="With --bots: stop each game after this many moves.")] = None,
    engine: Annotated[str, typer.Option(
        "--engine", help="plain: through the contract; fast: the compiled kernel, beside the plain "
                         "figure.")] = "plain",
    lang: LangOption = None,
) -> None:
    """Uniformly random playouts through the public contract, one thread, for every variant and
    player count of GAME (or only those given); with --engine fast, the compiled kernel's beside
    them; with --bots, each level's time per move."""
    chosen = language(lang)
    words = WORDS[chosen]
    facts = load_game(game_id, variant, players, chosen).info
    if seconds <= 0:
        fail(words["seconds"], chosen)
    if engine not in ("plain", "fast"):
        fail(words["bad_engine"].format(engine=i18n.quote(engine, chosen)), chosen)
    variants = [variant] if variant else list(facts.variants)
    counts = [players] if players else list(facts.player_counts)
    if bots is not None:
        _bench_bots(game_id, variants, counts, bots, games, max_moves, seed, as_json, chosen)
        return
    if engine == "fast":
        if facts.load_kernel() is None:
            fail(words["no_kernel"].format(game=game_id), chosen)
        _bench_fast(game_id, variants, counts, seconds, seed, as_json, chosen)
        return
    figures: list[BenchFigures] = []
    with Progress(console=console, transient=True, disable=as_json) as progress:
        for chosen_variant in variants:
            for count in counts:
                game = load_game(game_id, chosen_variant, count, chosen)
                task = progress.add_task(f"{game_id} {chosen_variant} {count}p", total=1.0)

                def advance(done: float, task: TaskID = task) -> None:
                    progress.update(task, completed=done)

                figures.append(random_playouts(game, seconds=seconds, seed=seed, progress=advance))
    if as_json:
        console.print_json(json.dumps([f.to_json() for f in figures]))
        return
    table = Table(title=words["playouts_title"].format(game=game_id))
    for column in ("variant", "players", "playouts", "playouts/s", "moves/s", "mean length"):
        table.add_column(words[column], justify="right")
    for f in figures:
        rates = (f.playouts_per_second, f.moves_per_second)
        table.add_row(f.variant, str(f.players), str(f.playouts), *(i18n.number(r, 0, chosen) for r in rates),
                      i18n.number(f.mean_length, 1, chosen))
    print_table(console, table)


def _bench_fast(game_id: str, variants: list[str], counts: list[int], seconds: float, seed: int,
                as_json: bool, lang: str) -> None:
    """The kernel's random playouts beside the plain engine's, ``seconds`` each, per configuration."""
    words = WORDS[lang]
    pairs: list[tuple[BenchFigures, BenchFigures]] = []
    with Progress(console=console, transient=True, disable=as_json) as progress:
        for chosen_variant in variants:
            for count in counts:
                game = load_game(game_id, chosen_variant, count, lang)
                task = progress.add_task(f"{game_id} {chosen_variant} {count}p", total=2.0)

                def fast_done(done: float, task: TaskID = task) -> None:
                    progress.update(task, completed=done)

                def plain_done(done: float, task: TaskID = task) -> None:
                    progress.update(task, completed=1.0 + done)

                fast = kernel_playouts(game, seconds=seconds, seed=seed, progress=fast_done)
                plain = random_playouts(game, seconds=seconds, seed=seed, progress=plain_done)
                pairs.append((fast, plain))
    if as_json:
        console.print_json(json.dumps([
            fast.to_json() | {"plain": plain.to_json(), "ratio": round(_ratio(fast, plain), 1)}
            for fast, plain in pairs
        ]))
        return
    table = Table(title=words["fast_title"].format(game=game_id))
    for column in ("variant", "players", "engine", "playouts", "playouts/s", "moves/s", "mean length",
                   "ratio", "compile s"):
        table.add_column(words[column], justify="right")
    for fast, plain in pairs:
        cached = "" if fast.compiled else f" ({words['cached']})"
        compile_text = f"{i18n.number(fast.compile_seconds or 0.0, 2, lang)}{cached}"
        ratio_text = i18n.number(_ratio(fast, plain), 1, lang)
        for f, ratio, compile_cell in ((fast, ratio_text, compile_text), (plain, "1", "")):
            table.add_row(f.variant, str(f.players), f.engine, str(f.playouts),
                          *(i18n.number(r, 0, lang) for r in (f.playouts_per_second, f.moves_per_second)),
                          i18n.number(f.mean_length, 1, lang), ratio, compile_cell)
    print_table(console, table)


def _ratio(fast: BenchFigures, plain: BenchFigures) -> float:
    return fast.playouts_per_second / plain.playouts_per_second if plain.playouts_per_second else 0.0


def _canonical(name: str) -> str | None:
    try:
        return canonical_level(name)
    except ValueError:
        return None


def _bench_bots(game_id: str, variants: list[str], counts: list[int], bots: str, games: int,
                max_moves: int | None, seed: int, as_json: bool, lang: str) -> None:
    from ..ai.levels import BASELINES, LEVEL_NAMES, PLAIN_NAMES

    words = WORDS[lang]
    names = [name.strip() for name in bots.split(",") if name.strip()]
    unknown = [name for name in names if _canonical(name) is None]
    if not names or unknown:
        wrong = ", ".join(i18n.quote(name, lang) for name in unknown) or i18n.quote(bots, lang)
        choices = ", ".join(level_label(name, lang) for name in ("random", *LEVEL_NAMES, *BASELINES,
                                                                 *PLAIN_NAMES))
        fail(words["bad_levels"].format(levels=choices, wrong=wrong), lang)
    levels = [canonical_level(name) for name in names]
    if games < 1 or (max_moves is not None and max_moves < 1):
        fail(words["counts"], lang)
    figures: list[BotTimes] = []
    with Progress(console=console, transient=True, disable=as_json) as progress:
        for chosen_variant in variants:
            for count in counts:
                game = load_game(game_id, chosen_variant, count, lang)
                for level in levels:
                    total = games * max_moves if max_moves else None
                    task = progress.add_task(f"{game_id} {chosen_variant} {count}p {level}", total=total)

                    def advance(moves: int, task: TaskID = task) -> None:
                        progress.update(task, completed=moves)

                    figures.append(bot_move_times(game, level, games=games, seed=seed,
                                                  max_moves=max_moves, progress=advance))
    if as_json:
        console.print_json(json.dumps([f.to_json() for f in figures]))
        return
    table = Table(title=words["bots_title"].format(game=game_id))
    for column in ("variant", "players", "level", "algorithm", "engine", "moves", "p95 s", "cpu p95 s",
                   "mean s", "max s"):
        table.add_column(words[column], justify="right")
    for f in figures:
        seconds = (f.p95, f.cpu_p95, f.mean, max(f.times, default=0.0))
        table.add_row(f.variant, str(f.players), level_label(f.level, lang), f.algorithm, f.engine,
                      str(len(f.times)), *(i18n.number(value, 3, lang) for value in seconds))
    print_table(console, table)
