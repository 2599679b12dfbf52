/**
 * Ex*Pion board: the 9×9 grid of the view's `layout` (camps on the edges, the 7×7 play area,
 * the four special cells), marbles with their camp's letter and a shape per team (circles for
 * North–South, squares for East–West), and the EX*PION as a star.
 *
 * Clicks: a marble, then its destination (pushing the EX*PION is a click on it).
 * Same interface as every module under `games/`.
 */

import { svg } from "../app/dom.js";
import { boardRoot, cellOfToken, label, mark, squareRing } from "../app/boardkit.js";

export const id = "expion";

const C = 56; // cell size
const PAD = 30;
const FILES = "abcdefghi";

// Okabe–Ito colours; the letter on each marble and the team shape carry the same facts.
const CAMP_STYLE = {
  N: { fill: "#0072B2", text: "#ffffff", shape: "circle" },
  S: { fill: "#009E73", text: "#ffffff", shape: "circle" },
  E: { fill: "#E69F00", text: "#2b2118", shape: "square" },
  W: { fill: "#CC79A7", text: "#2b2118", shape: "square" },
};

const WORDS = {
  fr: {
    camps: { N: "Nord", E: "Est", S: "Sud", W: "Ouest" }, letters: { N: "N", E: "E", S: "S", W: "O" },
    marble: "bille", expion: "EX*PION", special: "case spéciale", camp: "camp", empty: "case vide",
    to: "vers", toMove: "Camp au trait", marbles: "Billes", firstCapture: "Première prise faite",
    quiet: "Coups sans prise ni poussée", eliminated: "Éliminés", yes: "oui", no: "non",
    board: "Plateau d'Ex*Pion", and: " et ",
  },
  en: {
    camps: { N: "North", E: "East", S: "South", W: "West" }, letters: { N: "N", E: "E", S: "S", W: "W" },
    marble: "marble", expion: "EX*PION", special: "special cell", camp: "camp", empty: "empty cell",
    to: "to", toMove: "Camp to move", marbles: "Marbles", firstCapture: "First capture made",
    quiet: "Moves without capture or push", eliminated: "Eliminated", yes: "yes", no: "no",
    board: "Ex*Pion board", and: " and ",
  },
};
const words = (lang) => WORDS[lang] || WORDS.en;

// Seating of the rules file ("Camps, players and teams"): player index -> camps held.
const SEATING = { 2: ["NS", "EW"], 3: ["NS", "E", "W"], 4: ["N", "E", "S", "W"] };

function campsOf(seat, players) {
  return (SEATING[players] ?? SEATING[4])[seat] ?? "";
}

export function seatName(seat, players, lang) {
  const w = words(lang);
  return [...campsOf(seat, players)].map((camp) => w.camps[camp]).join(w.and) || `#${seat + 1}`;
}

export function seatBadge(seat, players, lang) {
  const w = words(lang);
  return [...campsOf(seat, players)].map((camp) => w.letters[camp]).join("");
}

/** In the move list, a seat by its camps' letters (four camps to a line). */
export const moverName = seatBadge;

/**
 * Who made each move, when the server does not say: the camps in turn order (North, East,
 * South, West). Exact until a camp is skipped (an eliminated player, a camp with no move).
 */
export function movers(moves, players) {
  const holderOf = Object.fromEntries((SEATING[players] ?? SEATING[4])
    .flatMap((camps, seat) => [...camps].map((camp) => [camp, seat])));
  return moves.map((_, index) => holderOf["NESW"[index % 4]]);
}

export function paths(text) {
  const [from, to] = text.split("-");
  return [[from, `-${to}`]];
}

export function keyOf(token) {
  return cellOfToken(token);
}

export function labelOf(token, lang) {
  return token.startsWith("-") ? `${words(lang).to} ${token.slice(1)}` : token;
}

function corner(file, rank) {
  return { x: PAD + file * C, y: PAD + (8 - rank) * C };
}

export function render(view, marks, lang) {
  const w = words(lang);
  const size = 9 * C + 2 * PAD;
  const root = boardRoot(size, size, w.board);
  root.append(svg("rect", { x: PAD - 8, y: PAD - 8, width: 9 * C + 16, height: 9 * C + 16, rx: 16, class: "expion-frame" }));
  const specials = new Set(view.special_cells ?? []);
  view.layout.forEach((row, rowIndex) => {
    const rank = 8 - rowIndex;
    [...row].forEach((code, file) => {
      if (code === " ") return;
      root.append(cellElement(view, code, file, rank, specials, marks, w));
    });
  });
  for (let i = 0; i < 9; i += 1) {
    root.append(label(PAD + i * C + C / 2, size - PAD / 2 + 2, FILES[i], "coord", 12));
    root.append(label(PAD / 2 - 2, PAD + (8 - i) * C + C / 2, String(i + 1), "coord", 12));
  }
  return root;
}

function cellElement(view, code, file, rank, specials, marks, w) {
  const name = `${FILES[file]}${rank + 1}`;
  const { x, y } = corner(file, rank);
  const group = svg("g", {});
  const camp = "NESW".includes(code) ? code : null;
  const background = camp ? `expion-camp camp-${camp}` : specials.has(name) ? "expion-special" : "expion-play";
  group.append(svg("rect", { x: x + 1, y: y + 1, width: C - 2, height: C - 2, rx: 5, class: background }));
  if (specials.has(name)) {
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
    group.append(marblePiece(x + C / 2, y + C / 2, marble, w));
    text += `${w.marble} ${w.camps[marble]}`;
  } else {
    text += camp ? `${w.camp} ${w.camps[camp]}, ${w.empty}` : specials.has(name) ? w.special : w.empty;
  }
  const extra = squareRing(x, y, C, marks, name);
  if (extra) group.append(extra);
  return mark(group, name, text, marks);
}

function marblePiece(cx, cy, camp, w) {
  const style = CAMP_STYLE[camp];
  const r = C * 0.36;
  const shape = style.shape === "circle"
    ? svg("circle", { cx, cy, r, fill: style.fill, class: "expion-marble" })
    : svg("rect", { x: cx - r * 0.92, y: cy - r * 0.92, width: 1.84 * r, height: 1.84 * r, rx: 7, fill: style.fill, class: "expion-marble" });
  const group = svg("g", {});
  group.append(shape, label(cx, cy + 1, w.letters[camp], "piece-letter", 17));
  group.lastChild.setAttribute("style", `fill:${style.text}`);
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
  const w = words(lang);
  const marbles = Object.entries(view.marbles ?? {}).map(([camp, count]) => `${w.letters[camp]} ${count}`).join(" · ");
  const list = [
    { label: w.toMove, value: view.camp_to_move ? w.camps[view.camp_to_move] : "—" },
    { label: w.marbles, value: marbles },
    { label: w.firstCapture, value: view.first_capture ? w.yes : w.no },
    { label: w.quiet, value: `${view.quiet_moves ?? 0} / ${view.quiet_limit ?? 200}` },
  ];
  if ((view.eliminated ?? []).length > 0) {
    list.push({ label: w.eliminated, value: view.eliminated.map((seat) => seatName(seat, view.players, lang)).join(", ") });
  }
  return list;
}
