/**
 * Pylos board: the pyramid seen from above (upper balls resting in the hollows of the lower
 * ones), an exploded view of the four levels beside it, and both reserves.
 *
 * Clicks: an empty available cell places a ball; an own free ball, then a higher cell, raises
 * it; after a square (or a line) the balls to take back. Every page board module exports
 * the same interface: `id`, `seatName`, `paths`, `keyOf`, `labelOf`, `render`, `facts`.
 *
 * The rules stay on the server: the view names the cells of each level (`levels`), the free and
 * available ones, and the balls that may be taken back first after each square (`first_removals`);
 * this module only reads a cell's level, file and rank from its name to place it on the drawing.
 */

import { svg } from "../app/dom.js";
import { boardRoot, boardStyles, cellOfToken, label, mark, ring } from "../app/boardkit.js";

await boardStyles(import.meta.url);

export const id = "pylos";

const BASE = 4; // balls along a side of the plate: the drawing's scale
const D = 64; // diameter of a ball in the main view
const PAD = 18;
const LEFT = 22; // room for the rank numbers, left of the plate
const MAIN = BASE * D + 2 * PAD;
const FILES_Y = MAIN + 12; // the file letters, under the plate
const SMALL = 20;
const SIDE_X = LEFT + MAIN + 24;
const WIDTH = SIDE_X + BASE * SMALL + 26;
const RESERVES_Y = MAIN + 36;
const HEIGHT = RESERVES_Y + 62;

const WORDS = {
  fr: { seats: ["Clair", "Foncé"], ball: ["bille claire", "bille foncée"], free: "libre",
    empty: "case libre", level: "Niveau", reserve: "Réserve", remove: "reprendre", to: "vers",
    repetitions: "Répétitions de la position", board: "Pyramide de Pylos",
    start: "Cliquez une case en surbrillance pour y poser une bille de votre réserve, ou une de vos billes libres pour la monter.",
    raise: "Cliquez la case plus haute où monter cette bille (ou la bille de nouveau pour annuler).",
    square: "Carré formé : reprenez une ou deux de vos billes libres (celle que vous venez de jouer compte) — cliquez la première.",
    second: "Vous pouvez reprendre une deuxième bille, ou vous arrêter là." },
  en: { seats: ["Light", "Dark"], ball: ["light ball", "dark ball"], free: "free",
    empty: "empty cell", level: "Level", reserve: "Reserve", remove: "take back", to: "to",
    repetitions: "Position repetitions", board: "Pylos pyramid",
    start: "Click a highlighted cell to place a ball from your reserve there, or one of your free balls to raise it.",
    raise: "Click the higher cell this ball goes up to (or the ball again to cancel).",
    square: "Square made: take back one or two of your free balls (the one just played counts) — click the first.",
    second: "You may take back a second ball, or stop here." },
};

const words = (lang) => WORDS[lang] || WORDS.en;

export function seatName(seat, players, lang) {
  return words(lang).seats[seat] ?? `#${seat + 1}`;
}

/** Pylos takes no opponent's ball: its "x" is a player taking back their own balls (a plain move's sound). */
export function isCapture() {
  return false;
}

/** What the current step asks, in words: after a square, to take back one or two balls. */
export function prompt(view, chosen, { next = [], lang = "en" } = {}) {
  const w = words(lang);
  const removals = chosen.filter((token) => token.startsWith("x")).length;
  const offersRemoval = next.some((choice) => choice.token.startsWith("x"));
  if (offersRemoval) return removals === 0 ? w.square : w.second;
  if (chosen.length === 1 && next.some((choice) => choice.token.startsWith("-"))) return w.raise;
  return chosen.length === 0 ? w.start : null;
}

/**
 * `1a1-2b2x1c1x1d1` -> `[["1a1", "-2b2", "x1c1", "x1d1"], ["1a1", "-2b2", "x1d1", "x1c1"]]`: the
 * clicks of the listed move, then, for a pair of removals, the other order when the view says
 * its second ball may be taken back first (else only the listed order works). Either order
 * plays the listed move.
 */
