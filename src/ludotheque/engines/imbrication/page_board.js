/**
 * Imbrication board: the 8×8 board with light and dark pieces, territories shaded by owner,
 * and the round's line of nine action tiles (played, pending, known or face down).
 *
 * Clicks: a cell to place a piece (a small dot marks each legal cell, a cross each empty cell
 * where placing is forbidden); then, once the tile is revealed, the piece to act (chosen for
 * the player when only the piece just placed may act) and its landing cells one hop at a time,
 * each shown by a line from the piece ("stop here" ends a capture chain that could go on).
 * `prompt` says in words what the current step asks.
 * With the "memory" option, tiles not yet played are shown face down even when known.
 * Same interface as every page board module.
 *
 * What the game is comes from the view: the tiles' names, motions and directions
 * (`view.tile_table`), the counts of a game (`round_count`, `turns_per_round`,
 * `opening_placements_per_round`); who made each move, from the game document (`movers`).
 */

import { svg } from "../app/dom.js";
import { boardRoot, boardStyles, cellOfToken, label, mark } from "../app/boardkit.js";

await boardStyles(import.meta.url);

export const id = "imbrication";
export const hasMemoryMode = true;
// Rounds 1–3: only the piece just placed plays the tile, so the page chooses it (picker.js).
export const autoSelect = true;

const C = 58;
const PAD = 28;
const FILES = "abcdefgh";
const TILE = 62;
const TILE_GAP = 8;
const LINE_Y = PAD + 8 * C + 34;

const WORDS = {
  fr: { seats: ["Clair", "Foncé"], piece: ["pion clair", "pion foncé"], empty: "case vide",
    territory: "territoire", to: "vers", capture: "prise en", round: "Tour", tile: "Tuile à jouer",
    unknown: "tuile cachée", played: "jouée", pending: "en cours", removed: "pion retiré",
    territories: "Territoires", pieces: "Pions sur le plateau", openings: "Poses d'ouverture",
    tiles: "Tuiles jouées ce tour", line: "Ligne de tuiles du tour", board: "Plateau d'Imbrication", none: "—",
    forbidden: "pose interdite", placeHint: "Posez un pion : cliquez une case marquée d'un point (× : pose interdite).",
    pickHint: "{tile} : cliquez le pion qui joue la tuile.", landHint: "{tile} : cliquez où va le pion de {cell}.",
    againHint: "{tile} : prenez encore depuis {cell}, ou arrêtez ici." },
  en: { seats: ["Light", "Dark"], piece: ["light piece", "dark piece"], empty: "empty cell",
    territory: "territory", to: "to", capture: "capture landing on", round: "Round", tile: "Tile to play",
    unknown: "face-down tile", played: "played", pending: "pending", removed: "piece removed",
    territories: "Territories", pieces: "Pieces on the board", openings: "Opening placements",
    tiles: "Tiles played this round", line: "Tile line of the round", board: "Imbrication board", none: "—",
    forbidden: "placement forbidden", placeHint: "Place a piece: click a cell with a dot (×: placement forbidden).",
    pickHint: "{tile}: click the piece that plays the tile.", landHint: "{tile}: click where the piece on {cell} lands.",
    againHint: "{tile}: capture again from {cell}, or stop here." },
};
const words = (lang) => WORDS[lang] || WORDS.en;
const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A tile's name in `lang`, as the view's tile table gives it (the id when it lacks one). */
function tileName(view, tile, lang) {
  const facts = view.tile_table?.[tile];
  return capitalised(facts?.[lang] ?? facts?.en ?? tile);
}

export function seatName(seat, players, lang) {
  return words(lang).seats[seat] ?? `#${seat + 1}`;
}

/** The scores in words: each side's territory cells (every ending compares territory first). */
export function scoreText(result, lang) {
  const w = words(lang);
  const scores = result.scores ?? [];
  // Equal scores say nothing the reason does not (a tie broken by pieces, a draw).
  if (scores.length !== 2 || scores[0] === scores[1]) return null;
  return scores.map((score, seat) => `${w.seats[seat]} ${score}`).join(", ");
}

