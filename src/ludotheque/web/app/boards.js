/**
 * How a page finds a game's board module: the catalog entry's `board` (a built-in or installed
 * game names its own), else the game's file under /static/games/, else the generic board, which
 * draws any game from its view as text.
 */

export const GENERIC_BOARD = "/static/games/generic.js";

/** The catalog's games, from `GET /api/catalog`'s answer (an object with `games`, or a list). */
export function catalogGames(catalog) {
  if (!catalog) return [];
  return Array.isArray(catalog) ? catalog : catalog.games ?? [];
}

/** The catalog entry of `gameId` in `catalog` (the answer or its list of games), or undefined. */
export function catalogEntry(catalog, gameId) {
  return catalogGames(catalog).find((entry) => entry.id === gameId);
}

/** The board module of game `gameId`, whose catalog entry is `entry` (undefined: none). */
export async function loadBoard(gameId, entry) {
  const url = entry?.board ?? `/static/games/${encodeURIComponent(gameId)}.js`;
  try {
    return await import(url);
  } catch {
    return import(GENERIC_BOARD);
  }
}
