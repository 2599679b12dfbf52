"""Ex*Pion geometry: the reconstructed 9×9 board, kept in ONE table (``LAYOUT``), and the tables
derived from it once (cells, neighbours, camps, special cells, moves a marble may try).

The rulebook's figures are lost, so the board is a reconstruction (``RULES.md``, Decision
"Board"): to change it, edit ``LAYOUT`` only. Cells are indexed ``rank * 9 + file`` so that
sorting indexes sorts cells by rank, then file (the canonical order of the rules file).

>>> NAMES[INDEX["e5"]], CAMP_AT[INDEX["b1"]], CAMP_AT[INDEX["e5"]], "a1" in INDEX, len(CELLS)
('e5', 2, -1, False, 77)
>>> [NAMES[c] for c in SPECIAL_CELLS], NAMES[EXPION_START]
(['b2', 'h2', 'b8', 'h8'], 'e5')
>>> [NAMES[target] for target, *_ in OPTIONS[NORTH][INDEX["e9"]]]
['e6', 'e7', 'e8']
"""

from __future__ import annotations

from typing import NamedTuple

Cell = int
Camp = int
Direction = int

# The reconstructed board, rank 9 at the top, files a to i from left to right:
#   ' ' not a cell, 'N' 'E' 'S' 'W' a camp cell (holding one of that camp's marbles at the start),
#   '.' a play-area cell, '+' a special cell (play area, forbidden to the EX*PION),
#   'X' the play-area cell where the EX*PION starts.
LAYOUT: tuple[str, ...] = (
    " NNNNNNN ",  # 9
    "W+.....+E",  # 8
    "W.......E",  # 7
    "W.......E",  # 6
    "W...X...E",  # 5
    "W.......E",  # 4
    "W.......E",  # 3
    "W+.....+E",  # 2
    " SSSSSSS ",  # 1
)
SIZE = 9
FILES = "abcdefghi"

# Camps in turn order; teams are North+South (0) against East+West (1).
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
CAMP_LETTERS = "NESW"
CAMP_COUNT = 4
MARBLES_PER_CAMP = 7


def team_of(camp: Camp) -> int:
    """The team of a camp: 0 for North and South, 1 for East and West.

    >>> [team_of(camp) for camp in range(4)]
    [0, 1, 0, 1]
    """
    return camp % 2


# The camps of each team: North and South (team 0), East and West (team 1).
TEAM_CAMPS: tuple[tuple[Camp, ...], ...] = tuple(
    tuple(camp for camp in range(CAMP_COUNT) if team_of(camp) == team) for team in (0, 1)
)


# Directions as index steps: toward rank 9, toward file i, toward rank 1, toward file a.
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
DIRECTIONS: tuple[Direction, ...] = (UP, RIGHT, DOWN, LEFT)
STEP: tuple[int, ...] = (SIZE, 1, -SIZE, -1)
DIRECTION_OF_STEP: dict[int, Direction] = {step: d for d, step in enumerate(STEP)}


def opposite(direction: Direction) -> Direction:
    return (direction + 2) % 4


def _layout_char(cell: int) -> str:
    rank, file = divmod(cell, SIZE)
    return LAYOUT[SIZE - 1 - rank][file]


CELLS: tuple[Cell, ...] = tuple(c for c in range(SIZE * SIZE) if _layout_char(c) != " ")
NAMES: list[str] = [f"{FILES[c % SIZE]}{c // SIZE + 1}" for c in range(SIZE * SIZE)]
INDEX: dict[str, Cell] = {NAMES[c]: c for c in CELLS}
CAMP_AT: list[Camp] = [
    CAMP_LETTERS.index(_layout_char(c)) if _layout_char(c) in CAMP_LETTERS else -1
    for c in range(SIZE * SIZE)
]
IS_PLAY: list[bool] = [_layout_char(c) in ".+X" for c in range(SIZE * SIZE)]
IS_SPECIAL: list[bool] = [_layout_char(c) == "+" for c in range(SIZE * SIZE)]
SPECIAL_CELLS: tuple[Cell, ...] = tuple(c for c in CELLS if IS_SPECIAL[c])
CAMP_CELLS: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(c for c in CELLS if CAMP_AT[c] == camp) for camp in range(CAMP_COUNT)
)
EXPION_START: Cell = next(c for c in CELLS if _layout_char(c) == "X")


