/**
 * The board of a game that ships none of its own (`/api/catalog` gives its `board` as this
 * file): the view written out as readable text, field by field, and every legal move as a
 * button on the board (arrow keys move between them, Enter plays one); the page's notation box
 * works as for every game. Same interface as every module under `games/`.
 *
 * >>> describe({heaps: [3, 4, 5], last: null}, "en")   // [["heaps", "3, 4, 5"], ["last", "—"]]
 */

import { el } from "../app/dom.js";

export const id = "generic";

// The fields every view has (docs/design.md): the page shows them elsewhere.
const COMMON = new Set(["game", "variant", "players", "viewer", "to_move", "phase", "result", "ply"]);
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

const WORDS = {
  fr: { board: "Position", player: "Joueur {seat}", moves: "Coups légaux", play: "jouer {move}", none: "—",
    yes: "oui", no: "non" },
  en: { board: "Position", player: "Player {seat}", moves: "Legal moves", play: "play {move}", none: "—",
    yes: "yes", no: "no" },
};
const words = (lang) => WORDS[lang] || WORDS.en;

export function seatName(seat, players, lang) {
  return words(lang).player.replace("{seat}", LETTERS[seat] ?? String(seat + 1));
}

export function seatBadge(seat) {
  return LETTERS[seat] ?? String(seat + 1);
}

/** Every move is one click: the move itself, a button on the board. */
export function paths(text) {
  return [[text]];
}

export function keyOf(token) {
  return token;
}

export function labelOf(token) {
  return token;
}

/** A value in words: lists joined by commas, objects as `key: value`, nothing as a dash. */
function written(value, lang) {
  const w = words(lang);
  if (value === null || value === undefined) return w.none;
  if (typeof value === "boolean") return value ? w.yes : w.no;
  if (Array.isArray(value)) return value.length === 0 ? w.none : value.map((item) => written(item, lang)).join(", ");
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return w.none;
    return entries.map(([key, item]) => `${key}: ${written(item, lang)}`).join("; ");
  }
  return String(value);
}

/** The view's own fields (not the common ones) as `[name, text]` pairs. */
export function describe(view, lang) {
  return Object.entries(view ?? {}).filter(([key]) => !COMMON.has(key)).map(([key, value]) => [key, written(value, lang)]);
}

export function render(view, marks, lang) {
  const w = words(lang);
  const root = el("div", { class: "generic-board", role: "group", "aria-label": w.board });
  root.append(el("dl", { class: "generic-view" },
    describe(view, lang).flatMap(([name, text]) => [el("dt", {}, name), el("dd", {}, text)])));
  const moves = [...marks.targets];
  if (moves.length > 0) {
    const list = el("div", { class: "generic-moves", role: "group", "aria-label": w.moves });
    for (const move of moves) {
      const classes = ["cell", "target", "generic-move"];
      if (marks.chosenKeys.has(move)) classes.push("chosen");
      list.append(el("button", { type: "button", class: classes.join(" "), "data-key": move, tabindex: "-1",
        "aria-label": w.play.replace("{move}", move) }, move));
    }
    root.append(el("p", { class: "generic-moves-title" }, w.moves), list);
  }
  return root;
}

export function facts() {
  return [];
}
