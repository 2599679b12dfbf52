"""Bots through the contract: names, determinism, purity, progress, analysis, blindness."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai import AlphaBetaBot, DeterminizedAlphaBetaBot, MCTSBot, RandomBot
from ludotheque.ai.levels import LEVEL_NAMES, level_for
from ludotheque.core import State

from .conftest import played_states
from .toy import ToyGame, ToyState

PYLOS = ludotheque.load("pylos")
FAST_NAMES = ["random", "easy", "medium", "alphabeta"]


def test_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown bot 'wizard'"):
        ai.bot("wizard", PYLOS)


@pytest.mark.parametrize("name", FAST_NAMES)
def test_every_name_plays_legal_moves_for_the_player_to_move(name: str) -> None:
    for state in played_states(PYLOS, seed=1, every=7):
        assert ai.bot(name, PYLOS, seed=2).choose(state) in state.legal_moves()


@pytest.mark.parametrize("name", FAST_NAMES)
def test_same_seed_and_state_give_the_same_move_even_after_reuse(name: str) -> None:
    states = played_states(PYLOS, seed=4, every=5)
    reused = ai.bot(name, PYLOS, seed=9)
    for state in reversed(states):  # a different order than a game: choose must not remember
        assert reused.choose(state) == ai.bot(name, PYLOS, seed=9).choose(state)


def test_seeds_vary_the_random_and_easy_bots() -> None:
    start = PYLOS.new_state()
    for name in ("random", "easy"):
        assert len({str(ai.bot(name, PYLOS, seed=s).choose(start)) for s in range(12)}) > 1


def test_choose_after_the_end_is_a_value_error() -> None:
    final = played_states(PYLOS, seed=0, every=1, final=True)[-1]
    assert final.is_over
    with pytest.raises(ValueError, match="over"):
        ai.bot("easy", PYLOS).choose(final)


@pytest.mark.parametrize("name", ["easy", "medium", "mcts"])
def test_progress_rises_to_one_and_analysis_is_consistent(name: str) -> None:
    state = played_states(PYLOS, seed=3, every=1)[6]
    seen: list[float] = []
    bot = ai.bot(name, PYLOS, seed=1) if name != "mcts" else MCTSBot(
        PYLOS, rng=random.Random(1), iterations=80)
    analysis = bot.analyse(state, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    assert all(0.0 <= f <= 1.0 for f in seen)
    assert -1.0 <= analysis.value <= 1.0
    assert analysis.best_move in state.legal_moves()
    assert analysis.principal_variation[0] == str(analysis.best_move)
    assert analysis.iterations > 0
    assert bot.choose(state) == analysis.best_move
    assert analysis.to_json()["best_move"] == str(analysis.best_move)


def test_mcts_reports_visit_counts_that_sum_to_its_iterations() -> None:
    bot = MCTSBot(PYLOS, rng=random.Random(0), iterations=120)
    analysis = bot.analyse(PYLOS.new_state())
    assert sum(analysis.visits.values()) == 120 == analysis.iterations
    assert list(analysis.visits.values()) == sorted(analysis.visits.values(), reverse=True)


def test_alphabeta_refuses_games_it_cannot_search() -> None:
    evaluate = lambda state, player: 0.0  # noqa: E731
    with pytest.raises(ValueError, match="perfect information"):
        AlphaBetaBot(ToyGame("hidden", 2), evaluate=evaluate)
    with pytest.raises(ValueError, match="two players"):
        AlphaBetaBot(ToyGame("open", 3), evaluate=evaluate)


def test_plain_mcts_refuses_hidden_information_but_a_level_falls_back_to_ismcts() -> None:
    hidden = ToyGame("hidden", 2)
    with pytest.raises(ValueError, match="information-set"):
        MCTSBot(hidden)
    assert ai.bot("medium", hidden).algorithm == "ismcts"
    assert ai.bot("hard", ToyGame("open", 3)).algorithm == "mcts"


def test_a_game_without_an_evaluator_gets_mcts_with_playouts_instead_of_alphabeta() -> None:
    # The toy game has no games/toy/evaluate.py.
    bot = ai.bot("medium", ToyGame("open", 2))
    assert bot.algorithm == "mcts"
    assert bot.choose(ToyGame("open", 2).deal((3, 1))) == "duel"


def test_ismcts_choice_depends_only_on_the_view_of_its_player() -> None:
    hidden = ToyGame("hidden", 2)
    # Player 0 holds a 2; the opponent's card differs between the two full states.
    for history in [(), ("safe", "duel")]:
        low, high = hidden.deal((2, 0), history), hidden.deal((2, 3), history)
        assert low.view(0) == high.view(0) and low.to_json() != high.to_json()
        for seed in range(5):
            bot = MCTSBot(hidden, rng=random.Random(seed), iterations=150, determinize=True)
            assert bot.analyse(low) == bot.analyse(high)


def test_determinized_alphabeta_is_blind_to_secrets_and_plays_the_sure_duel() -> None:
    hidden = ToyGame("hidden", 2)

    def points(state: State, player: int) -> float:
        assert isinstance(state, ToyState)
        return (state.scores()[player] - state.scores()[1 - player]) / 8

    low, high = hidden.deal((2, 0)), hidden.deal((2, 3))
    for seed in range(4):
        bot = DeterminizedAlphaBetaBot(hidden, rng=random.Random(seed), evaluate=points, samples=5,
                                       depth=4)
        assert bot.analyse(low) == bot.analyse(high)
        assert sum(bot.analyse(low).visits.values()) == 5
    # Holding a 3, the duel wins unless the opponent also holds a 3 (a quarter of the draws).
    sure = DeterminizedAlphaBetaBot(hidden, rng=random.Random(0), evaluate=points, samples=3, depth=4)
    assert sure.choose(hidden.deal((3, 0))) == "duel"
    with pytest.raises(ValueError, match="two players"):
        DeterminizedAlphaBetaBot(ToyGame("hidden", 3), evaluate=points)


def test_the_blindness_test_can_fail_a_bot_that_reads_the_full_state() -> None:
    # Shown the cards, a search plays differently: the test above checks something real.
    open_game = ToyGame("open", 2)
    choices = {
        str(MCTSBot(open_game, rng=random.Random(0), iterations=300).choose(open_game.deal(cards)))
        for cards in [(2, 0), (2, 3)]
    }
    assert choices == {"duel", "safe"}


def test_mcts_with_three_players_takes_a_sure_duel() -> None:
    game = ToyGame("open", 3)
    state = game.deal((3, 0, 1))  # player 0's card beats both: a duel scores 3
    assert MCTSBot(game, rng=random.Random(0), iterations=400).choose(state) == "duel"


def test_random_bot_covers_every_legal_move() -> None:
    start = PYLOS.new_state()
    chosen = {str(RandomBot(PYLOS, rng=random.Random(s)).choose(start)) for s in range(200)}
    assert chosen == {str(m) for m in start.legal_moves()}


@pytest.mark.parametrize("game_id", ludotheque.games())
def test_every_registered_game_has_the_three_levels(game_id: str) -> None:
    game = ludotheque.load(game_id)
    for level in LEVEL_NAMES:
        spec = level_for(game, level)
        assert spec.algorithm in ai.ALGORITHMS and spec.description
    with pytest.raises(ValueError, match="unknown level"):
        level_for(game, "expert")


def test_a_depth_step_makes_every_completed_search_end_on_a_whole_turn() -> None:
    evaluate = ai.evaluator_for(PYLOS)
    state = played_states(PYLOS, seed=2, every=1)[8]
    for nodes in (300, 3000, None):
        bot = AlphaBetaBot(PYLOS, rng=random.Random(0), evaluate=evaluate, depth=4, depth_step=2,
                           nodes=nodes)
        assert bot.analyse(state).depth in (2, 4)
    # Ten positions hold no whole turn: the answer is the one-ply look, over every root move.
    starved = AlphaBetaBot(PYLOS, rng=random.Random(0), evaluate=evaluate, depth=4, depth_step=2, nodes=10)
    analysis = starved.analyse(state)
    assert analysis.depth == 1 and analysis.iterations == 11 + len(state.legal_moves())
    unbounded = AlphaBetaBot(PYLOS, rng=random.Random(0), evaluate=evaluate, depth=4, depth_step=2)
    assert unbounded.analyse(state).depth == 4


def test_a_node_budget_counts_the_positions_that_end_the_game() -> None:
    # Toy's last move: a duel wins for player 1 (3 beats 0), safe draws; both end the game.
    game = ToyGame("open", 2)
    last = game.deal((0, 3), ("safe", "safe", "safe"))

    def indifferent(state: State, player: int) -> float:
        return 0.0

    full = AlphaBetaBot(game, rng=random.Random(0), evaluate=indifferent, depth=1).analyse(last)
    assert (str(full.best_move), full.iterations) == ("duel", 2)
    # One position cannot hold both: the search stops at the second, then looks one ply deep.
    starved = AlphaBetaBot(game, rng=random.Random(0), evaluate=indifferent, depth=1, nodes=1)
    analysis = starved.analyse(last)
    assert (str(analysis.best_move), analysis.depth, analysis.iterations) == ("duel", 1, 2 + 2)


def test_determinized_alphabeta_plays_the_best_move_on_average_not_the_one_most_often_best() -> None:
    # Player 0 holds a 2; the opponent's card (0-3) is hidden. A made-up evaluator rates a duel
    # +0.2 unless the opponent holds a 3 (then -1), a safe move 0: the duel is best for three
    # cards in four, and worth -0.1 on average.
    game = ToyGame("hidden", 2)

    def duel_risk(state: State, player: int) -> float:
        cards, history = state.to_json()["cards"], state.to_json()["history"]
        value = 0.0 if history[-1] == "safe" else -1.0 if cards[1] == 3 else 0.2
        return value if player == 0 else -value

    bot = DeterminizedAlphaBetaBot(game, rng=random.Random(0), evaluate=duel_risk, samples=40, depth=1)
    analysis = bot.analyse(game.deal((2, 0)))
    assert str(analysis.best_move) == "safe" and analysis.value == 0.0
    assert analysis.visits["duel"] > analysis.visits["safe"]  # what a vote among samples plays


def test_determinized_alphabeta_searches_a_state_once_when_nothing_is_hidden() -> None:
    # From round 4 of Imbrication every tile order is known: the samples coincide.
    game = ludotheque.load("imbrication")
    rows = ["........"] * 3 + ["...D....", "..DLD...", "........", "...L....", "........"]
    state = game.position(rows, round=4, drawn=1)
    assert state.determinize(0, random.Random(1)).to_json() == state.to_json()
    evaluate = ai.evaluator_for(game)
    one = DeterminizedAlphaBetaBot(game, rng=random.Random(0), evaluate=evaluate, samples=1, depth=2)
    three = DeterminizedAlphaBetaBot(game, rng=random.Random(0), evaluate=evaluate, samples=3, depth=2)
    single, voted = one.analyse(state), three.analyse(state)
    assert voted.iterations == single.iterations  # one search, not three
    assert voted.visits == {str(voted.best_move): 3}


def test_determinized_alphabeta_shares_its_node_budget_among_distinct_samples() -> None:
    # Round 2 hides round 4's tile order: three samples are three searches of a third each.
    # Round 4 hides nothing: one search spends the whole budget.
    game = ludotheque.load("imbrication")
    rows = ["........"] * 3 + ["...D....", "..DLD...", "........", "...L....", "........"]
    evaluate = ai.evaluator_for(game)
    budget = 3_000
    for round_, searches in ((2, 3), (4, 1)):
        state = game.position(rows, round=round_, drawn=1)
        bot = DeterminizedAlphaBetaBot(game, rng=random.Random(0), evaluate=evaluate, samples=3,
                                       depth=6, depth_step=2, nodes=budget)
        analysis = bot.analyse(state)
        # Six plies overrun the budget: each search stops on the first position over its share.
        assert analysis.iterations == searches * (budget // searches + 1)
        assert sum(analysis.visits.values()) == 3


def test_imbrication_levels_search_one_and_two_whole_turns() -> None:
    # A quiet position early in round 2: each level completes its deepest search.
    game = ludotheque.load("imbrication")
    rows = ["........"] * 3 + ["...D....", "..DLD...", "........", "...L....", "........"]
    state = game.position(rows, round=2, drawn=1)
    names = ["easy", "medium", "hard-plain"]
    depths = {name: ai.bot(name, game, seed=0).analyse(state).depth for name in names}
    assert depths == {"easy": 1, "medium": 4, "hard-plain": 4}
    # Hard is information-set MCTS in the compiled kernel (else it is hard-plain): every one of
    # its 30,000 iterations is counted in the root moves' visits.
    hard = ai.bot("hard", game, seed=0).analyse(state)
    assert hard.algorithm == "ismcts" and hard.iterations == 30_000
    assert sum(hard.visits.values()) == 30_000
