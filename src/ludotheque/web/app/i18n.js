/**
 * French and English words of the pages, and the chosen language.
 *
 * The words are `texts.json`'s, shared with the server (which renders the lobby and the rules
 * pages in the reader's language before any script runs). They are generic: what a game calls its
 * variants, phases and result reasons comes from `/api/catalog` (`GameInfo`), through `gameWord`.
 *
 * The language comes from `?lang=fr|en` (then remembered in the `lang` cookie), else from the
 * cookie, else from the browser. Static markup names its texts with `data-i18n="key"`
 * (`data-i18n-attr="aria-label:key"` for attributes); `translatePage()` fills them in.
 */

import TEXTS from "./texts.json" with { type: "json" };

export const LANGUAGES = ["fr", "en"];

/**
 * Add a page family's own words (`import WORDS from "./texts-puzzles.json" with {type: "json"}`),
 * before the page translates itself; the server merges the same `texts-*.json` files.
 */
export function addWords(extra) {
  for (const [lang, table] of Object.entries(extra)) TEXTS[lang] = { ...(TEXTS[lang] ?? {}), ...table };
}

const COOKIE = "lang";

function readCookie(name) {
  const entry = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : null;
}

/** The page language; a `?lang=` in the address wins and is remembered for a year. */
export function currentLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) {
    document.cookie = `${COOKIE}=${asked}; path=/; max-age=31536000; SameSite=Lax`;
    return asked;
  }
  const remembered = readCookie(COOKIE);
  if (LANGUAGES.includes(remembered)) return remembered;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** A translator for `lang`: `t("game.toMove", {who: "Blue"})`. Unknown keys show themselves. */
export function translator(lang) {
  const table = TEXTS[lang] || TEXTS.en;
  return (key, values = {}) =>
    (table[key] ?? TEXTS.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/**
 * The plural form of `key` that fits its count (`Intl.PluralRules` of `lang`): `key.one`,
 * `key.other`... filled with `values`. The count is `values.n`, or the value `key.by` names (a
 * language may agree its noun with another number: "after 2 of 5 moves", "après 2 coups sur 5").
 *
 * >>> plural("fr", "lobby.yourTurnCount", { n: 2 })   // "À vous de jouer dans 2 parties."
 */
export function plural(lang, key, values = {}) {
  const t = translator(lang);
  const by = t(`${key}.by`);
  const count = Number(values[by === `${key}.by` ? "n" : by]);
  const form = new Intl.PluralRules(lang).select(Number.isFinite(count) ? count : 0);
  for (const name of [`${key}.${form}`, `${key}.other`]) {
    const text = t(name, values);
    if (text !== name) return text;
  }
  return t(key, values);
}

/** The translation of `prefix.value` (a level name, a generic phase), or `value` itself. */
export function nameOf(t, prefix, value) {
  const key = `${prefix}.${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

/**
 * What a game calls one of its variants (`kind` "variant"), phases ("phase") in `lang`, from its
 * catalog entry (`variant_names`, `phase_names`); else the generic word (`phase.play`), else the id.
 *
 * >>> gameWord({variant_names: {kids: {fr: "enfants", en: "kids"}}}, "variant", "kids", "fr")   // "enfants"
 */
export function gameWord(entry, kind, value, lang) {
  const declared = entry?.[`${kind}_names`]?.[value];
  if (declared) return pick(declared, lang);
  return nameOf(translator(lang), kind, value ?? "");
}

// English pages show the server's own text for these: it is English already and says why.
const SERVER_WORDS_IN_ENGLISH = new Set(["illegal_move", "not_notation"]);

/**
 * What to tell a person about a failed call: the translation of the server's error `code`
 * (`values` fill it: `{move}`), else the server's English text (an unknown code, a network error).
 */
export function errorText(lang, error, values = {}) {
  const t = translator(lang);
  const code = error?.code;
  if (!code || (lang === "en" && SERVER_WORDS_IN_ENGLISH.has(code))) return error?.message ?? String(error);
  const key = `error.${code}`;
  const text = t(key, { detail: error.message, ...values });
  return text === key ? error.message : text;
}

/** Pick the `lang` entry of a `{fr, en}` object (catalog titles and summaries). */
export function pick(texts, lang) {
  if (texts == null || typeof texts === "string") return texts ?? "";
  return texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? "";
}

/** Fill every `data-i18n` element, set `<html lang>` and wire the language switch links. */
export function translatePage(lang) {
  const t = translator(lang);
  document.documentElement.lang = lang;
  // A word this script was not given (another page family's, rendered by the server) keeps its text.
  const known = (key) => t(key) !== key;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    if (known(element.dataset.i18n)) element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      if (known(key.trim())) element.setAttribute(attribute.trim(), t(key.trim()));
    }
  }
  for (const link of document.querySelectorAll("[data-lang-switch]")) {
    const other = lang === "fr" ? "en" : "fr";
    const url = new URL(location.href);
    url.searchParams.set("lang", other);
    link.href = url.pathname + url.search;
    link.hreflang = other;
    link.lang = other;
  }
  return t;
}
