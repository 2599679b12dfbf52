"""Ex*Pion rules (``RULES.md`` beside this module): 2, 3 or 4 players, two teams, one EX*PION.

The board is a ``bytes`` of 81 ASCII codes indexed like ``board.py`` (``.`` empty, ``N E S W``
marbles, ``X`` the EX*PION, a space off the board). ``ExpionGame.position`` builds a state from
nine text rows (rank 9 first), for tests and analysis.

>>> import ludotheque
>>> state = ludotheque.load("expion").new_state()
>>> state.to_move, len(state.legal_moves()), str(state.legal_moves()[0])
(0, 21, 'b9-b6')
>>> state = state.play("e9-e6")
>>> state.camp_to_move, state.to_move
('E', 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.contract import JSON, Game, Player, Result, State, StoredState, check_viewer
from ...core.errors import IllegalMoveError, Reason
from . import view as views
from .board import (
    ADJACENT,
    CAMP_AT,
    CAMP_COUNT,
    CAMP_LETTERS,
    CELLS,
    DIRECTION_OF_STEP,
    FORWARD,
    INDEX,
    IS_SPECIAL,
    LAYOUT,
    MARBLES_PER_CAMP,
    NAMES,
    NEIGHBOUR,
    OPTIONS,
    PUSH_TO,
    SIZE,
    TEAM_CAMPS,
    Camp,
    Cell,
    team_of,
)
from .notation import MOVES, Move

VARIANTS = ("standard",)
# Draw (b): this many consecutive moves without a capture or a push end the game.
QUIET_LIMIT = 200
REPETITION_LIMIT = 3

EMPTY = ord(".")
EXPION = ord("X")
OFF = ord(" ")
CODE_OF_CAMP: tuple[int, ...] = tuple(ord(letter) for letter in CAMP_LETTERS)
CAMP_OF_CODE: list[Camp] = [CODE_OF_CAMP.index(c) if c in CODE_OF_CAMP else -1 for c in range(128)]
TEAM_OF_CODE: list[int] = [team_of(CAMP_OF_CODE[c]) if CAMP_OF_CODE[c] >= 0 else -1 for c in range(128)]

_KEY_SUFFIX: tuple[tuple[bytes, bytes], ...] = tuple(
    (letter.encode() + b"0", letter.encode() + b"1") for letter in CAMP_LETTERS
)

# Which player holds each camp (North, East, South, West), by number of players.
HOLDERS: dict[int, tuple[Player, ...]] = {2: (0, 1, 0, 1), 3: (0, 1, 0, 2), 4: (0, 1, 2, 3)}


class ExpionState(StoredState["ExpionGame", Move]):
    """An Ex*Pion position: the board, the camp to move, the draw counters and positions seen."""

    __slots__ = ("_board", "_camp", "_expion", "_freed", "_quiet", "_seen")

    def __init__(
        self,
        game: ExpionGame,
        board: bytes,
        camp: Camp,
        *,
        freed: bool,
        quiet: int,
        ply: int,
        seen: dict[bytes, int],
        result: Result | None,
        legal: list[Move] | None = None,
        expion: Cell | None = None,
    ) -> None:
        self._game = game
        self._board = board
        self._camp = camp
        self._freed = freed
        self._quiet = quiet
        self._ply = ply
        self._seen = seen
        self._result = result
        self._legal = legal
        self._expion: Cell = board.index(EXPION) if expion is None else expion

    # -- the contract --------------------------------------------------------------------------
    @property
    def to_move(self) -> Player | None:
        return None if self._result is not None else self._game.holders[self._camp]

    def _generate_legal_moves(self) -> list[Move]:
        return self._game._generate_for(self._camp, self._board, self._expion, self._freed)

    def _view(self, player: Player | None) -> JSON:
        return views.view(self, player)

    def to_json(self) -> JSON:
        return {
            **self._json_header(),
            "board": self.rows(),
            "camp": CAMP_LETTERS[self._camp],
            "first_capture": self._freed,
            "quiet_moves": self._quiet,
            "ply": self._ply,
            "seen": [[key.decode("ascii"), count] for key, count in self._seen.items()],
            "result": self._result.to_json() if self._result else None,
        }

    def determinize(self, player: Player | None, rng: random.Random) -> ExpionState:
        """Ex*Pion hides nothing: the state itself."""
        check_viewer(self, player)
        return self

    # -- facts for views, evaluators and tests (view.ExpionPosition) ---------------------------
    @property
    def holders(self) -> tuple[Player, ...]:
        """The player holding each camp, in turn order (North, East, South, West)."""
        return self._game.holders

    @property
    def camp_to_move(self) -> str | None:
        """The letter of the camp whose turn it is (``None`` once over)."""
        return None if self._result is not None else CAMP_LETTERS[self._camp]

    @property
    def expion(self) -> str:
        """The cell of the EX*PION."""
        return NAMES[self._expion]

    @property
    def has_first_capture(self) -> bool:
        """Whether a capture has happened (backward moves are then free)."""
        return self._freed

    @property
    def quiet_moves(self) -> int:
        """Consecutive moves without a capture or a push (draw at ``QUIET_LIMIT``)."""
        return self._quiet

    @property
    def quiet_limit(self) -> int:
        """The number of consecutive quiet moves that draws (``QUIET_LIMIT``)."""
        return QUIET_LIMIT

    @property
    def repetitions(self) -> int:
        """How many times the current position has occurred (draw on the third)."""
        return self._seen.get(self._key(self._board, self._camp, self._freed), 0)

    def marbles(self, camp: str) -> int:
        """Marbles left of the colour of ``camp`` (a letter of ``NESW``)."""
        return self._board.count(CODE_OF_CAMP[CAMP_LETTERS.index(camp)])

    def marble_at(self, cell: str) -> str | None:
        """``N E S W`` for a marble, ``X`` for the EX*PION, ``None`` when empty."""
        code = self._board[_cell_index(cell)]
        return None if code == EMPTY else chr(code)

    def team_marbles(self, team: int) -> int:
        """Marbles left of a team's colours (team 0: North and South; 1: East and West)."""
        return _team_marbles(self._board, TEAM_CAMPS[team])

    def is_eliminated(self, player: Player) -> bool:
        """Whether ``player`` has no marble left of any colour they hold."""
        return not any(self._board.count(CODE_OF_CAMP[c]) for c in self._game.camps_of[player])

    def rows(self) -> list[str]:
        """The board as nine rows of text, rank 9 first (``LAYOUT``'s shape)."""
        text = self._board.decode("ascii")
        return [text[rank * SIZE : rank * SIZE + SIZE] for rank in reversed(range(SIZE))]

    def __hash__(self) -> int:
        return hash((self._board, self._camp, self._ply))

    def __repr__(self) -> str:
        return f"<ExpionState {self._game.players}p ply {self._ply} to move {self.camp_to_move}>"

    # -- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _key(board: bytes, camp: Camp, freed: bool) -> bytes:
        # Draw (c): marbles, EX*PION, camp to move and whether a capture has happened.
        return board + _KEY_SUFFIX[camp][freed]

    def _apply(self, move: Move) -> ExpionState:
        """The one apply step: the marble moves (and pushes), its captures leave the board, then
        the endings are tested in the rules' order (EX*PION in an enemy camp, no enemy marble,
        200 quiet moves, nobody able to move, third occurrence) and the turn passes on."""
        game = self._game
        player = game.holders[self._camp]
        team = game.team_of[player]
        after, expion, captured, pushed = _move_marble(
            self._board, move.source, move.target, self._expion, game.codes_of[player], team
        )
        for cell in captured:
            after[cell] = EMPTY
        board = bytes(after)
        freed = self._freed or bool(captured)
        quiet = 0 if captured or pushed else self._quiet + 1
        # Positions before a capture can never recur (fewer marbles), so the count restarts.
        seen = {} if captured else self._seen.copy()
        camp, legal, result = self._camp, None, None
        if CAMP_AT[expion] >= 0:
            result = game._win(team, "expion_in_camp")
        elif captured and not _team_marbles(board, TEAM_CAMPS[1 - team]):
            result = game._win(team, "no_marbles")
        elif quiet >= QUIET_LIMIT:
            result = _draw(game.players, "no_progress")
        else:
            turn = game._next_turn(self._camp, board, expion, freed)
            if turn is None:
                result = _draw(game.players, "blocked")
            else:
                camp, legal = turn
                key = self._key(board, camp, freed)
                seen[key] = count = seen.get(key, 0) + 1
                if count >= REPETITION_LIMIT:
                    result = _draw(game.players, "repetition")
        return ExpionState(
            game, board, camp, freed=freed, quiet=quiet, ply=self._ply + 1, seen=seen,
            result=result, legal=legal, expion=expion,
        )


