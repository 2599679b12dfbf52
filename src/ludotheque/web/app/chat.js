/**
 * The game's chat: the players' room (for the seats) and the spectators' room. Lines are text,
 * always put into text nodes (never markup); new lines come over the game's WebSocket
 * (`{"type": "chat", "line"}`), the history from `GET /api/games/{id}/chat?room=`. Another
 * person's line has a "Report" control (`POST /api/reports`: the moderators get it, with the
 * line's text); a line a moderator hid comes again with `"hidden": true` and reads "hidden by a
 * moderator".
 */

import { api, gamePath } from "./api.js";
import { el } from "./dom.js";
import { addWords, errorText } from "./i18n.js";
import WORDS from "./texts-moderation.json" with { type: "json" };

addWords(WORDS);

export class Chat {
  /** @param {string} gameId @param {Function} t translator @param {string} lang */
  constructor(gameId, t, lang) {
    this.gameId = gameId;
    this.t = t;
    this.lang = lang;
    this.room = null;
    this.seat = null; // the page's seat, or null for a spectator
    this.lines = { players: [], spectators: [] };
    this.muted = new Set(); // the seats whose lines this seat does not read
    this.$ = (selector) => document.querySelector(selector);
    this.wire();
  }

  wire() {
    for (const button of document.querySelectorAll("#chat-rooms button[data-room]")) {
      button.addEventListener("click", () => this.show(button.dataset.room));
    }
    this.$("#chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  seatQuery() {
    return this.seat === null ? "" : `&seat=${this.seat}`;
  }

  /** The page reads as `seat` now (null: a spectator): players see their room first. */
  async setSeat(seat) {
    const first = this.room === null;
    if (!first && seat === this.seat) return;
    this.seat = seat;
    this.$("#chat-rooms [data-room='players']").hidden = seat === null;
    if (first || (seat === null && this.room === "players")) await this.show(seat === null ? "spectators" : "players");
  }

  async show(room) {
    this.room = room;
    for (const button of document.querySelectorAll("#chat-rooms button[data-room]")) {
      button.setAttribute("aria-pressed", String(button.dataset.room === room));
    }
    try {
      const answer = await api("GET", `${gamePath(this.gameId)}/chat?room=${room}${this.seatQuery()}`);
      this.lines[room] = answer.lines;
      this.muted = new Set(answer.muted ?? []);
    } catch {
      this.lines[room] = [];
    }
    this.render();
  }

  /** A line from the WebSocket (a hidden one replaces the line it hides). */
  receive(line) {
    const lines = this.lines[line.room];
    if (!lines) return;
    const known = lines.findIndex((entry) => entry.id === line.id);
    if (known >= 0 && !line.hidden) return;
    if (known >= 0) lines[known] = line;
    else lines.push(line);
    if (line.room === this.room) this.render();
  }

  render() {
    const list = this.$("#chat-lines");
    list.replaceChildren(...(this.lines[this.room] ?? []).map((line) => this.item(line)));
    const log = this.$("#chat-log");
    log.scrollTop = log.scrollHeight;
  }

  item(line) {
    const author = `${line.author || this.t("chat.someone")}${this.lang === "fr" ? " : " : ": "}`;
    if (line.hidden) {
      return el("li", { "data-line": line.id, class: "chat-hidden" },
        el("span", { class: "chat-author" }, author),
        el("span", { class: "chat-text" }, this.t("chat.hidden")));
    }
    const item = el("li", { "data-line": line.id },
      el("span", { class: "chat-author" }, author), el("span", { class: "chat-text" }, line.text));
    const own = this.seat !== null && line.seat === this.seat;
    if (!own && line.author) {
      const button = el("button", { type: "button", class: "chat-report", "data-report": line.id },
        this.t("chat.report"));
      button.setAttribute("aria-label", `${this.t("chat.report")} ${line.author}`);
      button.addEventListener("click", () => this.report(line));
      item.append(" ", button);
    }
    return item;
  }

  /** Report `line` and its author to the moderators, with a reason the reader gives. */
  async report(line) {
    const reason = window.prompt(this.t("chat.reportReason"))?.trim();
    if (!reason) return;
    const body = { player: line.author, reason, chat_line: line.id, game: this.gameId };
    const message = this.$("#chat-message");
    try {
      try {
        await api("POST", "/api/reports", { body });
      } catch (error) {
        if (error.code !== "sign_in_required") throw error;
        await api("POST", "/api/account/guest");
        await api("POST", "/api/reports", { body });
      }
      message.textContent = this.t("chat.reported");
    } catch (error) {
      message.textContent = errorText(this.lang, error);
    }
  }

  async send() {
    const input = this.$("#chat-text");
    const text = input.value.trim();
    if (!text) return;
    this.$("#chat-message").textContent = "";
    const post = () => api("POST", `${gamePath(this.gameId)}/chat?${this.seatQuery().slice(1)}`, {
      body: { room: this.room, text },
    });
    try {
      let answer;
      try {
        answer = await post();
      } catch (error) {
        // A spectator with no name yet writes as a guest (a generated name, kept in a cookie).
        if (error.code !== "sign_in_required") throw error;
        await api("POST", "/api/account/guest");
        answer = await post();
      }
      input.value = "";
      this.receive(answer.line);
    } catch (error) {
      this.$("#chat-message").textContent = errorText(this.lang, error);
    }
  }
}