export function paths(text, view = null) {
  const [head, ...removals] = text.split("x");
  const base = head.split("-").map((cell, i) => (i === 0 ? cell : `-${cell}`));
  const tokens = removals.map((cell) => `x${cell}`);
  const found = [[...base, ...tokens]];
  const firsts = view?.first_removals?.[head] ?? [];
  if (removals.length === 2 && firsts.includes(removals[1])) {
    found.push([...base, tokens[1], tokens[0]]);
  }
  return found;
}

export function keyOf(token) {
  return cellOfToken(token);
}

export function labelOf(token, lang) {
  const w = words(lang);
  if (token.startsWith("x")) return `${w.remove} ${token.slice(1)}`;
  if (token.startsWith("-")) return `${w.to} ${token.slice(1)}`;
  return token;
}

/** Where a cell is drawn, from its name: level, file letter, rank (`2b3`: level 2, file 1, rank 2 from 0). */
function position(cell) {
  const level = Number(cell[0]);
  const file = cell.charCodeAt(1) - "a".charCodeAt(0);
  const rank = Number(cell.slice(2)) - 1;
  const shift = (level - 1) / 2;
  return { level, x: LEFT + PAD + (file + shift + 0.5) * D, y: PAD + (BASE - (rank + shift) - 0.5) * D };
}

/** The board as the chosen tokens would leave it (the ball being placed or raised shown). */
function pendingCells(view, tokens) {
  const cells = { ...view.cells };
  if (tokens.length === 0) return cells;
  const mover = view.to_move;
  const source = tokens[0];
  const target = tokens.find((token) => token.startsWith("-"));
  if (target) {
    delete cells[source];
    cells[target.slice(1)] = mover;
  } else {
    cells[source] = mover;
  }
  for (const token of tokens.filter((tk) => tk.startsWith("x"))) delete cells[token.slice(1)];
  return cells;
}

function ball(x, y, r, owner, level) {
  const group = svg("g", {});
  group.append(
    svg("circle", { cx: x + level * 1.5, cy: y + level * 2, r, class: "pylos-shadow" }),
    svg("circle", { cx: x, cy: y, r, class: owner === 0 ? "pylos-ball light" : "pylos-ball dark",
      fill: owner === 0 ? "url(#pylos-light)" : "url(#pylos-dark)" }),
  );
  return group;
}

function defs() {
  const gradient = (gid, inner, outer) =>
    svg("radialGradient", { id: gid, cx: "35%", cy: "30%", r: "70%" },
      svg("stop", { offset: "0%", "stop-color": inner }),
      svg("stop", { offset: "100%", "stop-color": outer }));
  return svg("defs", {}, gradient("pylos-light", "#fffaf0", "#d9b98a"),
    gradient("pylos-dark", "#8a6a55", "#2a1a12"));
}

function cellLabel(cell, owner, isFree, w) {
  if (owner === undefined) return `${cell}: ${w.empty}`;
  return `${cell}: ${w.ball[owner]}${isFree ? `, ${w.free}` : ""}`;
}

export function render(view, marks, lang) {
  const w = words(lang);
  const root = boardRoot(WIDTH, HEIGHT, w.board);
  root.append(defs());
  root.append(svg("rect", { x: LEFT + 2, y: 2, width: MAIN - 4, height: MAIN - 4, rx: 18, class: "pylos-plate" }));
  root.append(coordinates(view.levels[0]));
  const cells = pendingCells(view, marks.tokens);
  const available = new Set(view.available);
  const free = new Set(view.free);
  const pending = new Set(marks.tokens.map(cellOfToken));

  for (const cell of view.levels.flat()) {
    const { level, x, y } = position(cell);
    const owner = cells[cell];
    const isKey = marks.targets.has(cell) || marks.chosenKeys.has(cell);
    if (owner === undefined && level === 1) {
      root.append(svg("circle", { cx: x, cy: y, r: D * 0.3, class: "pylos-pit" }));
    }
    if (owner === undefined && !(isKey || (available.has(cell) && level > 1))) continue;
    const group = svg("g", { class: pending.has(cell) ? "pending" : "" });
    if (owner === undefined) {
      group.append(svg("circle", { cx: x, cy: y, r: D * 0.3, class: "pylos-hole" }));
    } else {
      group.append(ball(x, y, D * 0.47, owner, level - 1));
      if (level > 1) group.append(label(x, y + D * 0.28, String(level), "pylos-level", 11));
    }
    const extra = ring(x, y, D * 0.42, marks, cell);
    if (extra) group.append(extra);
    root.append(mark(group, cell, cellLabel(cell, owner, free.has(cell), w), marks));
  }
  root.append(explodedLevels(view.levels, cells, marks, w));
  root.append(reserves(view, w));
  return root;
}

