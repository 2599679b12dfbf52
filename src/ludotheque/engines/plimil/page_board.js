/**
 * Plimil board: the 44-cell disc, each block with the colour it shows (and its letter B, R or
 * N), each stem's height as the reader knows it (S short, T tall, ? hidden), and beside each
 * block the balls the reader knows, slot by slot (bottom, middle, top; the window slot framed).
 * The "memory" option hides what the real board does not show right now: stems under blocks
 * and every ball but the one in the window.
 *
 * Clicks: a block, its landing cell, then the capture (a click on the captured block) or the
 * rotation (a button). The setup is chosen stem by stem and ball by ball with buttons, or at
 * random. Only the document's `view` is drawn: nothing the reader may not know, and no rule
 * of the game copied here (the view names each cell's zone, where its window is, the draw's
 * limit). Same interface as every page board module.
 */

import { svg } from "../app/dom.js";
import { boardRoot, boardStyles, cellOfToken, label, mark, squareRing, turner } from "../app/boardkit.js";

await boardStyles(import.meta.url);

export const id = "plimil";
export const hasMemoryMode = true;

const C = 64;
// Wide enough that the disc (radius 4.35 cells) leaves the rank numbers and file letters clear.
const PAD = 50;
const FILES = "abcdefgh";
const COLOURS = { B: "#0072B2", R: "#D55E00", N: "#F0E442" };
const TEXT_ON = { B: "#ffffff", R: "#ffffff", N: "#2b2118" };
const SLOT_NAMES = ["bottom", "middle", "top"];

// The shading of each zone the view names (`board[i].zone`): its class in the style sheet.
const ZONE_CLASS = {
  blue_wedge: "blue", red_wedge: "red", blue_diagonal: "blueDiagonal", red_diagonal: "redDiagonal",
  west_wedge: "west", east_wedge: "east", centre: "centre",
};

const WORDS = {
  fr: {
    seats: ["Bleu", "Rouge"], colours: { B: "bleu", R: "rouge", N: "neutre" }, stem: { S: "tige courte", T: "tige haute" },
    unknownStem: "tige inconnue", block: "bloc", of: "de", empty: "case libre", balls: "billes connues (bas, milieu, haut)",
    slots: { bottom: "bas", middle: "milieu", top: "haut" }, to: "vers", capture: "prendre", cw: "tourner le plateau (sens horaire)",
    ccw: "tourner le plateau (sens antihoraire)", pass: "passer", counts: "Blocs bleus · rouges · neutres",
    quiet: "Coups sans changement de couleur", repetitions: "Répétitions", rotation: "Quarts de tour du plateau",
    setup: "Préparation", hand: "Billes restantes (B · R · N)", flips: "retourné", board: "Plateau de Plimil",
    stemsToPlant: "tiges à planter", builds: "bloc à construire en", blocks: "blocs :",
  },
  en: {
    seats: ["Blue", "Red"], colours: { B: "blue", R: "red", N: "neutral" }, stem: { S: "short stem", T: "tall stem" },
    unknownStem: "unknown stem", block: "block", of: "of", empty: "free cell", balls: "known balls (bottom, middle, top)",
    slots: { bottom: "bottom", middle: "middle", top: "top" }, to: "to", capture: "capture", cw: "turn the board clockwise",
    ccw: "turn the board anticlockwise", pass: "pass", counts: "Blocks blue · red · neutral",
    quiet: "Moves without a colour change", repetitions: "Repetitions", rotation: "Quarter turns of the board",
    setup: "Setup", hand: "Balls left (B · R · N)", flips: "turned over", board: "Plimil board",
    stemsToPlant: "stems to plant", builds: "block to build on", blocks: "blocks:",
  },
};
const words = (lang) => WORDS[lang] || WORDS.en;

export function seatName(seat, players, lang) {
  return words(lang).seats[seat] ?? `#${seat + 1}`;
}

export function seatBadge(seat) {
  return ["B", "R"][seat] ?? String(seat + 1);
}

// The endings of the rules file, whose scores are the blocks showing each colour.
const COUNTED_ENDINGS = new Set(["rule_of_7", "two_passes", "repetition", "hundred_plies"]);

