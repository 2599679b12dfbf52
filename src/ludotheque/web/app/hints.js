/**
 * The game page's hint: "Show me a good move" asks the server (`POST /api/games/<id>/hint`) for
 * the medium bot's move in the reader's position, and the page highlights it on the board.
 *
 * Only in a casual game whose other seats are all bots, for the person holding the seat to move;
 * the box is hidden everywhere else (the server refuses those too). The server counts the hints
 * of each seat (a few per game) and says how many are left.
 */

import { api, gamePath } from "./api.js";
import { el } from "./dom.js";
import { addWords, errorText, plural } from "./i18n.js";
import WORDS from "./texts-analysis.json" with { type: "json" };

addWords(WORDS);

/** Whether `seat` may ask hints in `doc` at all: a casual game, `seat` a person, every other seat a bot. */
export function hintsAllowed(doc, seat) {
  if (!doc || doc.rated || doc.status !== "playing" || typeof seat !== "number") return false;
  const seats = doc.seats ?? [];
  if (seats[seat]?.kind !== "human") return false;
  const others = seats.filter((entry) => entry.seat !== seat);
  return others.length > 0 && others.every((entry) => entry.kind === "bot");
}

export class Hints {
  /**
   * `box`: the element holding the button, the count and the message; `t`, `lang`: the page's
   * words; `shown(hint)`: called with `{move, ply}` (or null) when the hint to highlight changes.
   */
  constructor(gameId, box, { t, lang, shown }) {
    this.gameId = gameId;
    this.box = box;
    this.t = t;
    this.lang = lang;
    this.shown = shown;
    this.left = null; // unknown until asked
    this.limit = null;
    this.seat = null;
    this.hint = null; // {move, ply}
    this.busy = false;
    this.button = el("button", { type: "button", id: "hint-button", onclick: () => this.ask() }, t("hint.button"));
    this.count = el("span", { id: "hint-left", class: "muted" });
    this.message = el("p", { id: "hint-text", role: "status", "aria-live": "polite" });
    box.replaceChildren(this.button, this.count, this.message);
  }

  /** A new document: show or hide the box, forget a hint of an older position. */
  update(doc, seat) {
    const allowed = hintsAllowed(doc, seat);
    this.box.hidden = !allowed;
    if (this.hint && (!allowed || this.hint.ply !== doc.moves.length)) {
      this.hint = null;
      this.message.textContent = "";
      this.shown(null);
    }
    if (!allowed) return;
    if (this.seat !== seat || this.left === null) {
      this.seat = seat;
      this.left = null;
      this.refresh();
    }
    this.doc = doc;
    this.render();
  }

  async refresh() {
    try {
      const answer = await api("GET", `${gamePath(this.gameId)}/hint?seat=${this.seat}`);
      this.left = answer.hints_left;
      this.limit = answer.limit;
    } catch {
      this.left = 0;
    }
    this.render();
  }

  render() {
    const doc = this.doc;
    const myTurn = doc && doc.status === "playing" && doc.to_move === this.seat && (doc.legal_moves ?? []).length > 0;
    const none = this.left === 0 && !this.hint;
    this.button.disabled = this.busy || !myTurn || none || this.left === null;
    this.count.textContent = this.left === null ? "" : this.left === 0 ? this.t("hint.none")
      : plural(this.lang, "hint.left", { n: this.left });
  }

  async ask() {
    if (this.busy || !this.doc) return;
    this.busy = true;
    const ply = this.doc.moves.length;
    this.message.textContent = this.t("hint.thinking");
    this.render();
    try {
      const answer = await api("POST", `${gamePath(this.gameId)}/hint?seat=${this.seat}`, { body: {} });
      this.left = answer.hints_left;
      if (this.doc.moves.length === ply) {
        this.hint = { move: answer.move, ply };
        this.message.textContent = this.t("hint.move", { move: answer.move });
        this.shown(this.hint);
      } else {
        this.message.textContent = "";
      }
    } catch (error) {
      this.message.textContent = errorText(this.lang, error);
    } finally {
      this.busy = false;
      this.render();
    }
  }
}
