/**
 * The Web API client (DESIGN.md "Web API") and the seat tokens this browser holds.
 *
 * A token is a secret: it is kept in localStorage only, sent as `Authorization: Bearer`, and
 * removed from the address bar as soon as an invite link has been read.
 */

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Call the API; resolves with the decoded JSON body, rejects with an `ApiError`. */
export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  }
  return data;
}

const PREFIX = "ludotheque.tokens.";

/** The tokens this browser holds for one game: `[token, ...]` (seat learnt from each view). */
export const tokenStore = {
  all(gameId) {
    try {
      const saved = JSON.parse(localStorage.getItem(PREFIX + gameId) || "[]");
      return Array.isArray(saved) ? saved.filter((entry) => typeof entry === "string") : [];
    } catch {
      return [];
    }
  },
  add(gameId, token) {
    const known = tokenStore.all(gameId);
    if (!known.includes(token)) known.push(token);
    localStorage.setItem(PREFIX + gameId, JSON.stringify(known));
  },
  forget(gameId, token) {
    const kept = tokenStore.all(gameId).filter((entry) => entry !== token);
    localStorage.setItem(PREFIX + gameId, JSON.stringify(kept));
  },
};

/** Read `?token=` from an invite link into the store and take it out of the address bar. */
export function adoptTokenFromAddress(gameId) {
  const url = new URL(location.href);
  const token = url.searchParams.get("token");
  if (!token) return null;
  tokenStore.add(gameId, token);
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
  return token;
}
