/**
 * A game's rules page: the French or English part of its RULES.md, as HTML rendered by the
 * server into the page in the reader's language (or asked from `GET /api/rules/{game}?lang=`
 * when the page's language is another), with every game's rules a link away.
 */

import { api } from "./api.js";
import { catalogEntry } from "./boards.js";
import { pathId } from "./dom.js";
import { currentLanguage, pick, translatePage } from "./i18n.js";

const lang = currentLanguage();
const t = translatePage(lang);
const gameId = pathId();

load();

async function load() {
  const body = document.querySelector("#rules-body");
  // The server wrote the rules in the reader's language; another language is asked for here.
  if (body.dataset.lang !== lang) {
    try {
      await fetchRules(body);
    } catch (error) {
      body.textContent = t("error.generic", { message: error.message });
    }
  }
  raiseHeadings(body, 2);
  // Board diagrams keep their lines and scroll sideways on a narrow screen: by keyboard too.
  for (const diagram of body.querySelectorAll("pre")) diagram.tabIndex = 0;
  document.querySelector(`#rules-${CSS.escape(gameId)}`)?.setAttribute("aria-current", "page");
  document.body.dataset.ready = "true";
}

async function fetchRules(body) {
  const [rules, catalog] = await Promise.all([
    api("GET", `/api/rules/${encodeURIComponent(gameId)}?lang=${lang}`),
    api("GET", "/api/catalog").catch(() => []),
  ]);
  const entry = catalogEntry(catalog, gameId);
  const title = entry ? pick(entry.title, lang) : gameId;
  document.querySelector("#rules-title").textContent = `${t("rules.title")} — ${title}`;
  document.title = `${t("rules.title")} — ${title} — Ludothèque`;
  for (const item of games) {
    const link = document.querySelector(`#rules-${CSS.escape(item.id)}`);
    if (link) link.textContent = pick(item.title, lang);
  }
  // The server renders the project's own RULES.md (trusted text, not user input) with markdown-it.
  body.innerHTML = rules.html;
  body.dataset.lang = lang;
}

/**
 * The rules' sections are `###` in RULES.md (under the file's `#` and the language's `##`);
 * under this page's `<h1>` they become `<h2>`, their subsections `<h3>`..., so that no heading
 * level is skipped.
 */
function raiseHeadings(container, top) {
  const headings = [...container.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  if (headings.length === 0) return;
  const shift = Math.min(...headings.map((heading) => Number(heading.tagName[1]))) - top;
  if (shift <= 0) return;
  for (const heading of headings) {
    const raised = document.createElement(`h${Number(heading.tagName[1]) - shift}`);
    raised.append(...heading.childNodes);
    for (const { name, value } of heading.attributes) raised.setAttribute(name, value);
    heading.replaceWith(raised);
  }
}
