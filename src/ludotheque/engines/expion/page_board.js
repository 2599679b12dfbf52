/**
 * Ex*Pion board: the grid of the view's `layout` (camps on the edges, the play area, the
 * special cells), marbles with their camp's letter and a shape per team (circles for the view's
 * first team, North–South; squares for the second, East–West), and the EX*PION as a star.
 *
 * What the game decides comes from the view: the board's shape (`layout`, `special_cells`),
 * who holds which camp (`holders`, in turn order) and the teams (`teams`). The seat names read
 * the seating from the view the page passes, else from the last view this module was given.
 *
 * Clicks: a marble, then its destination (pushing the EX*PION is a click on it).
 * Same interface as every page board module.
 */

import { svg } from "../app/dom.js";
import { boardRoot, boardStyles, cellOfToken, label, mark, squareRing, turner } from "../app/boardkit.js";

await boardStyles(import.meta.url);

export const id = "expion";

const C = 56; // cell size
const PAD = 30;
const FILES = "abcdefghijklmnopqrstuvwxyz"; // the notation's files, from the left

// Okabe–Ito colours by camp; the letter on each marble and its team's shape carry the same facts.
const CAMP_COLOURS = {
  N: { fill: "#0072B2", text: "#ffffff" },
  S: { fill: "#009E73", text: "#ffffff" },
  E: { fill: "#E69F00", text: "#2b2118" },
  W: { fill: "#CC79A7", text: "#2b2118" },
};
const TEAM_SHAPES = ["circle", "square"]; // by the team's place in the view's `teams`

const WORDS = {
  fr: {
    camps: { N: "Nord", E: "Est", S: "Sud", W: "Ouest" }, letters: { N: "N", E: "E", S: "S", W: "O" },
    marble: "bille", expion: "EX*PION", special: "case spéciale", camp: "camp", empty: "case vide",
    to: "vers", toMove: "Camp au trait", marbles: "Billes", firstCapture: "Première prise faite",
    quiet: "Coups sans prise ni poussée", eliminated: "Éliminés", yes: "oui", no: "non",
    board: "Plateau d'Ex*Pion", and: " et ", teams: "Équipes", you: "vous", against: "contre",
  },
  en: {
    camps: { N: "North", E: "East", S: "South", W: "West" }, letters: { N: "N", E: "E", S: "S", W: "W" },
    marble: "marble", expion: "EX*PION", special: "special cell", camp: "camp", empty: "empty cell",
    to: "to", toMove: "Camp to move", marbles: "Marbles", firstCapture: "First capture made",
    quiet: "Moves without capture or push", eliminated: "Eliminated", yes: "yes", no: "no",
    board: "Ex*Pion board", and: " and ", teams: "Teams", you: "you", against: "against",
  },
};
const words = (lang) => WORDS[lang] || WORDS.en;

// The last view this module was given (`paths`, `render`, `facts`): a page that names seats
// with the player count alone (`seatName(seat, players, lang)`) still gets the view's seating.
let lastView = null;

function remember(view) {
  if (view?.holders) lastView = view;
}

// Who holds each camp by player count, as the rules seat them: a page with no game yet (the
// lobby's form) names the seats from it; a game's view says the same in its `holders`.
const SEATING = {
  2: { N: 0, E: 1, S: 0, W: 1 },
  3: { N: 0, E: 1, S: 0, W: 2 },
  4: { N: 0, E: 1, S: 2, W: 3 },
};

/** The camps `seat` holds, in turn order, as the view's `holders` say (else the rules' seating). */
function campsOf(seat, view, players) {
  const holders = view?.holders ?? SEATING[players] ?? {};
  return Object.entries(holders).filter(([, holder]) => holder === seat).map(([camp]) => camp);
}

export function seatName(seat, players, lang, view = lastView) {
  const w = words(lang);
  return campsOf(seat, view, players).map((camp) => w.camps[camp]).join(w.and) || `#${seat + 1}`;
}

export function seatBadge(seat, players, lang, view = lastView) {
  const w = words(lang);
  return campsOf(seat, view, players).map((camp) => w.letters[camp]).join("") || String(seat + 1);
}