/** `d4xf6xd8` -> `["d4", "xf6", "xd8"]`; `d4-d7` -> `["d4", "-d7"]`; `d4` -> `["d4"]`. */
export function paths(text) {
  const tokens = text.match(/^[a-h][1-8]|[-x][a-h][1-8]/g) ?? [text];
  return [tokens];
}

export function keyOf(token) {
  return cellOfToken(token);
}

export function labelOf(token, lang) {
  const w = words(lang);
  if (token.startsWith("-")) return `${w.to} ${token.slice(1)}`;
  if (token.startsWith("x")) return `${w.capture} ${token.slice(1)}`;
  return token;
}

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
const isPlacing = (view) => view.phase === "opening" || view.phase === "place";

/** What the current step asks, in words (shown above the move form). */
export function prompt(view, chosen, { complete = null, lang = "en" } = {}) {
  const w = words(lang);
  if (isPlacing(view)) return w.placeHint;
  if (view.phase !== "act") return null;
  const tile = view.current_tile ? tileName(view, view.current_tile, lang) : "";
  if (chosen.length === 0) return fill(w.pickHint, { tile });
  const cell = cellOfToken(chosen.at(-1));
  return fill(complete ? w.againHint : w.landHint, { tile, cell });
}

function centre(file, rank) {
  return { x: PAD + file * C + C / 2, y: PAD + (7 - rank) * C + C / 2 };
}

/** Where the chosen tokens put the moving piece (for showing the move being built). */
function pending(view, tokens) {
  const cells = { ...view.cells };
  if (tokens.length === 0) return cells;
  const start = tokens[0];
  if (tokens.length === 1 && !cells[start] && cells[start] !== 0) return cells;
  let at = start;
  for (const token of tokens.slice(1)) {
    const next = token.slice(1);
    cells[next] = cells[at];
    delete cells[at];
    at = next;
  }
  return cells;
}

export function render(view, marks, lang) {
  const w = words(lang);
  const width = Math.max(8 * C + 2 * PAD, lineWidth(view.line ?? []) + 2 * PAD);
  const root = boardRoot(width, LINE_Y + TILE + 44, w.board);
  const offset = (width - (8 * C + 2 * PAD)) / 2;
  const boardGroup = svg("g", { transform: `translate(${offset} 0)` });
  boardGroup.append(svg("rect", { x: PAD - 6, y: PAD - 6, width: 8 * C + 12, height: 8 * C + 12, rx: 10, class: "imb-frame" }));
  const territory = new Map();
  (view.territories ?? []).forEach((regions, owner) => regions.flat().forEach((cell) => territory.set(cell, owner)));
  const cells = pending(view, marks.tokens);
  // What a highlighted cell means: a place to put a piece, a piece to act, or a landing.
  const style = isPlacing(view) ? "place" : marks.tokens.length > 0 ? "land" : "piece";
  const context = { cells, territory, marks, w, style, isMover: marks.targets.size > 0 };
  for (let rank = 0; rank < 8; rank += 1) {
    for (let file = 0; file < 8; file += 1) boardGroup.append(cellElement(file, rank, context));
  }
  if (style === "land") boardGroup.append(landingPaths(marks));
  for (let i = 0; i < 8; i += 1) {
    boardGroup.append(label(PAD + i * C + C / 2, PAD + 8 * C + 16, FILES[i], "coord", 12));
    boardGroup.append(label(PAD - 16, PAD + (7 - i) * C + C / 2, String(i + 1), "coord", 12));
  }
  root.append(boardGroup, tileLine(view, marks.memory, lang, width));
  return root;
}

