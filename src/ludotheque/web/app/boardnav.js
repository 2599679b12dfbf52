/**
 * Moving around a board with the keyboard: the arrow keys go to the nearest cell in that
 * direction, as drawn (so it works for any board's geometry, Pylos' upper levels included),
 * among the cells that can be chosen now — or among every labelled cell when none can (a
 * spectator, a replay). One cell at a time is in the Tab order (a "roving tabindex"): the one
 * last visited, else the first that can be chosen. Enter or Space then chooses it (game.js).
 */

const CELLS = "[data-key][aria-label]:not([aria-hidden])";
const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/** The labelled cells of the board in `container`. */
export function cellsOf(container) {
  return [...container.querySelectorAll(CELLS)];
}

/** Where the arrow keys go: the cells that can be chosen now, else every cell. */
function stopsOf(container) {
  const cells = cellsOf(container);
  const targets = cells.filter((cell) => cell.classList.contains("target"));
  return targets.length > 0 ? targets : cells;
}

/**
 * Put one cell in the Tab order: the cell with key `preferred` when drawn, else the first
 * target, else the first cell. Returns that cell (or null on an empty board).
 */
export function setRovingCell(container, preferred) {
  const cells = cellsOf(container);
  const chosen = cells.find((cell) => cell.dataset.key === preferred)
    ?? cells.find((cell) => cell.classList.contains("target"))
    ?? cells[0] ?? null;
  for (const cell of cells) cell.setAttribute("tabindex", cell === chosen ? "0" : "-1");
  return chosen;
}

function centre(element) {
  const box = element.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/**
 * The cell an arrow key leads to from `from`: among the cells lying in that direction (within
 * 45° of it), the nearest, distance across the direction counting double.
 */
export function cellTowards(container, from, key) {
  const direction = DIRECTIONS[key];
  if (!direction) return null;
  const start = centre(from);
  let best = null;
  let bestCost = Infinity;
  for (const cell of stopsOf(container)) {
    if (cell === from) continue;
    const point = centre(cell);
    const along = (point.x - start.x) * direction[0] + (point.y - start.y) * direction[1];
    const across = Math.abs((point.x - start.x) * direction[1] - (point.y - start.y) * direction[0]);
    if (along <= 1 || across > along) continue;
    const cost = along + 2 * across;
    if (cost < bestCost) [best, bestCost] = [cell, cost];
  }
  return best;
}

/** Arrow keys on a cell of `container` move the focus (and the roving cell); returns whether handled. */
export function handleArrow(container, event) {
  const from = event.target.closest?.(CELLS);
  if (!from || !DIRECTIONS[event.key]) return false;
  event.preventDefault();
  const next = cellTowards(container, from, event.key);
  if (next) {
    setRovingCell(container, next.dataset.key);
    next.focus();
  }
  return true;
}