const SEATING_NOTES = {
  fr: "À 3 joueurs, Nord et Sud jouent 2 tours sur 4 avec leurs 14 billes, Est et Ouest chacun 1 avec ses 7 : "
    + "à force égale, Nord et Sud gagnent presque toujours. Donnez-les au joueur le moins fort.",
  en: "With 3 players, North and South move on 2 turns of 4 with their 14 marbles, East and West on 1 each "
    + "with their 7: at equal strength North and South nearly always win. Give them to the weaker player.",
};

/** What the lobby's form says under the seats for `players` (null: nothing to say). */
export function seatingNote(players, lang) {
  return players === 3 ? SEATING_NOTES[lang] ?? SEATING_NOTES.en : null;
}

/** In the move list, a seat by its camps' letters (four camps to a line). */
export const moverName = seatBadge;

/**
 * Who made each move, when the server does not say: the camps in turn order, which is the order
 * of the view's `holders`. Exact until a camp is skipped (an eliminated player, a camp with no move).
 */
export function movers(moves, players, view = lastView) {
  const holders = Object.values(view?.holders ?? {});
  return moves.map((_, index) => (holders.length > 0 ? holders[index % holders.length] : index % players));
}

// Quarter turns (clockwise) that bring a camp's side to the bottom of the board (South's is).
const CAMP_TURNS = { S: 0, E: 1, N: 2, W: 3 };

/** The board turned so that the reader's first camp is at the bottom (South's board unturned). */
export function readerTurn(view, seat) {
  const camps = campsOf(seat, view);
  if (camps.length === 0 || camps.includes("S")) return 0;
  return CAMP_TURNS[camps[0]] ?? 0;
}

/**
 * The teams in words, to the reader: "you and South against East and West" (a player holding a
 * team's two camps: "you (North and South) against ..."); to a spectator, "North and South
 * against East and West". Null where the view names no two teams.
 */
export function teamsText(view, seat, lang) {
  const w = words(lang);
  const teams = (view?.teams ?? []).map((team) => team.camps);
  if (teams.length !== 2 || teams.some((camps) => camps.length === 0)) return null;
  const names = (camps) => camps.map((camp) => w.camps[camp]).join(w.and);
  const mine = typeof seat === "number" ? campsOf(seat, view) : [];
  const own = teams.findIndex((camps) => camps.some((camp) => mine.includes(camp)));
  if (own < 0) return `${names(teams[0])} ${w.against} ${names(teams[1])}`;
  const partners = teams[own].filter((camp) => !mine.includes(camp));
  const us = partners.length > 0 ? `${w.you}${w.and}${names(partners)}` : `${w.you} (${names(teams[own])})`;
  return `${us} ${w.against} ${names(teams[1 - own])}`;
}

/** A move that took marbles (Ex*Pion writes no capture in its notation): fewer marbles after it. */
export function isCapture(text, before, after) {
  const total = (view) => Object.values(view?.marbles ?? {}).reduce((sum, count) => sum + count, 0);
  return Boolean(before?.marbles && after?.marbles) && total(after) < total(before);
}

export function paths(text, view = null) {
  remember(view);
  const [from, to] = text.split("-");
  return [[from, `-${to}`]];
}

export function keyOf(token) {
  return cellOfToken(token);
}

export function labelOf(token, lang) {
  return token.startsWith("-") ? `${words(lang).to} ${token.slice(1)}` : token;
}

export function render(view, marks, lang) {
  remember(view);
  const w = words(lang);
  const ranks = view.layout.length;
  const files = Math.max(...view.layout.map((row) => row.length));
  const width = files * C + 2 * PAD;
  const height = ranks * C + 2 * PAD;
  const turn = turner(width, height, marks.turn ?? 0);
  const root = boardRoot(turn.width, turn.height, w.board);
  root.append(svg("rect", { ...turn.rect(PAD - 8, PAD - 8, files * C + 16, ranks * C + 16), rx: 16, class: "expion-frame" }));
  const board = {
    view,
    specials: new Set(view.special_cells ?? []),
    teamOf: Object.fromEntries((view.teams ?? []).flatMap((team, index) => team.camps.map((camp) => [camp, index]))),
    marks,
    w,
    turn,
  };
  view.layout.forEach((row, rowIndex) => {
    const rank = ranks - 1 - rowIndex;
    [...row].forEach((code, file) => {
      if (code === " ") return;
      const [x, y] = turn.cell(PAD + file * C, PAD + rowIndex * C, C);
      const cell = { name: `${FILES[file]}${rank + 1}`, x, y };
      root.append(cellElement(board, code, cell));
    });
  });
  // Coordinates beside the files and ranks, wherever the turn puts them.
  for (let i = 0; i < files; i += 1) {
    root.append(label(...turn.point(PAD + i * C + C / 2, height - PAD / 2 + 2), FILES[i], "coord", 12));
  }
  for (let i = 0; i < ranks; i += 1) {
    root.append(label(...turn.point(PAD / 2 - 2, PAD + (ranks - 1 - i) * C + C / 2), String(i + 1), "coord", 12));
  }
  return root;
}