function cellElement(file, rank, { cells, territory, marks, w, style, isMover }) {
  const name = `${FILES[file]}${rank + 1}`;
  const { x, y } = centre(file, rank);
  const group = svg("g", {});
  const owner = territory.get(name);
  group.append(svg("rect", { x: x - C / 2, y: y - C / 2, width: C, height: C,
    class: `imb-cell ${(file + rank) % 2 ? "odd" : "even"}${owner !== undefined ? ` territory-${owner}` : ""}` }));
  // The last move: a square on the cell (a dot would read as a dark piece's mark).
  if (marks.lastKeys.has(name)) {
    group.append(svg("rect", { x: x - C / 2 + 3, y: y - C / 2 + 3, width: C - 6, height: C - 6, rx: 6,
      class: "ring-last-square" }));
  }
  const piece = cells[name];
  let text = `${name}: `;
  if (piece === 0 || piece === 1) {
    group.append(svg("circle", { cx: x, cy: y, r: C * 0.36, class: `imb-piece p${piece}` }));
    // A second cue besides the shade: a dot on the dark pieces.
    if (piece === 1) group.append(svg("circle", { cx: x, cy: y, r: 4, class: "imb-dot" }));
    text += w.piece[piece];
  } else {
    text += w.empty;
    if (owner !== undefined) {
      group.append(label(x, y, owner === 0 ? "○" : "●", "imb-territory-mark", 14));
      text += `, ${w.territory} ${w.seats[owner]}`;
    }
  }
  if (marks.chosenKeys.has(name)) {
    group.append(svg("circle", { cx: x, cy: y, r: C * 0.42, class: "ring-chosen" }));
  } else if (marks.targets.has(name)) {
    group.append(...targetMarks(x, y, style));
  } else if (style === "place" && isMover && piece !== 0 && piece !== 1) {
    // An empty cell the mover may not place on (both neighbours of a line are the opponent's).
    group.append(label(x, y, "×", "imb-forbidden", 20));
    text += `, ${w.forbidden}`;
  }
  return mark(group, name, text, marks);
}

/** A piece to act gets a ring; a cell to place on or land on, a dot (a ring when pointed at). */
function targetMarks(x, y, style) {
  if (style === "piece") return [svg("circle", { cx: x, cy: y, r: C * 0.42, class: "ring-target" })];
  const dot = svg("circle", { cx: x, cy: y, r: style === "land" ? C * 0.17 : C * 0.1, class: `imb-spot ${style}` });
  return [svg("circle", { cx: x, cy: y, r: C * 0.42, class: "imb-hover-ring" }), dot];
}

/** Lines from the moving piece to each landing cell (over a captured piece for a capture). */
function landingPaths(marks) {
  const group = svg("g", { class: "imb-paths", "aria-hidden": "true" });
  const from = cellOfToken(marks.tokens.at(-1));
  const start = centre(FILES.indexOf(from[0]), Number(from[1]) - 1);
  for (const key of marks.targets) {
    const end = centre(FILES.indexOf(key[0]), Number(key[1]) - 1);
    group.append(svg("line", { x1: start.x, y1: start.y, x2: end.x, y2: end.y, class: "imb-path" }));
  }
  return group;
}

const lineWidth = (line) => line.length * (TILE + TILE_GAP) - TILE_GAP;

function tileLine(view, memory, lang, width) {
  const w = words(lang);
  const group = svg("g", { class: "imb-line", role: "list", "aria-label": `${w.line} ${view.round}` });
  const line = view.line ?? [];
  const played = view.tiles_played ?? 0;
  const left = (width - lineWidth(line)) / 2;
  group.append(svg("text", { x: left, y: LINE_Y - 12, class: "caption" }, `${w.round} ${view.round ?? 1} / ${view.round_count}`));
  for (let index = 0; index < line.length; index += 1) {
    const isPending = view.current_tile && index === played - 1 && view.phase !== "place";
    const isPlayed = index < played && !isPending;
    // Memory mode: a tile not yet drawn is shown face down, as on the table.
    const tile = memory && index >= played ? null : line[index] ?? null;
    const x = left + index * (TILE + TILE_GAP);
    const state = isPending ? "pending" : isPlayed ? "played" : "upcoming";
    const tileGroup = svg("g", { class: `imb-tile ${state}`, role: "listitem" });
    tileGroup.append(svg("rect", { x, y: LINE_Y, width: TILE, height: TILE, rx: 8, class: tile ? "face" : "back" }));
    if (tile) {
      tileGroup.append(tileIcon(view.tile_table?.[tile], x + TILE / 2, LINE_Y + TILE / 2));
    } else {
      tileGroup.append(label(x + TILE / 2, LINE_Y + TILE / 2, "?", "imb-back-mark", 24));
    }
    // The name on two lines under the tile, so that long names never overlap their neighbours.
    const [first, ...rest] = (tile ? shortName(view, tile, lang) : "").split(" ");
    tileGroup.append(label(x + TILE / 2, LINE_Y + TILE + 11, first, "imb-tile-name", 10));
    if (rest.length) tileGroup.append(label(x + TILE / 2, LINE_Y + TILE + 23, rest.join(" "), "imb-tile-name", 10));
    const status = isPending ? w.pending : isPlayed ? w.played : "";
    const name = tile ? tileName(view, tile, lang) : w.unknown;
    tileGroup.setAttribute("aria-label", `${index + 1}: ${name}${status ? ` (${status})` : ""}`);
    tileGroup.prepend(svg("title", {}, `${index + 1}: ${name}${status ? ` (${status})` : ""}`));
    group.append(tileGroup);
  }
  return group;
}

