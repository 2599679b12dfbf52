/**
 * The game's chat: the players' room (for the seats) and the spectators' room. Lines are text,
 * always put into text nodes (never markup); new lines come over the game's WebSocket
 * (`{"type": "chat", "line"}`), the history from `GET /api/games/{id}/chat?room=`.
 */

import { api, gamePath } from "./api.js";
import { el } from "./dom.js";
import { errorText } from "./i18n.js";

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

  /** A line from the WebSocket. */
  receive(line) {
    const lines = this.lines[line.room];
    if (!lines || lines.some((known) => known.id === line.id)) return;
    lines.push(line);
    if (line.room === this.room) this.render();
  }

  render() {
    const list = this.$("#chat-lines");
    list.replaceChildren(...(this.lines[this.room] ?? []).map((line) =>
      el("li", { "data-line": line.id },
        el("span", { class: "chat-author" }, `${line.author || this.t("chat.someone")}${this.lang === "fr" ? " : " : ": "}`),
        el("span", { class: "chat-text" }, line.text))));
    const log = this.$("#chat-log");
    log.scrollTop = log.scrollHeight;
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
