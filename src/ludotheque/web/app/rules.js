/**
 * A game's rules page: the French or English part of its RULES.md, as HTML rendered by the
 * server (`GET /api/rules/{game}?lang=`), in the page's language.
 */

import { api } from "./api.js";
import { pathId } from "./dom.js";
import { currentLanguage, pick, translatePage } from "./i18n.js";

const lang = currentLanguage();
const t = translatePage(lang);
const gameId = pathId();

load();

async function load() {
  const body = document.querySelector("#rules-body");
  try {
    const [rules, catalog] = await Promise.all([
      api("GET", `/api/rules/${encodeURIComponent(gameId)}?lang=${lang}`),
      api("GET", "/api/catalog").catch(() => []),
    ]);
    const games = Array.isArray(catalog) ? catalog : catalog.games ?? [];
    const entry = games.find((item) => item.id === gameId);
    const title = entry ? pick(entry.title, lang) : gameId;
    document.querySelector("#rules-title").textContent = `${t("rules.title")} — ${title}`;
    document.title = `${t("rules.title")} — ${title} — Ludothèque`;
    document.querySelector("#rules-image").src = `/static/img/${encodeURIComponent(gameId)}.svg`;
    document.querySelector("#rules-play").href = `/?game=${encodeURIComponent(gameId)}#new-game`;
    // The server renders the project's own RULES.md (trusted text, not user input) with markdown-it.
    body.innerHTML = rules.html;
    document.querySelector(`#rules-${CSS.escape(gameId)}`)?.setAttribute("aria-current", "page");
  } catch (error) {
    body.textContent = t("error.generic", { message: error.message });
  }
  document.body.dataset.ready = "true";
}
