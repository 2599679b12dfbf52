"""OpenSpiel: importing this module registers ``python_ludotheque_<id>`` for every game that
declares an action encoding, with parameters ``variant`` and ``players`` (defaults: the game's).

>>> import pyspiel
>>> import ludotheque.research.openspiel
>>> game = pyspiel.load_game("python_ludotheque_pylos(variant=kids)")
>>> game.num_distinct_actions(), game.num_players(), game.get_type().information.name
(186, 2, 'PERFECT_INFORMATION')
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[5])
>>> state.history_str(), state.action_to_string(0, 6)
('5', '1c2')

The game's type follows its declared facts: chance nodes (``EXPLICIT_STOCHASTIC``) where the game
declares its draws (Imbrication's two shuffles, the draws of ``random.shuffle`` with their
probabilities), imperfect information where some variant hides something or chance is hidden
until revealed, zero-sum where every player count gives two sides of equal size (not Ex*Pion for 3
players: North and South against East and West, held by two players). Returns are +1 for the
winners, -1 for the others, 0 in a draw. Observation strings and tensors are built from
``view(player)`` only (a spectator's view for an observation type without private information);
information-state strings add the moves as that player may know them (perfect recall), and
information-state tensors are the observation planes (views keep every hidden fact a player has
seen; the order of moves is in the strings). ``resample_from_infostate`` is ``determinize``
(Plimil's setup moves rewritten, Imbrication's chance draws redrawn), for IS-MCTS.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.registry import games, info, load
from .encoding import Action, Encoding, Node

PREFIX = "python_ludotheque_"


def short_name(game_id: str) -> str:
    """The name OpenSpiel knows ``game_id`` by."""
    return PREFIX + game_id


def _is_zero_sum(game_id: str, players: int) -> bool:
    """Whether +1 for the winning side and -1 for the other sums to 0: two sides, equal sizes."""
    teams = load(game_id, players=players).teams
    return len(teams) == 2 and len(teams[0]) == len(teams[1])


def _game_type(game_id: str) -> pyspiel.GameType:
    facts = info(game_id)
    configurations = [(v, p) for v in facts.variants for p in facts.player_counts]
    encodings = [Encoding.of(game_id, v, p) for v, p in configurations]
    has_chance = any(e.chance_draws for e in encodings)
    hides = any(e.game.has_hidden_information for e in encodings)
    zero_sum = all(_is_zero_sum(game_id, p) for p in facts.player_counts)
    kind = pyspiel.GameType
    return kind(
        short_name=short_name(game_id),
        long_name=f"Ludothèque {facts.title.get('en', game_id)}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if has_chance else kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.IMPERFECT_INFORMATION if hides or has_chance
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=kind.Utility.ZERO_SUM if zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=max(facts.player_counts),
        min_num_players=min(facts.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": facts.default_variant, "players": facts.default_players},
    )


class LudothequeGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games with fixed parameters, as an OpenSpiel game."""

    game_id = ""
    game_type: pyspiel.GameType = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant, players = params.get("variant"), params.get("players")
        self.encoding = Encoding.of(self.game_id, variant, None if players is None else int(players))
        game = self.encoding.game
        super().__init__(
            self.game_type,
            pyspiel.GameInfo(
                num_distinct_actions=self.encoding.num_actions,
                max_chance_outcomes=max(self.encoding.chance_draws, default=0),
                num_players=game.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
                max_game_length=self.encoding.max_game_length,
            ),
            {"variant": game.variant, "players": game.players},
        )

    def new_initial_state(self) -> LudothequeState:
        return LudothequeState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> Observer:
        return Observer(self.encoding, iig_obs_type, params)


class LudothequeState(pyspiel.State):  # type: ignore[misc]
    """A position, as an OpenSpiel state: a :class:`Node` (immutable), replaced on each action."""

    def __init__(self, game: LudothequeGame, node: Node | None = None) -> None:
        super().__init__(game)
        self._node = node if node is not None else Node.start(game.encoding)
        # While a resampled history is replayed: the player of each action still to come.
        self._replaying: list[int] | None = None

    @property
    def node(self) -> Node:
        """The position under this state."""
        return self._node

    def current_player(self) -> int:
        if self._replaying:
            return self._replaying[0]
        node = self._node
        if node.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        if node.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        to_move = node.to_move
        assert to_move is not None
        return to_move

    def _legal_actions(self, player: int) -> list[Action]:
        if player != self.current_player() or self._node.is_over:
            return []
        return self._node.legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return self._node.chance_outcomes()

    def _apply_action(self, action: Action) -> None:
        if self._replaying:
            self._replaying.pop(0)
            return
        self._node = self._node.apply(int(action))

    def _action_to_string(self, player: int, action: Action) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return self._node.encoding.action_text(int(action))

    def is_terminal(self) -> bool:
        return self._node.is_over

    def returns(self) -> list[float]:
        return list(self._node.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudothequeState:
        """A state that ``player_id`` cannot tell from this one, its history included
        (``determinize`` seeded from ``probability_sampler``)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        node = self._node.resample(player_id, rng)
        state = LudothequeState(self.get_game(), node)
        state._replaying = _players(node)
        for action in node.action_history():
            state.apply_action(action)
        return state

    def __str__(self) -> str:
        node = self._node
        if node.is_chance:
            return f"chance draws {list(node.draws)}"
        text = node.board_text()
        if node.pending:
            text += "\npending " + " ".join(node.encoding.action_text(a) for a in node.pending)
        return text


def _players(node: Node) -> list[int]:
    """The player of each action of ``node``'s history: chance, then each move's mover."""
    chance = int(pyspiel.PlayerId.CHANCE)
    players = [chance] * len(node.draws)
    for mover, move in node.moves:
        players.extend([mover] * len(node.encoding.encode(move)))
    players.extend([node.to_move if node.to_move is not None else chance] * len(node.pending))
    return players


class Observer:
    """Observation and information-state strings and tensors, from ``view(player)`` only (a
    spectator's view when the observation type asks for public information alone)."""

    def __init__(
        self,
        encoding: Encoding,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: dict[str, Any] | None,
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params!r}")
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = (
            pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        )
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations reveal one player's view at most (view(player))")
        self._public_only = private == pyspiel.PrivateInfoType.NONE
        shape = encoding.observation_shape
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def _viewer(self, player: int) -> int | None:
        return None if self._public_only else player

    def set_from(self, state: LudothequeState, player: int) -> None:
        self.tensor[:] = state.node.observation(self._viewer(player)).ravel()

    def string_from(self, state: LudothequeState, player: int) -> str:
        node, viewer = state.node, self._viewer(player)
        if self._perfect_recall:
            return node.information_state_string(viewer)
        return node.observation_string(viewer)


def register() -> list[str]:
    """Register every game that declares an action encoding (again after new games appear);
    returns their OpenSpiel names."""
    names = []
    registered = {t.short_name for t in pyspiel.registered_games()}
    for game_id in games():
        if info(game_id).actions is None:
            continue
        name = short_name(game_id)
        names.append(name)
        if name in registered:
            continue
        game_class: type[LudothequeGame] = type(
            f"{game_id.capitalize()}Game",
            (LudothequeGame,),
            {"game_id": game_id, "game_type": _game_type(game_id), "__module__": __name__},
        )
        pyspiel.register_game(game_class.game_type, game_class)
    return names


GAMES = register()