function cellElement({ view, specials, teamOf, marks, w }, code, { name, x, y }) {
  const group = svg("g", {});
  const camp = code in (view.holders ?? {}) ? code : null;
  const special = specials.has(name);
  const background = camp ? `expion-camp camp-${camp}` : special ? "expion-special" : "expion-play";
  group.append(svg("rect", { x: x + 1, y: y + 1, width: C - 2, height: C - 2, rx: 5, class: background }));
  if (special) {
    const cx = x + C / 2;
    const cy = y + C / 2;
    group.append(svg("path", { d: `M${cx} ${cy - 14} L${cx + 14} ${cy} L${cx} ${cy + 14} L${cx - 14} ${cy} Z`, class: "expion-special-mark" }));
  }
  const marble = view.cells[name];
  let text = `${name}: `;
  if (view.expion === name) {
    group.append(expionPiece(x + C / 2, y + C / 2));
    text += w.expion;
  } else if (marble) {
    group.append(marblePiece(x + C / 2, y + C / 2, marble, TEAM_SHAPES[teamOf[marble]], w));
    text += `${w.marble} ${w.camps[marble]}`;
  } else {
    text += camp ? `${w.camp} ${w.camps[camp]}, ${w.empty}` : special ? w.special : w.empty;
  }
  const extra = squareRing(x, y, C, marks, name);
  if (extra) group.append(extra);
  return mark(group, name, text, marks);
}

function marblePiece(cx, cy, camp, shapeName, w) {
  const colours = CAMP_COLOURS[camp];
  const r = C * 0.36;
  const shape = shapeName === "square"
    ? svg("rect", { x: cx - r * 0.92, y: cy - r * 0.92, width: 1.84 * r, height: 1.84 * r, rx: 7, fill: colours.fill, class: "expion-marble" })
    : svg("circle", { cx, cy, r, fill: colours.fill, class: "expion-marble" });
  const group = svg("g", {});
  group.append(shape, label(cx, cy + 1, w.letters[camp], "piece-letter", 17));
  group.lastChild.style.fill = colours.text;
  return group;
}

function expionPiece(cx, cy) {
  const group = svg("g", { class: "expion-piece" });
  group.append(svg("circle", { cx, cy, r: C * 0.4, class: "expion-disc" }));
  const points = [];
  for (let i = 0; i < 16; i += 1) {
    const radius = i % 2 === 0 ? C * 0.3 : C * 0.12;
    const angle = (Math.PI * i) / 8 - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  group.append(svg("polygon", { points: points.join(" "), class: "expion-star" }));
  return group;
}

export function facts(view, lang) {
  remember(view);
  const w = words(lang);
  const marbles = Object.entries(view.marbles ?? {}).map(([camp, count]) => `${w.letters[camp]} ${count}`).join(" · ");
  const list = [
    { label: w.toMove, value: view.camp_to_move ? w.camps[view.camp_to_move] : "—" },
    { label: w.marbles, value: marbles },
    { label: w.firstCapture, value: view.first_capture ? w.yes : w.no },
    { label: w.quiet, value: `${view.quiet_moves} / ${view.quiet_limit}` },
  ];
  if ((view.eliminated ?? []).length > 0) {
    list.push({ label: w.eliminated, value: view.eliminated.map((seat) => seatName(seat, view.players, lang, view)).join(", ") });
  }
  return list;
}