/** The scores in words: how many blocks show each player's colour. */
export function scoreText(result, lang) {
  const w = words(lang);
  const scores = result.scores ?? [];
  // Only the rules' endings count blocks; a resignation's or a timeout's scores are won/lost (±1).
  if (!COUNTED_ENDINGS.has(result.reason)) return null;
  // Equal scores say nothing the reason does not (a tie broken by pieces, a draw).
  if (scores.length !== 2 || scores[0] === scores[1]) return null;
  return `${w.blocks} ${scores.map((score, seat) => `${w.seats[seat]} ${score}`).join(", ")}`;
}

/** The cells a player plants, in board order (the order of the `stems` letters). */
function plantedCells(view, player) {
  return (view?.board ?? []).filter((entry) => entry.planted_by === player).map((entry) => entry.cell);
}

/**
 * Play moves split into clicks (`d3-d4xe4` -> `["d3", "-d4", "xe4"]`, `@cw` a button); setup
 * moves into one choice per stem (`d1:S`) or per ball (`bottom:B`).
 */
export function paths(text, view) {
  if (text === "pass") return [["pass"]];
  if (text.startsWith("stems ")) {
    const cells = plantedCells(view, view?.setup?.player ?? view?.to_move);
    const letters = [...text.slice(6)];
    return [letters.map((letter, i) => `${cells[i] ?? `#${i + 1}`}:${letter}`)];
  }
  if (text.startsWith("block ")) {
    const balls = text.split(" ")[2];
    return [[...balls].map((ball, i) => `${SLOT_NAMES[i]}:${ball}`)];
  }
  const match = text.match(/^([a-h][1-8])-([a-h][1-8])(?:(x[a-h][1-8])|(@c?cw))?$/);
  if (!match) return [[text]];
  return [[match[1], `-${match[2]}`, match[3] ?? match[4]].filter(Boolean)];
}

export function keyOf(token) {
  return /^[-x]?[a-h][1-8]$/.test(token) ? cellOfToken(token) : null;
}

export function labelOf(token, lang) {
  const w = words(lang);
  if (token === "pass") return w.pass;
  if (token === "@cw") return `↻ ${w.cw}`;
  if (token === "@ccw") return `↺ ${w.ccw}`;
  if (token.startsWith("-")) return `${w.to} ${token.slice(1)}`;
  if (token.startsWith("x")) return `${w.capture} ${token.slice(1)}`;
  const [what, letter] = token.split(":");
  if (letter === "S" || letter === "T") return `${what}: ${w.stem[letter]} (${letter})`;
  if (w.slots[what]) return `${w.slots[what]}: ${w.colours[letter]} (${letter})`;
  return token;
}

/** Stand-ins for the choices made so far in the setup, drawn before they are played. */
function pendingSetup(view, tokens) {
  const stems = new Map();
  let balls = null;
  for (const token of tokens) {
    const [what, letter] = token.split(":");
    if (letter === "S" || letter === "T") stems.set(what, letter);
    else if (SLOT_NAMES.includes(what)) (balls ??= [null, null, null])[SLOT_NAMES.indexOf(what)] = letter;
  }
  return { stems, balls, cell: view.setup?.cell ?? null };
}

export function render(view, marks, lang) {
  const w = words(lang);
  const size = 8 * C + 2 * PAD;
  const turn = turner(size, size, marks.turn ?? 0);
  const root = boardRoot(size, size, w.board);
  root.append(svg("circle", { cx: size / 2, cy: size / 2, r: 4.35 * C, class: "plimil-disc" }));
  const setup = pendingSetup(view, marks.tokens);
  for (const entry of view.board) root.append(cellElement(view, entry, setup, marks, w, turn));
  for (let i = 0; i < 8; i += 1) {
    root.append(label(...turn.point(PAD + i * C + C / 2, size - 12), FILES[i], "coord", 13));
    root.append(label(...turn.point(14, PAD + (7 - i) * C + C / 2), String(i + 1), "coord", 13));
  }
  return root;
}

function cellElement(view, entry, setup, marks, w, turn) {
  const name = entry.cell;
  const [x, y] = turn.cell(PAD + FILES.indexOf(name[0]) * C, PAD + (8 - Number(name[1])) * C, C);
  const group = svg("g", {});
  const zone = ZONE_CLASS[entry.zone] ?? "none";
  group.append(svg("rect", { x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 10, class: `plimil-cell zone-${zone}` }));
  const block = entry.block;
  const memory = marks.memory;
  // Memory mode shows a stem only where no block hides it, as on the real board.
  let stem = setup.stems.get(name) ?? entry.stem;
  if (memory && block) stem = null;
  group.append(stemMark(x, y, stem));
  let text = `${name}: `;
  if (block) {
    const balls = setup.cell === name && setup.balls ? setup.balls : block.balls;
    group.append(blockShape(x, y, block, turn.quarter === 2));
    if (!memory) group.append(ballColumn(x, y, balls, entry.window));
    text += `${w.block} ${w.colours[block.colour]} (${block.colour}) ${w.of} ${w.seats[block.owner]}`;
    if (block.flips) text += `, ${w.flips} ${block.flips}×`;
    if (!memory) text += `; ${w.balls}: ${balls.map((ball) => ball ?? "?").join(" ")}`;
  } else if (setup.cell === name && setup.balls) {
    group.append(ballColumn(x, y, setup.balls, entry.window));
    text += w.empty;
  } else {
    text += w.empty;
  }
  text += `; ${stem ? w.stem[stem] : w.unknownStem}`;
  // Square rings along the cell's edge: nothing drawn on the cell (letters, balls) is crossed.
  const extra = squareRing(x, y, C, marks, name);
  if (extra) group.append(extra);
  if (setup.cell === name) group.append(squareRing(x, y, C, { ...marks, chosenKeys: new Set([name]) }, name));
  return mark(group, name, text, marks);
}

function stemMark(x, y, stem) {
  const group = svg("g", { class: "plimil-stem" });
  group.append(svg("rect", { x: x + 5, y: y + C - 21, width: 16, height: 16, rx: 3, class: `stem-box stem-${stem ?? "unknown"}` }));
  group.append(label(x + 13, y + C - 13, stem ?? "?", "stem-letter", 11));
  return group;
}

function blockShape(x, y, block, turned) {
  const group = svg("g", { class: "plimil-block" });
  const colour = block.colour;
  group.append(svg("rect", { x: x + 10, y: y + 8, width: 34, height: 34, rx: 7, fill: COLOURS[colour] ?? "#999", class: `block-body owner-${block.owner}` }));
  const letter = label(x + 27, y + 25, colour, "piece-letter", 18);
  letter.style.fill = TEXT_ON[colour] ?? "#000";
  group.append(letter);
  // The owner: a notch on the side of the owner's camp (Blue below, Red above; the other way
  // round on a board turned for Red).
  const notchY = (block.owner === 0) !== turned ? y + 44 : y + 2;
  group.append(svg("rect", { x: x + 19, y: notchY, width: 16, height: 4, rx: 2, class: "owner-notch" }));
  return group;
}

/** The balls bottom to top, the one in the window (`windowSlot`: its slot, or null) framed. */
function ballColumn(x, y, balls, windowSlot) {
  const group = svg("g", { class: "plimil-balls", "aria-hidden": "true" });
  // Top slot drawn highest.
  [2, 1, 0].forEach((slot, row) => {
    const ball = balls[slot];
    const cx = x + 52;
    const cy = y + 12 + row * 14;
    group.append(svg("circle", { cx, cy, r: 6, fill: ball ? COLOURS[ball] : "#ffffff", class: `ball${slot === windowSlot ? " window" : ""}${ball ? "" : " unknown"}` }));
    group.append(label(cx, cy + 0.5, ball ?? "?", "ball-letter", 8));
    group.lastChild.style.fill = ball ? TEXT_ON[ball] : "#6f6354";
  });
  return group;
}

/** Red reads the board turned half a turn: their camp at the bottom. */
export function readerTurn(view, seat) {
  return seat === 1 ? 2 : 0;
}

export function randomChoice(view) {
  return view.phase === "setup";
}

export function facts(view, lang) {
  const w = words(lang);
  const counts = view.counts ?? {};
  const list = [
    { label: w.counts, value: `${counts.blue ?? 0} · ${counts.red ?? 0} · ${counts.neutral ?? 0}` },
    { label: w.quiet, value: `${view.draw?.quiet_plies ?? 0} / ${view.quiet_limit}` },
    { label: w.repetitions, value: String(view.draw?.repetitions ?? 1) },
    { label: w.rotation, value: String(view.rotation ?? 0) },
  ];
  if (view.setup) {
    const step = view.setup.next === "stems" || !view.setup.cell ? w.stemsToPlant : `${w.builds} ${view.setup.cell}`;
    list.push({ label: w.setup, value: `${w.seats[view.setup.player]} — ${step}` });
  }
  const hand = typeof view.viewer === "number" ? view.hands?.[view.viewer] : null;
  if (hand) list.push({ label: w.hand, value: hand.join(" · ") });
  return list;
}