def _neighbour(cell: Cell, direction: Direction) -> Cell:
    rank, file = divmod(cell, SIZE)
    rank += (1, 0, -1, 0)[direction]
    file += (0, 1, 0, -1)[direction]
    if not (0 <= rank < SIZE and 0 <= file < SIZE):
        return -1
    target = rank * SIZE + file
    return target if _layout_char(target) != " " else -1


# NEIGHBOUR[cell][direction]: the adjacent cell, or -1 off the board (corners are off the board).
NEIGHBOUR: list[tuple[Cell, ...]] = [
    tuple(_neighbour(c, d) for d in DIRECTIONS) for c in range(SIZE * SIZE)
]
ADJACENT: list[tuple[Cell, ...]] = [tuple(n for n in NEIGHBOUR[c] if n >= 0) for c in range(SIZE * SIZE)]


def _forward(camp: Camp) -> Direction:
    """The direction from the camp into the play area, read from the layout."""
    (direction,) = {
        d
        for c in CAMP_CELLS[camp]
        for d in DIRECTIONS
        if NEIGHBOUR[c][d] >= 0 and IS_PLAY[NEIGHBOUR[c][d]]
    }
    return direction


# FORWARD[camp]: away from the camp (North marbles go toward rank 1, West toward file i...).
FORWARD: tuple[Direction, ...] = tuple(_forward(camp) for camp in range(CAMP_COUNT))


class Option(NamedTuple):
    """One move a marble may try from a cell: where it lands, the cells that must be empty
    (the landing cell last), its direction, and whether it is a backward step."""

    target: Cell
    path: tuple[Cell, ...]
    direction: Direction
    is_backward: bool


def _options(camp: Camp, cell: Cell) -> tuple[Option, ...]:
    forward = FORWARD[camp]
    found: list[Option] = []
    if CAMP_AT[cell] == camp:
        # Leaving the camp: 1 to 3 cells straight forward over play-area cells.
        path: list[Cell] = []
        step = cell
        for _ in range(3):
            step = NEIGHBOUR[step][forward]
            if step < 0 or not IS_PLAY[step]:
                break
            path.append(step)
            found.append(Option(step, tuple(path), forward, False))
    elif IS_PLAY[cell]:
        # In the play area: one cell in any direction but never into a camp.
        for direction in DIRECTIONS:
            target = NEIGHBOUR[cell][direction]
            if target >= 0 and IS_PLAY[target]:
                found.append(Option(target, (target,), direction, direction == opposite(forward)))
    return tuple(sorted(found))


# OPTIONS[camp][cell]: the moves a marble of that camp may try from that cell, by target order.
OPTIONS: list[list[tuple[Option, ...]]] = [
    [_options(camp, c) for c in range(SIZE * SIZE)] for camp in range(CAMP_COUNT)
]


def _push_target(team: int, cell: Cell, direction: Direction) -> Cell:
    beyond = NEIGHBOUR[cell][direction]
    if beyond < 0 or IS_SPECIAL[beyond]:
        return -1
    if CAMP_AT[beyond] >= 0 and team_of(CAMP_AT[beyond]) == team:
        return -1  # Decision: never into a camp of the pusher's own team.
    return beyond


# PUSH_TO[team][cell][direction]: where a marble of ``team`` may push the EX*PION standing on
# ``cell`` in ``direction`` (if empty), or -1.
PUSH_TO: list[list[tuple[Cell, ...]]] = [
    [tuple(_push_target(team, c, d) for d in DIRECTIONS) for c in range(SIZE * SIZE)]
    for team in (0, 1)
]
