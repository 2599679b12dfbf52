/**
 * Choosing a move by clicks, for every game alike.
 *
 * Each board module splits a legal move text into the clicks that name it (`paths(text)`: one
 * or more token sequences, e.g. Pylos `1a1-2b2x1d1` -> `["1a1", "-2b2", "x1d1"]`). The picker
 * keeps the tokens chosen so far; the next step offers the tokens that extend them towards some
 * legal move. A token either sits on a board element (`keyOf(token)` gives its key) or is a
 * button (key `null`: a rotation, a stem height...). When the chosen tokens already name a legal
 * move and nothing extends them, that move is played; when something does (a capture chain that
 * may go on), "stop here" is offered beside the extensions.
 *
 * A board that sets `autoSelect` has the clicks every legal move starts with made for the
 * player (Imbrication, rounds 1–3: the piece just placed is the only one that may act), as long
 * as they do not finish a move: the page then shows the next real choice at once.
 *
 * >>> const picker = new MovePicker(board); picker.setLegal(["1a1", "1b1-2a1"]);
 * >>> picker.choose("1b1"); picker.next().map(c => c.token)   // ["-2a1"]
 */

export class MovePicker {
  constructor(board) {
    this.board = board;
    this.entries = [];
    this.chosen = [];
    this.forced = [];
  }

  /** New legal move texts (and the view they belong to): forget the current selection. */
  setLegal(texts, view = null) {
    this.entries = texts.map((text) => ({ text, paths: this.board.paths(text, view) }));
    this.forced = this.board.autoSelect ? forcedPrefix(this.entries.flatMap((entry) => entry.paths)) : [];
    this.chosen = [...this.forced];
  }

  reset() {
    this.chosen = [...this.forced];
  }

  back() {
    if (this.chosen.length > this.forced.length) this.chosen.pop();
  }

  /** Whether the player chose something that "cancel" or "back" can undo. */
  get hasSelection() {
    return this.chosen.length > this.forced.length;
  }

  get isActive() {
    return this.entries.length > 0;
  }

  matchingPaths() {
    const found = [];
    for (const entry of this.entries) {
      for (const path of entry.paths) {
        if (this.chosen.every((token, i) => path[i] === token)) found.push({ text: entry.text, path });
      }
    }
    return found;
  }

  /** The choices of the next step: `[{token, key, texts}]` in legal-move order. */
  next() {
    const depth = this.chosen.length;
    const byToken = new Map();
    for (const { text, path } of this.matchingPaths()) {
      if (path.length <= depth) continue;
      const token = path[depth];
      if (!byToken.has(token)) byToken.set(token, { token, key: this.board.keyOf(token), texts: [] });
      const texts = byToken.get(token).texts;
      if (!texts.includes(text)) texts.push(text);
    }
    return [...byToken.values()];
  }

  /** The legal move the chosen tokens name exactly, if any. */
  complete() {
    const depth = this.chosen.length;
    const hit = this.matchingPaths().find(({ path }) => path.length === depth);
    return hit ? hit.text : null;
  }

  /**
   * Add a token. Returns the move text to play when the selection is finished, else null.
   * Throws when the token leads to no legal move.
   */
  choose(token) {
    if (!this.next().some((choice) => choice.token === token)) {
      throw new Error(`no legal move continues with ${token}`);
    }
    this.chosen.push(token);
    const done = this.complete();
    return done !== null && this.next().length === 0 ? done : null;
  }

  /** The choices whose board element is `key` (several when one cell offers several tokens). */
  choicesAt(key) {
    return this.next().filter((choice) => choice.key === key);
  }
}

/** The tokens every path starts with, short of finishing any of them. */
export function forcedPrefix(paths) {
  if (paths.length === 0) return [];
  const shortest = Math.min(...paths.map((path) => path.length));
  const prefix = [];
  // Stop one token before the shortest path ends: choosing it would already name a move.
  for (let depth = 0; depth < shortest - 1; depth += 1) {
    const token = paths[0][depth];
    if (!paths.every((path) => path[depth] === token)) break;
    prefix.push(token);
  }
  return prefix;
}
