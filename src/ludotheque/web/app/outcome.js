/**
 * A game's result in words, spoken to its reader: "You won — top of the pyramid" to a player,
 * "Light wins — top of the pyramid" to a spectator (and on a shared screen, where the reader
 * holds every side). Scores appear only where they mean something (territory, blocks), as the
 * game's board module words them, never as raw ±1.
 *
 * >>> outcomeText({winners: [0], scores: [1, -1], reason: "top"}, {mine: [0], players: 2, ...})
 * "You won — top of the pyramid"
 */

import { pick, translator } from "./i18n.js";

/**
 * `context`: `{lang, players, mine (seats the reader plays), seatName(seat), board, reasons}`,
 * `reasons` being the game's catalog entry's.
 */
export function outcomeText(result, context) {
  const t = translator(context.lang);
  const winners = result.winners ?? [];
  const losers = [...Array(context.players).keys()].filter((seat) => !winners.includes(seat));
  const reason = reasonText(result, losers, context);
  if (winners.length === 0) return t("result.draw", { reason });
  const mine = context.mine.filter((seat) => seat < context.players);
  // A reader who holds every side (a shared screen) or none (a spectator) is told who won.
  const isOneSide = mine.length > 0 && mine.length < context.players;
  if (isOneSide) {
    const won = mine.some((seat) => winners.includes(seat));
    return t(won ? "result.youWon" : "result.youLost", { reason });
  }
  const who = names(winners, context);
  return t(winners.length > 1 ? "result.winMany" : "result.wins", { who, reason });
}

function names(seats, context) {
  return seats.map(context.seatName).join(translator(context.lang)("result.and"));
}

/**
 * The reason's phrase: the game's own words (the catalog's `reasons`, from `GameInfo`), naming the
 * losing side where there is exactly one, else the generic words of the server's reasons
 * (resignation, time, agreement, abandoned); then the scores' words.
 */
function reasonText(result, losers, context) {
  const t = translator(context.lang);
  const reason = result.reason || "";
  const loser = losers.length === 1 ? context.seatName(losers[0]) : null;
  const declared = context.reasons?.[reason];
  let text;
  if (declared) {
    const naming = loser !== null && declared.naming_loser && Object.keys(declared.naming_loser).length > 0;
    text = naming ? pick(declared.naming_loser, context.lang).replace("{loser}", loser) : pick(declared.plain, context.lang);
  } else {
    const one = `reason.${reason}.one`;
    text = loser !== null && t(one) !== one ? t(one, { loser }) : t(`reason.${reason}`);
    if (text === `reason.${reason}`) text = reason; // a reason nobody words: as named
  }
  const detail = context.board.scoreText?.(result, context.lang);
  return detail ? `${text} (${detail})` : text;
}
