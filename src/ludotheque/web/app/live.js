/**
 * The live game document: a WebSocket that sends it on connect and after every change, with
 * reconnection and, where WebSockets fail, polling of `GET /api/games/{id}`.
 */

import { api, gamePath } from "./api.js";

export class LiveGame {
  /**
   * @param {string} gameId
   * @param {(doc: object) => void} onDocument called with every new document
   * @param {(connected: boolean) => void} onStatus called when the connection goes up or down
   * @param {(message: object) => void} onMessage called with the socket's typed messages (chat)
   */
  constructor(gameId, onDocument, onStatus = () => {}, onMessage = () => {}) {
    this.gameId = gameId;
    this.onDocument = onDocument;
    this.onStatus = onStatus;
    this.onMessage = onMessage;
    this.seat = null;
    this.socket = null;
    this.retries = 0;
    this.pollTimer = null;
    this.closed = false;
  }

  /**
   * (Re)connect as `seat`, one of the seats this browser's cookies hold (null: the server's
   * choice, which is a spectator when the browser holds none).
   */
  connect(seat) {
    this.seat = seat;
    this.retries = 0;
    this.openSocket();
  }

  close() {
    this.closed = true;
    clearTimeout(this.pollTimer);
    if (this.socket) this.socket.close();
  }

  /** `?seat=n` for the seat this page reads as, or nothing. */
  seatQuery() {
    return this.seat === null ? "" : `?seat=${this.seat}`;
  }

  /** Fetch the document once over HTTP (after a refused move, a stale ply...). */
  async refresh() {
    const doc = await api("GET", `${gamePath(this.gameId)}${this.seatQuery()}`);
    this.onDocument(doc);
    return doc;
  }

  openSocket() {
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${gamePath(this.gameId)}/ws${this.seatQuery()}`);
    this.socket = socket;
    socket.onopen = () => {
      this.retries = 0;
      this.onStatus(true);
    };
    socket.onmessage = (event) => {
      let doc;
      try {
        doc = JSON.parse(event.data);
      } catch {
        return;
      }
      // The socket may also carry small typed messages; only full documents redraw the page.
      if (doc && doc.id !== undefined && doc.view !== undefined) this.onDocument(doc);
      else if (doc && typeof doc.type === "string") this.onMessage(doc);
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
      this.onStatus(false);
      this.retries += 1;
      // Back off, and poll meanwhile so that a page behind a WebSocket-hostile proxy still plays.
      const delay = Math.min(10000, 500 * 2 ** Math.min(this.retries, 5));
      this.pollTimer = setTimeout(() => {
        this.refresh().catch(() => {});
        this.openSocket();
      }, delay);
    };
  }
}
