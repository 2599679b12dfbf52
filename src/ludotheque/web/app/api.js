/**
 * The Web API client (docs/design.md "Web API") and the seats this browser holds.
 *
 * A seat token is a secret the pages never keep: the server holds each seat's token in an
 * HttpOnly, SameSite=Strict cookie scoped to its game (`?cookie=1` on creation, join, claim of
 * an invite and rematch; `POST .../seats/mine` for a token link), and every call of this
 * module sends it by itself. Which seats the cookies hold is asked from the server
 * (`GET .../seats/mine`); `?seat=n` picks one of them when a browser holds several.
 */

/** A refused call: the HTTP status, the server's English text and its stable `code` (see i18n's `errorText`). */
export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the API; resolves with the decoded JSON body, rejects with an `ApiError`. */
export async function api(method, path, options = {}) {
  const text = await apiText(method, path, options);
  return text ? JSON.parse(text) : null;
}

/**
 * Call the API; resolves with the body's text exactly as the server wrote it (a game record is
 * exported so: decoding and encoding it again could change it), rejects with an `ApiError`.
 */
export async function apiText(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw refusal(response.status, text);
  return text;
}

function refusal(status, text) {
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = { error: text };
  }
  return new ApiError(status, data?.error || `HTTP ${status}`, typeof data?.code === "string" ? data.code : null);
}

export const gamePath = (gameId) => `/api/games/${encodeURIComponent(gameId)}`;

/** The seats this browser's cookies hold in a game (stale cookies are expired by the server). */
export async function heldSeats(gameId) {
  const answer = await api("GET", `${gamePath(gameId)}/seats/mine`);
  return Array.isArray(answer?.seats) ? answer.seats : [];
}

/** Hand an invite link's token to the server, which keeps it in a cookie; returns its seat. */
export async function claimToken(gameId, token) {
  const answer = await api("POST", `${gamePath(gameId)}/seats/mine`, { token });
  return answer.seat;
}

/**
 * Claim an invite seat with its code (`?invite=` of the link the creator sent): the server
 * keeps the new seat's token in a cookie. Returns the seat.
 */
export async function claimInvite(gameId, seat, code) {
  const answer = await api("POST", `${gamePath(gameId)}/seats/${seat}/claim?cookie=1`, { body: { invite: code } });
  return answer.seat;
}

/** Take `?name=` (a token, an invite code) out of the address bar and history; returns it or null. */
export function takeFromAddress(name) {
  const url = new URL(location.href);
  const value = url.searchParams.get(name);
  if (!value) return null;
  url.searchParams.delete(name);
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  return value;
}

/** The array saved under `key` in `storage`; an empty one when absent or not an array. */
function storedArray(storage, key) {
  try {
    const saved = JSON.parse(storage.getItem(key) || "[]");
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

const LEGACY_TOKENS = "ludotheque.tokens.";
const LEGACY_INVITES = "ludotheque.invites.";

/**
 * Pages of older versions kept tokens in localStorage: hand each to the server as a cookie,
 * then remove it. Returns the invite links (with tokens) those pages had saved for `gameId`.
 */
export async function migrateLegacyTokens(gameId) {
  let invites = [];
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(LEGACY_TOKENS)) {
      const game = key.slice(LEGACY_TOKENS.length);
      for (const token of storedArray(localStorage, key)) {
        if (typeof token === "string") await claimToken(game, token).catch(() => null);
      }
      localStorage.removeItem(key);
    } else if (key.startsWith(LEGACY_INVITES)) {
      if (key === LEGACY_INVITES + gameId) {
        invites = storedArray(localStorage, key).filter((entry) => entry && entry.token);
      }
      localStorage.removeItem(key);
    }
  }
  return invites;
}

const HANDOFF = "ludotheque.handoff.";

/**
 * The invite links of a new game's other human seats, from the lobby to the game page of the
 * same tab: written just before the lobby leaves, read and removed at once by the game page,
 * which keeps them in its own history entry (so a reload shows them again, and they are gone
 * with the tab).
 */
export const inviteHandoff = {
  give(gameId, invites) {
    sessionStorage.setItem(HANDOFF + gameId, JSON.stringify(invites));
  },
  take(gameId) {
    const key = HANDOFF + gameId;
    const invites = storedArray(sessionStorage, key);
    sessionStorage.removeItem(key);
    return invites;
  },
};
