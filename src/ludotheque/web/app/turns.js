/**
 * The person's own WebSocket (`/api/me/ws`): the live count of games where it is their turn (in
 * the page title, "(2) Ludothèque"), and what happens to them. A correspondence turn, the end of a
 * correspondence game and a matched seek show a browser notification when the person allowed it.
 */

const BASE_TITLE = document.title.replace(/^\(\d+\) /, "");

/** Put the count in front of the page's title. */
export function showCount(count) {
  const base = document.title.replace(/^\(\d+\) /, "") || BASE_TITLE;
  document.title = count > 0 ? `(${count}) ${base}` : base;
}

/** A browser notification, when allowed (nothing otherwise); a click opens the game. */
export function notify(title, body, gameId) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return null;
  const shown = new Notification(title, { body, tag: gameId ? `ludotheque-${gameId}` : undefined });
  if (gameId) {
    shown.onclick = () => {
      window.focus();
      location.assign(`/play/${encodeURIComponent(gameId)}`);
    };
  }
  return shown;
}

/**
 * Watch the person's socket: `onMessage(message)` for every message; reconnects with a back-off.
 * Returns a function that stops watching.
 */
export function watchPerson(onMessage) {
  let socket = null;
  let retries = 0;
  let stopped = false;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/me/ws`);
    socket.onmessage = (event) => {
      try {
        onMessage(JSON.parse(event.data));
      } catch {
        // not for us
      }
    };
    socket.onopen = () => {
      retries = 0;
    };
    socket.onclose = (event) => {
      if (stopped || event.code === 4401) return; // nobody signed in: nothing to watch
      retries += 1;
      setTimeout(open, Math.min(30000, 1000 * 2 ** Math.min(retries, 5)));
    };
  };
  open();
  return () => {
    stopped = true;
    socket?.close();
  };
}