/** A level's side, in cells: its cells come rank by rank (the view's cell order). */
const sideOf = (level) => Math.round(Math.sqrt(level.length));

/** The files under the plate and the ranks beside it, at the level-1 cells (the notation's). */
function coordinates(base) {
  const group = svg("g", { class: "coords", "aria-hidden": "true" });
  const size = sideOf(base);
  for (let i = 0; i < size; i += 1) {
    const [bottom, left] = [base[i], base[i * size]]; // rank 1 of file i, file a of rank i
    group.append(label(position(bottom).x, FILES_Y, bottom[1], "coord", 13),
      label(LEFT / 2, position(left).y, left.slice(2), "coord", 13));
  }
  return group;
}

function explodedLevels(levels, cells, marks, w) {
  const group = svg("g", { class: "pylos-levels" });
  let top = 8;
  levels.forEach((level, index) => {
    const size = sideOf(level);
    group.append(label(SIDE_X + 2 * SMALL, top + 6, `${w.level} ${index + 1}`, "small-caption", 11));
    top += 16;
    const left = SIDE_X + ((BASE - size) * SMALL) / 2;
    for (let rank = size - 1; rank >= 0; rank -= 1) {
      for (let file = 0; file < size; file += 1) {
        const cell = level[rank * size + file];
        const x = left + file * SMALL + SMALL / 2;
        const y = top + (size - 1 - rank) * SMALL + SMALL / 2;
        const owner = cells[cell];
        const dot = svg("g", {});
        dot.append(svg("circle", { cx: x, cy: y, r: SMALL * 0.42,
          class: owner === undefined ? "pylos-mini-empty" : owner === 0 ? "pylos-light" : "pylos-dark" }));
        const extra = ring(x, y, SMALL * 0.5, marks, cell);
        if (extra) dot.append(extra);
        // The same key as the big view: a click here chooses the same cell.
        dot.dataset.key = cell;
        dot.setAttribute("aria-hidden", "true");
        if (marks.targets.has(cell)) dot.classList.add("target", "mini");
        group.append(dot);
      }
    }
    top += size * SMALL + 8;
  });
  return group;
}

function reserves(view, w) {
  const group = svg("g", { class: "pylos-reserves" });
  view.reserves.forEach((count, seat) => {
    const y = RESERVES_Y + seat * 26;
    group.append(svg("text", { x: LEFT + PAD, y: y + 4, class: "caption", "dominant-baseline": "middle" },
      `${w.seats[seat]} — ${w.reserve} ${count}`));
    // Each side's balls: those in reserve, then those on the board.
    const total = count + Object.values(view.cells).filter((owner) => owner === seat).length;
    for (let i = 0; i < total; i += 1) {
      group.append(svg("circle", { cx: LEFT + PAD + 150 + i * 14, cy: y + 3, r: 5.5,
        class: i < count ? (seat === 0 ? "pylos-light" : "pylos-dark") : "pylos-mini-empty" }));
    }
  });
  return group;
}

export function facts(view, lang) {
  const w = words(lang);
  return [
    ...view.reserves.map((count, seat) => ({ label: `${w.reserve} — ${w.seats[seat]}`, value: String(count) })),
    { label: w.repetitions, value: String(view.repetitions ?? 1) },
  ];
}
