/**
 * The move list: who made each move, a player's consecutive moves grouped into one turn
 * (Imbrication's placement and tile action, Plimil's setup), and turns grouped into numbered
 * rounds, one turn per seat (the four camps of Ex*Pion on one line).
 *
 * >>> turnsOf(["d4", "d4-d6", "e5"], [0, 0, 1])
 * [{mover: 0, plies: [1, 2]}, {mover: 1, plies: [3]}]
 * >>> roundsOf([{mover: 0}, {mover: 1}, {mover: 0}]).length   // 2
 */

import { el } from "./dom.js";

/**
 * The seat that made each move: the document's `movers` when the server sends them, else what
 * the game's board module derives from the move texts (exact for strict turn orders).
 */
export function moversOf(doc, board) {
  if (Array.isArray(doc.movers) && doc.movers.length === doc.moves.length) return doc.movers;
  if (board.movers) return board.movers(doc.moves, doc.players, doc.view);
  return doc.moves.map((_, index) => index % doc.players);
}

/** Consecutive plies of one mover, as `{mover, plies}` (plies numbered from 1). */
export function turnsOf(moves, movers) {
  const turns = [];
  moves.forEach((_, index) => {
    const mover = movers[index];
    const last = turns.at(-1);
    if (last && last.mover === mover) last.plies.push(index + 1);
    else turns.push({ mover, plies: [index + 1] });
  });
  return turns;
}

/** Turns grouped into rounds: a new round starts when the seat order wraps around. */
export function roundsOf(turns) {
  const rounds = [];
  for (const turn of turns) {
    const current = rounds.at(-1);
    if (current && turn.mover > current.at(-1).mover) current.push(turn);
    else rounds.push([turn]);
  }
  return rounds;
}

/** A move's text with break opportunities before each hop, so long capture chains wrap. */
function breakable(text) {
  const parts = text.split(/(?=[x-])/);
  return parts.flatMap((part, index) => (index === 0 ? [part] : [el("wbr"), part]));
}

/**
 * Fill `list` (an `<ol>`): one item per round, one group per turn naming its mover. Each move
 * is an element with `data-ply`; once the game is over, a button that replays to it.
 * `options`: `{moverName(seat), current (ply or null), onPick(ply) or null, empty (text)}`.
 */
export function fillMoveList(list, doc, board, options) {
  if (doc.moves.length === 0) {
    list.replaceChildren(el("li", { class: "muted none" }, options.empty));
    return;
  }
  const turns = turnsOf(doc.moves, moversOf(doc, board));
  list.replaceChildren(...roundsOf(turns).map((round, index) =>
    el("li", { class: "round" }, el("span", { class: "round-no" }, `${index + 1}.`),
      el("span", { class: "turns" }, round.map((turn) => turnElement(turn, doc, options))))));
}

function turnElement(turn, doc, options) {
  const plies = turn.plies.map((ply) => {
    const isCurrent = options.current === ply;
    const attributes = { class: `ply${isCurrent ? " current" : ""}`, "data-ply": ply };
    const text = breakable(doc.moves[ply - 1]);
    if (!options.onPick) return el("span", attributes, text);
    return el("button", { ...attributes, type: "button", "aria-current": isCurrent ? "step" : null,
      onclick: () => options.onPick(ply) }, text);
  });
  const joined = plies.flatMap((ply, index) => (index === 0 ? [ply] : [el("span", { class: "sep" }, ", "), ply]));
  return el("span", { class: "play-turn", "data-mover": turn.mover },
    el("span", { class: `mover seat-${turn.mover}` }, options.moverName(turn.mover)), " ", joined);
}