/** The name under a tile: orthogonal is the plain case, so it goes unsaid; diagonal shortens. */
function shortName(view, tile, lang) {
  return capitalised(tileName(view, tile, lang)
    .replace(/ orthogonale?\b|\borthogonal /i, "")
    .replace(/\bdiagonale?\b/i, "diag."));
}

/**
 * Arrows in the tile's directions (`facts` from the view's tile table, directions as file and
 * rank steps); long ones for slides and long captures; a ring to jump over; a circle when blank.
 */
function tileIcon(facts, cx, cy) {
  const group = svg("g", { class: "imb-icon", "aria-hidden": "true" });
  const directions = facts?.directions ?? [];
  if (directions.length === 0) {
    group.append(svg("circle", { cx, cy, r: 12, class: "imb-blank" }));
    return group;
  }
  const long = facts.motion === "slide" || facts.motion === "long_capture";
  const capture = facts.motion === "short_capture" || facts.motion === "long_capture";
  const length = long ? 25 : 15;
  for (const [file, rank] of directions) {
    const [dx, dy] = [file, -rank];  // a rank up is up the page
    const scale = 1 / Math.hypot(dx, dy);
    const ex = cx + dx * length * scale;
    const ey = cy + dy * length * scale;
    group.append(svg("line", { x1: cx, y1: cy, x2: ex, y2: ey, class: "imb-arrow" }));
    const head = 5;
    const angle = Math.atan2(dy, dx);
    const p1 = `${ex - head * Math.cos(angle - 0.5)},${ey - head * Math.sin(angle - 0.5)}`;
    const p2 = `${ex - head * Math.cos(angle + 0.5)},${ey - head * Math.sin(angle + 0.5)}`;
    group.append(svg("polygon", { points: `${ex},${ey} ${p1} ${p2}`, class: "imb-head" }));
    if (capture) {
      const mx = cx + dx * length * scale * 0.55;
      const my = cy + dy * length * scale * 0.55;
      group.append(svg("circle", { cx: mx, cy: my, r: 3.5, class: "imb-victim" }));
    }
  }
  group.append(svg("circle", { cx, cy, r: 4, class: "imb-origin" }));
  return group;
}

export function facts(view, lang, options = {}) {
  const w = words(lang);
  const current = view.current_tile ? tileName(view, view.current_tile, lang) : w.none;
  const list = [
    { label: w.round, value: `${view.round ?? 1} / ${view.round_count}` },
    { label: w.tile, value: current },
    { label: w.tiles, value: `${view.tiles_played ?? 0} / ${view.turns_per_round}` },
    { label: w.openings, value: `${view.opening_placements ?? 0} / ${view.opening_placements_per_round}` },
    { label: w.territories, value: (view.scores ?? [0, 0]).map((score, seat) => `${w.seats[seat]} ${score}`).join(" · ") },
    { label: w.pieces, value: (view.pieces ?? [0, 0]).map((count, seat) => `${w.seats[seat]} ${count}`).join(" · ") },
  ];
  void options;
  return list;
}