class ExpionGame(Game):
    """Ex*Pion for 2, 3 or 4 players (who holds which camp is fixed by ``HOLDERS``)."""

    def __init__(self, variant: str = "standard", players: int = 4) -> None:
        super().__init__(variant, players)
        self.holders: tuple[Player, ...] = HOLDERS[players]
        self.camps_of: tuple[tuple[Camp, ...], ...] = tuple(
            tuple(c for c in range(CAMP_COUNT) if self.holders[c] == p) for p in range(players)
        )
        self.codes_of: tuple[frozenset[int], ...] = tuple(
            frozenset(CODE_OF_CAMP[c] for c in camps) for camps in self.camps_of
        )
        self.team_of: tuple[int, ...] = tuple(team_of(camps[0]) for camps in self.camps_of)

    @property
    def teams(self) -> tuple[tuple[Player, ...], ...]:
        """North+South against East+West, as players (a resignation loses for the whole team).

        >>> import ludotheque
        >>> ludotheque.load("expion", players=4).teams, ludotheque.load("expion", players=3).teams
        (((0, 2), (1, 3)), ((0,), (1, 2)))
        """
        return tuple(
            tuple(p for p in range(self.players) if self.team_of[p] == team) for team in (0, 1)
        )

    def new_state(self, seed: int = 0) -> ExpionState:
        """The start position, North to move; Ex*Pion has no chance, so ``seed`` is ignored."""
        return self.position([row.replace("+", ".") for row in LAYOUT])

    def position(
        self, rows: Sequence[str], *, camp: str = "N", first_capture: bool = False
    ) -> ExpionState:
        """A state from nine rows of nine characters, rank 9 first: ``.`` empty, ``N E S W``
        marbles, ``X`` the EX*PION; a space is empty too (the four corners must be empty). It counts as the
        first occurrence of its position. Raises ``ValueError`` on an impossible position or
        when ``camp`` (the camp to move) has no legal move.

        >>> import ludotheque
        >>> rows = [" " * 9] + ["." * 9] * 7 + [" " * 9]
        >>> rows[3], rows[4] = "....N....", "....XE..."
        >>> state = ludotheque.load("expion", players=2).position(rows, camp="E")
        >>> [str(m) for m in state.legal_moves()]  # f5-e5 pushes; no step back (g5) yet
        ['f5-f4', 'f5-e5', 'f5-f6']
        """
        board = _board_from_rows(rows)
        if camp not in CAMP_LETTERS or len(camp) != 1:
            raise ValueError(f"expion: no camp {camp!r}; camps: N, E, S, W")
        return self._checked_state(
            board, CAMP_LETTERS.index(camp), freed=bool(first_capture), quiet=0, ply=0,
            seen=None, result=None,
        )

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move ``text`` names; raises ``InvalidMoveError`` / ``IllegalMoveError``."""
        if not isinstance(state, ExpionState):
            raise TypeError(f"expion: not an Ex*Pion state: {state!r}")
        move = Move.from_text(text)
        if state.is_over:
            raise IllegalMoveError.game_over("expion", text, ply=state.ply)
        legal = state.legal_moves()
        if move in legal:
            return legal[legal.index(move)]
        raise IllegalMoveError.here("expion", text, state.ply, _why(state, move))

    def state_from_json(self, data: Mapping[str, Any]) -> ExpionState:
        """Rebuild a state from ``to_json()``; raises ``ValueError`` on inconsistent data or on
        the state of another game, variant or player count."""
        self.check_json_header(data)
        if "players" not in data:
            raise ValueError("expion: malformed state: no players")
        try:
            board = _board_from_rows(data["board"], finished=data["result"] is not None)
            letter = data["camp"]
            if not isinstance(letter, str) or len(letter) != 1 or letter not in CAMP_LETTERS:
                raise ValueError(f"expion: malformed state: no camp {letter!r}; camps: N, E, S, W")
            camp = CAMP_LETTERS.index(letter)
            freed, quiet, ply = data["first_capture"], data["quiet_moves"], data["ply"]
            seen = {str(key).encode("ascii"): int(count) for key, count in data["seen"]}
            result = Result.from_json(data["result"]) if data["result"] else None
        except (KeyError, TypeError, AttributeError, UnicodeEncodeError) as error:
            raise ValueError(f"expion: malformed state: {error!r}") from None
        if not isinstance(freed, bool) or not isinstance(quiet, int) or not isinstance(ply, int):
            raise ValueError("expion: malformed state: bad counters")
        if not 0 <= quiet <= QUIET_LIMIT or ply < 0:
            raise ValueError("expion: malformed state: counters out of range")
        if any(len(key) != SIZE * SIZE + 2 or count < 1 for key, count in seen.items()):
            raise ValueError("expion: malformed state: bad positions seen")
        return self._checked_state(
            board, camp, freed=freed, quiet=quiet, ply=ply, seen=seen, result=result
        )

    # -- helpers ---------------------------------------------------------------------------------
    def _checked_state(
        self,
        board: bytes,
        camp: Camp,
        *,
        freed: bool,
        quiet: int,
        ply: int,
        seen: dict[bytes, int] | None,
        result: Result | None,
    ) -> ExpionState:
        if seen is None:
            seen = {ExpionState._key(board, camp, freed): 1}
        state = ExpionState(
            self, board, camp, freed=freed, quiet=quiet, ply=ply, seen=seen, result=result
        )
        if result is None:
            if any(not _team_marbles(board, camps) for camps in TEAM_CAMPS):
                raise ValueError("expion: a team without marbles has lost: the game would be over")
            if not state.legal_moves():
                raise ValueError(f"expion: camp {CAMP_LETTERS[camp]} has no legal move here")
        return state

    def _generate_for(self, camp: Camp, board: bytes, expion: Cell, freed: bool) -> list[Move]:
        player = self.holders[camp]
        return _generate(board, expion, self.codes_of[player], self.team_of[player], freed)

    def _next_turn(
        self, last: Camp, board: bytes, expion: Cell, freed: bool
    ) -> tuple[Camp, list[Move]] | None:
        """The next camp in turn whose holder can move, with its moves; ``None``: nobody can.
        Camps of eliminated players and camps whose holder has no legal move pass."""
        tried: dict[Player, list[Move]] = {}
        for step in range(1, CAMP_COUNT + 1):
            camp = (last + step) % CAMP_COUNT
            player = self.holders[camp]
            if player not in tried:
                tried[player] = self._generate_for(camp, board, expion, freed)
            if tried[player]:
                return camp, tried[player]
        return None

    def _win(self, team: int, reason: str) -> Result:
        winners = tuple(sorted({self.holders[c] for c in TEAM_CAMPS[team]}))
        scores = tuple(1 if p in winners else -1 for p in range(self.players))
        return Result(winners, scores, reason)


def _team_marbles(board: bytes, camps: tuple[Camp, ...]) -> int:
    return sum(board.count(CODE_OF_CAMP[c]) for c in camps)


def _draw(players: int, reason: str) -> Result:
    return Result((), (0,) * players, reason)


def _cell_index(name: str) -> Cell:
    try:
        return INDEX[name.strip().lower()]
    except KeyError:
        raise ValueError(f"expion: {name!r} is not a cell") from None


def _board_from_rows(rows: Sequence[str], *, finished: bool = False) -> bytes:
    """The board of nine text rows (rank 9 first); raises ``ValueError`` if it cannot occur.
    Only a finished game may have the EX*PION on a camp cell (it was pushed there)."""
    if isinstance(rows, str) or len(rows) != SIZE or any(
        not isinstance(row, str) or len(row) != SIZE for row in rows
    ):
        raise ValueError(f"expion: a board is {SIZE} rows of {SIZE} characters, not {rows!r}")
    codes = bytearray(b" " * SIZE * SIZE)
    for cell in CELLS:
        rank, file = divmod(cell, SIZE)
        char = rows[SIZE - 1 - rank][file].replace(" ", ".")
        if char not in ".NESWX":
            raise ValueError(f"expion: {char!r} on {NAMES[cell]} is not '.', N, E, S, W or X")
        camp = CAMP_AT[cell]
        if char in CAMP_LETTERS and camp >= 0 and CAMP_LETTERS[camp] != char:
            raise ValueError(f"expion: a {char} marble cannot stand in camp {CAMP_LETTERS[camp]}")
        codes[cell] = ord(char)
    for corner in set(range(SIZE * SIZE)) - set(CELLS):
        rank, file = divmod(corner, SIZE)
        if rows[SIZE - 1 - rank][file] not in " .":
            raise ValueError(f"expion: {NAMES[corner]} is off the board and must stay empty")
    board = bytes(codes)
    if board.count(EXPION) != 1:
        raise ValueError("expion: the board needs exactly one EX*PION (X)")
    expion = board.index(EXPION)
    if IS_SPECIAL[expion] or (CAMP_AT[expion] >= 0 and not finished):
        raise ValueError(f"expion: the EX*PION cannot stand on {NAMES[expion]}")
    for code in CODE_OF_CAMP:
        if board.count(code) > MARBLES_PER_CAMP:
            raise ValueError(f"expion: more than {MARBLES_PER_CAMP} {chr(code)} marbles")
    return board


# Move generation tables, built once from ``board.OPTIONS``. A marble in its camp has one exit
# path (1 to 3 cells forward); EXIT_MOVES[source][k] lists the moves reaching the first k + 1
# cells of that path, in canonical order. A marble in the play area tries STEPS: (target,
# direction, is_backward, move), in canonical order.
_Step = tuple[Cell, int, bool, Move]
EXIT_PATH: list[tuple[Cell, ...]] = [()] * (SIZE * SIZE)
EXIT_MOVES: list[tuple[tuple[Move, ...], ...]] = [()] * (SIZE * SIZE)
STEPS: list[list[tuple[_Step, ...]]] = [[()] * (SIZE * SIZE) for _ in range(CAMP_COUNT)]
for _camp in range(CAMP_COUNT):
    for _cell in CELLS:
        _options = OPTIONS[_camp][_cell]
        if CAMP_AT[_cell] == _camp:
            _path = max((o.path for o in _options), key=len)
            EXIT_PATH[_cell] = _path
            EXIT_MOVES[_cell] = tuple(
                tuple(sorted(MOVES[_cell, t] for t in _path[: k + 1])) for k in range(len(_path))
            )
        elif CAMP_AT[_cell] < 0:
            STEPS[_camp][_cell] = tuple(
                (o.target, o.direction, o.is_backward, MOVES[_cell, o.target]) for o in _options
            )


def _generate(board: bytes, expion: Cell, held: frozenset[int], team: int, freed: bool) -> list[Move]:
    """Every legal move of the player holding the colours ``held``, in canonical order."""
    sources = []
    for code in held:
        found = board.find(code)
        while found >= 0:
            sources.append(found)
            found = board.find(code, found + 1)
    sources.sort()
    moves: list[Move] = []
    push_to = PUSH_TO[team]
    for source in sources:
        exit_path = EXIT_PATH[source]
        if exit_path:
            first = exit_path[0]
            content = board[first]
            if content == EMPTY:
                reach = 1
                for cell in exit_path[1:]:
                    if board[cell] != EMPTY:
                        break
                    reach += 1
                moves.extend(EXIT_MOVES[source][reach - 1])
            elif content == EXPION:
                beyond = push_to[first][FORWARD[CAMP_AT[source]]]
                if beyond >= 0 and board[beyond] == EMPTY:
                    moves.append(EXIT_MOVES[source][0][0])
            continue
        for target, direction, is_backward, move in STEPS[CAMP_OF_CODE[board[source]]][source]:
            content = board[target]
            if content == EXPION:
                beyond = push_to[target][direction]
                if beyond < 0 or board[beyond] != EMPTY:
                    continue
            elif content != EMPTY:
                continue
            # Before the first capture, a backward move (or push) must capture at once.
            if is_backward and not freed and not _move_marble(board, source, target, expion, held, team)[2]:
                continue
            moves.append(move)
    return moves


def _move_marble(
    board: bytes, source: Cell, target: Cell, expion: Cell, held: frozenset[int], team: int
) -> tuple[bytearray, Cell, list[Cell], bool]:
    """The board after the marble moves (captured marbles still on it), the EX*PION's cell,
    the captured cells and whether the EX*PION was pushed."""
    after = bytearray(board)
    after[target], after[source] = after[source], EMPTY
    pushed = board[target] == EXPION
    if pushed:
        expion = NEIGHBOUR[target][DIRECTION_OF_STEP[target - source]]
        after[expion] = EXPION
    # Chameleon: a marble of the mover's own colours next to the EX*PION makes it a friend.
    chameleon = pushed or any(after[n] in held for n in ADJACENT[expion])
    captured = _flanked(after, target, team, expion if chameleon else -1)
    if pushed:
        # The pushed EX*PION also counts as having moved: it may be the flanker.
        captured += [c for c in _flanked(after, expion, team, -1) if c not in captured]
    return after, expion, captured, pushed


def _flanked(board: bytearray, mover: Cell, team: int, friendly_expion: Cell) -> list[Cell]:
    """Enemy marbles between ``mover`` and a friendly piece, on adjacent cells in a line."""
    captured = []
    neighbours = NEIGHBOUR
    for direction, enemy in enumerate(neighbours[mover]):
        if enemy < 0 or TEAM_OF_CODE[board[enemy]] != 1 - team:
            continue
        partner = neighbours[enemy][direction]
        if partner >= 0 and (
            TEAM_OF_CODE[board[partner]] == team or partner == friendly_expion
        ):
            captured.append(enemy)
    return captured


# Why a move is not legal, in the words of each language (``Reason``: key, parameters, words).
_WHY = {
    "no_marble": {"en": "no marble on {cell}", "fr": "aucune bille en {cell}"},
    "not_yours": {
        "en": "the marble on {cell} is {marble}, not one of yours",
        "fr": "la bille en {cell} est {marble}, pas une des vôtres",
    },
    "leave_camp": {
        "en": "a marble leaves its camp straight forward, by 1 to 3 cells",
        "fr": "une bille sort de son camp tout droit, de 1 à 3 cases",
    },
    "enter_camp": {"en": "no marble may enter a camp", "fr": "aucune bille ne peut entrer dans un camp"},
    "one_cell": {
        "en": "a marble moves one cell, orthogonally",
        "fr": "une bille avance d'une case, orthogonalement",
    },
    "way_blocked": {"en": "the way to {cell} is not free", "fr": "le chemin vers {cell} n'est pas libre"},
    "push_refused": {
        "en": "the EX*PION cannot be pushed there (occupied, off the board, special cell or own camp)",
        "fr": "l'EX*PION ne peut pas être poussé là (case occupée, hors du plateau, case spéciale "
              "ou camp de votre équipe)",
    },
    "backward_to_capture": {
        "en": "before the first capture a marble moves backward only to capture",
        "fr": "avant la première prise, une bille ne recule que pour prendre",
    },
}


def _why(state: ExpionState, move: Move) -> Reason:
    """A short reason why ``move`` is not legal in ``state``, for people."""
    game = state._game
    board = state._board
    player = game.holders[state._camp]
    source, target = move.source, move.target
    code = board[source]

    def said(key: str, **params: str) -> Reason:
        return Reason(key, params, _WHY[key])

    if CAMP_OF_CODE[code] < 0:
        return said("no_marble", cell=NAMES[source])
    if code not in game.codes_of[player]:
        return said("not_yours", cell=NAMES[source], marble=chr(code))
    option = next((o for o in OPTIONS[CAMP_OF_CODE[code]][source] if o.target == target), None)
    if option is None:
        if CAMP_AT[source] >= 0:
            return said("leave_camp")
        if CAMP_AT[target] >= 0:
            return said("enter_camp")
        return said("one_cell")
    if any(board[c] not in (EMPTY, EXPION) for c in option.path) or (
        len(option.path) > 1 and any(board[c] != EMPTY for c in option.path)
    ):
        return said("way_blocked", cell=NAMES[target])
    if board[target] == EXPION:
        return said("push_refused")
    return said("backward_to_capture")
