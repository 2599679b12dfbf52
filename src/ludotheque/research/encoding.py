"""What the three research interfaces share: a game as fixed integer actions and observation
planes (:class:`Encoding`), and a position of it as those interfaces see one (:class:`Node`).

Everything here goes through the public contract and the game's declared action module
(``GameInfo.actions``): ``encode`` / ``decode`` between moves and actions, ``observation`` from a
view. A move is one action, except Imbrication's capture chains, one action per hop: a
:class:`Node` holds the hops chosen so far (``pending``) until they spell a whole move. Chance is
the contract's (``new_state(seed)``) or, where a game declares its draws (``CHANCE_DRAWS``:
Imbrication's two shuffles), explicit chance nodes before the first move.

>>> node = Node.start(Encoding.of("pylos", "kids"))
>>> node.to_move, node.legal_actions()[:4], node.encoding.num_actions
(0, [0, 1, 2, 3], 186)
>>> node = node.apply(5).apply(6)
>>> [text for _, text in node.history_texts(None)], node.returns()
(['1b2', '1c2'], (0.0, 0.0))
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Container, Mapping, Sequence
from functools import cache
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from ..core.contract import JSON, Game, Player, State
from ..core.registry import info as game_info
from ..core.registry import load

Action = int
Planes = npt.NDArray[np.float32]


class ActionModule(Protocol):
    """What a game's action module (``engines/<id>/actions.py``) provides; see any of them.

    Optional, where the game needs them: ``CHANCE_DRAWS`` (the sizes of the chance draws that
    ``new_state`` makes, in order), ``draws(state)`` and ``state_from_draws(game, draws)`` between
    a start and its draws (Imbrication); ``EXTRA_ACTIONS``, a bound on the actions of a game beyond
    one per move (Imbrication's hops); ``history(state)``, the moves that lead to ``state`` when
    ``determinize`` rewrites secret moves (Plimil's setup).
    """

    def action_count(self, variant: str, players: int) -> int: ...
    def encode(self, move: Any) -> tuple[Action, ...]: ...
    def decode(
        self, state: State, actions: Sequence[Action], legal: Container[Any] | None = None
    ) -> Any: ...
    def action_text(self, action: Action) -> str: ...
    def observation_shape(self, variant: str, players: int) -> tuple[int, ...]: ...
    def observation(self, view: Mapping[str, Any], pending: Sequence[Action] = ()) -> Planes: ...
    def board_text(self, view: Mapping[str, Any]) -> str: ...


class Encoding:
    """One game, with its variant and player count, as the research interfaces see it.

    Raises ``ValueError`` when the game declares no action module, or has chance events without
    declaring their draws.
    """

    def __init__(self, game: Game) -> None:
        facts = game_info(game.id)
        module = facts.load_actions()
        if module is None:
            raise ValueError(f"{game.id}: the game declares no action encoding (GameInfo.actions)")
        self.game = game
        self.module = cast(ActionModule, module)
        self.num_actions: int = self.module.action_count(game.variant, game.players)
        self.observation_shape: tuple[int, ...] = tuple(
            self.module.observation_shape(game.variant, game.players)
        )
        # The sizes of the chance draws made before the first move (empty: no chance node).
        self.chance_draws: tuple[int, ...] = tuple(getattr(module, "CHANCE_DRAWS", ()))
        if game.has_chance and not self.chance_draws:
            raise ValueError(f"{game.id}: chance events without declared draws (CHANCE_DRAWS)")
        # A bound on the decisions of a game: one per move, and the extra hops of chains.
        self.max_game_length: int = facts.max_plies + int(getattr(module, "EXTRA_ACTIONS", 0))
        self.start_node: Node | None = None

    @staticmethod
    def of(game_id: str, variant: str | None = None, players: int | None = None) -> Encoding:
        """The encoding of ``ludotheque.load(game_id, variant, players)`` (built once)."""
        game = load(game_id, variant, players)
        return _encoding(game.id, game.variant, game.players)

    def encode(self, move: Any) -> tuple[Action, ...]:
        return self.module.encode(move)

    def decode(self, state: State, actions: Sequence[Action], legal: Container[Any] | None = None) -> Any:
        return self.module.decode(state, actions, legal)

    def action_text(self, action: Action) -> str:
        return self.module.action_text(action)

    def observation(self, view: Mapping[str, Any], pending: Sequence[Action] = ()) -> Planes:
        return self.module.observation(view, pending)

    def board_text(self, view: Mapping[str, Any]) -> str:
        return self.module.board_text(view)

    def state_from_draws(self, draws: Sequence[int]) -> State:
        """The start position that the chance draws ``draws`` make."""
        state: State = self._hook("state_from_draws")(self.game, draws)
        return state

    def draws(self, state: State) -> tuple[int, ...]:
        """The chance draws that made ``state`` (empty for a game without chance nodes)."""
        if not self.chance_draws:
            return ()
        return tuple(self._hook("draws")(state))

    def history(self, state: State) -> tuple[Any, ...] | None:
        """The moves that lead to ``state`` when the game can say (after ``determinize``, a
        game whose secret choices are moves rewrites them); ``None`` otherwise."""
        if not hasattr(self.module, "history"):
            return None
        return tuple(self._hook("history")(state))

    def _hook(self, name: str) -> Callable[..., Any]:
        """A function the action module may declare beyond :class:`ActionModule`'s."""
        function: Callable[..., Any] = getattr(self.module, name)
        return function

    def returns(self, state: State) -> tuple[float, ...]:
        """Each player's return: +1 for the winners, -1 for the others, 0 for all in a draw
        (and before the end)."""
        if not state.is_over:
            return (0.0,) * self.game.players
        winners = state.result().winners
        if not winners:
            return (0.0,) * self.game.players
        return tuple(1.0 if p in winners else -1.0 for p in range(self.game.players))


@cache
def _encoding(game_id: str, variant: str, players: int) -> Encoding:
    return Encoding(load(game_id, variant, players))


class Node:
    """An immutable position as the research interfaces see it: the contract state (``None``
    while chance draws are still to come), the draws made, the actions of the move under way
    (``pending``) and the moves played with their movers. ``apply`` returns a new node.
    """

    __slots__ = ("_first", "_history", "_table", "_views", "draws", "encoding", "moves", "pending", "state")

    def __init__(
        self,
        encoding: Encoding,
        state: State | None,
        draws: tuple[int, ...] = (),
        pending: tuple[Action, ...] = (),
        moves: tuple[tuple[Player, Any], ...] = (),
        table: dict[tuple[Action, ...], Any] | None = None,
    ) -> None:
        self.encoding = encoding
        self.state = state
        self.draws = draws
        self.pending = pending
        self.moves = moves
        self._table = table
        self._first: list[Action] | None = None
        # Caches: each reader's view, and each reader's moves as text (extended move by move).
        self._views: dict[Player | None, JSON] = {}
        self._history: dict[Player | None, str] = {}

    @classmethod
    def start(cls, encoding: Encoding, seed: int | None = None) -> Node:
        """The start: chance nodes first when the game declares its draws and no ``seed`` is
        given, else ``new_state(seed)`` (0 when ``None``)."""
        if seed is None:
            if encoding.start_node is None:  # immutable, so shared (OpenSpiel clones a lot)
                encoding.start_node = (
                    cls(encoding, None) if encoding.chance_draws else cls.start(encoding, 0)
                )
            return encoding.start_node
        state = encoding.game.new_state(seed)
        return cls(encoding, state, encoding.draws(state))

    # -- whose turn, which actions -----------------------------------------------------------------
    @property
    def is_chance(self) -> bool:
        return self.state is None

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.is_over

    @property
    def to_move(self) -> Player | None:
        """The player to act (the same one through every hop of a chain); ``None`` at a chance
        node or once over."""
        return None if self.state is None else self.state.to_move

    def table(self) -> dict[tuple[Action, ...], Any]:
        """Every legal move by the actions that spell it."""
        if self._table is None:
            assert self.state is not None
            encode = self.encoding.encode
            self._table = {encode(move): move for move in self.state.legal_moves()}
        return self._table

    def legal_actions(self) -> list[Action]:
        """The actions allowed now, sorted: chance outcomes at a chance node."""
        if self.state is None:
            return list(range(self.encoding.chance_draws[len(self.draws)]))
        if self.state.is_over:
            return []
        if not self.pending:
            if self._first is None:
                self._first = sorted({actions[0] for actions in self.table()})
            return list(self._first)
        k = len(self.pending)
        return sorted(
            {actions[k] for actions in self.table() if len(actions) > k and actions[:k] == self.pending}
        )

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance outcomes with their probabilities (uniform draws)."""
        if self.state is not None:
            return []
        size = self.encoding.chance_draws[len(self.draws)]
        return [(a, 1.0 / size) for a in range(size)]

    def legal_mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the player to move, over the whole action range."""
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if self.state is not None:
            mask[self.legal_actions()] = 1
        return mask

    # -- moving ------------------------------------------------------------------------------------
    def apply(self, action: Action) -> Node:
        """The node after ``action``; raises ``ValueError`` when it is not legal here."""
        encoding = self.encoding
        if self.state is None:
            if not 0 <= action < encoding.chance_draws[len(self.draws)]:
                raise ValueError(f"{encoding.game.id}: {action!r} is not a chance outcome here")
            draws = (*self.draws, action)
            if len(draws) < len(encoding.chance_draws):
                return Node(encoding, None, draws)
            return Node(encoding, encoding.state_from_draws(draws), draws)
        actions = (*self.pending, action)
        table = self.table()
        move = table.get(actions)
        if move is not None:
            return self.play(move)
        k = len(actions)
        if self.state.is_over or not any(t[:k] == actions for t in table if len(t) > k):
            raise ValueError(
                f"{encoding.game.id}: action {action!r} ({self._action_name(action)}) is not legal "
                f"at ply {self.state.ply}"
            )
        return Node(encoding, self.state, self.draws, actions, self.moves, table)

    def play(self, move: Any) -> Node:
        """The node after the legal move ``move`` (a bot's choice, or a whole move)."""
        assert self.state is not None
        mover = self.state.to_move
        assert mover is not None
        state = self.state.play(move)
        after = Node(self.encoding, state, self.draws, (), (*self.moves, (mover, move)))
        mask, text = self.encoding.game.mask_move_text, str(move)
        after._history = {
            reader: f"{known} {mover}:{mask(text, mover, reader)}".lstrip()
            for reader, known in self._history.items()
        }
        return after

    def _action_name(self, action: Action) -> str:
        try:
            return self.encoding.action_text(action)
        except ValueError:
            return "no such action"

    def action_history(self) -> list[Action]:
        """Every action from the start: the chance draws, each move's actions, then pending."""
        encode = self.encoding.encode
        actions = list(self.draws)
        for _, move in self.moves:
            actions.extend(encode(move))
        actions.extend(self.pending)
        return actions

    def resample(self, player: Player | None, rng: random.Random) -> Node:
        """A node ``player`` cannot tell from this one (``determinize``), its history rewritten
        where the game's secret choices are moves."""
        assert self.state is not None
        state = self.state.determinize(player, rng)
        moves = self.moves
        rewritten = self.encoding.history(state)
        if rewritten is not None and len(rewritten) == len(moves):  # else a node built mid-game
            moves = tuple((mover, move) for (mover, _), move in zip(moves, rewritten, strict=True))
        return Node(self.encoding, state, self.encoding.draws(state), self.pending, moves)

    # -- what a player sees ----------------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        if self.state is None:
            return (0.0,) * self.encoding.game.players
        return self.encoding.returns(self.state)

    def view(self, player: Player | None) -> JSON:
        """``view(player)`` of the state; at a chance node, of a start no draw has shown yet.
        Kept for the node's other readers: do not change it."""
        view = self._views.get(player)
        if view is None:
            state = self.state
            if state is None:
                rest = len(self.encoding.chance_draws) - len(self.draws)
                state = self.encoding.state_from_draws((*self.draws, *[0] * rest))
            view = self._views[player] = state.view(player)
        return view

    def observation(self, player: Player | None) -> Planes:
        """``player``'s observation planes: from ``view(player)`` and the hops under way."""
        return self.encoding.observation(self.view(player), self.pending)

    def observation_string(self, player: Player | None) -> str:
        """``view(player)`` as canonical JSON, then the hops under way, if any."""
        text = json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))
        if self.pending:
            text += " pending " + " ".join(self.encoding.action_text(a) for a in self.pending)
        return text

    def history_texts(self, player: Player | None) -> list[tuple[Player, str]]:
        """Each move played, with its mover, as ``player`` may know it (secret setup choices
        masked: ``Game.mask_move_text``)."""
        mask = self.encoding.game.mask_move_text
        return [(mover, mask(str(move), mover, player)) for mover, move in self.moves]

    def information_state_string(self, player: Player | None) -> str:
        """What ``player`` knows: the moves as they may know them, then the observation. The
        chance draws are never in it: a tile appears once the view shows it."""
        moves = self._history.get(player)
        if moves is None:
            moves = " ".join(f"{mover}:{text}" for mover, text in self.history_texts(player))
            self._history[player] = moves
        return f"{moves}|{self.observation_string(player)}"

    def board_text(self) -> str:
        """The board as text (a spectator's view)."""
        return self.encoding.board_text(self.view(None))

    # Immutable: a copy is the node itself; pickling replays the actions from the start.
    def __copy__(self) -> Node:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.encoding.game
        return (replay, (game.id, game.variant, game.players, self.action_history()))


def replay(game_id: str, variant: str, players: int, actions: Sequence[Action]) -> Node:
    """The node that ``actions`` reach from the start (chance nodes included).

    >>> replay("pylos", "standard", 2, [0, 1]).history_texts(0)
    [(0, '1a1'), (1, '1b1')]
    """
    node = Node.start(Encoding.of(game_id, variant, players))
    for action in actions:
        node = node.apply(action)
    return node
