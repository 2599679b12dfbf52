/**
 * What every page with a clickable board shares (the game, the lessons, the puzzles): reading a
 * typed move, and turning clicks on the board's cells into a move through the page's
 * `MovePicker` (`page.picker`, read at each click: a page makes a new one per position).
 */

import { handleArrow } from "./boardnav.js";
import { el } from "./dom.js";

/**
 * A typed move as the server knows it: spaces and case are free (`1 B 2` is `1b2`), so the
 * legal move that reads the same without them is sent; else the text, its spaces collapsed.
 */
export function typedMove(text, legal) {
  const squeeze = (value) => value.replace(/\s+/g, "").toLowerCase();
  const matches = legal.filter((move) => squeeze(move) === squeeze(text));
  return matches.length === 1 ? matches[0] : text.trim().replace(/\s+/g, " ");
}

/**
 * The board's click handlers of `page` (`page.picker`, `page.board`): `clickKey(key)` for a cell
 * (one meaning: chosen; several: a bar of buttons in `#choices`; the last chosen cell again: one
 * step back), `chooseToken(token)`, `cancelSelection()`, `fillChoices(view)` and `wireBoard(board)`. `canClick()` says whether the page
 * takes clicks now, `submit(text)` sends a whole move, `redraw()` draws the board and the choices
 * again, and the first of `focusTargets` present takes the focus after a step chosen off the board.
 */
export function boardClicks(page, { t, lang, canClick, submit, redraw, focusTargets }) {
  function chooseToken(token) {
    const done = page.picker.choose(token);
    if (done) {
      submit(done);
      return;
    }
    redraw();
    if (!document.activeElement?.closest?.("#board")) {
      focusTargets.map((selector) => document.querySelector(selector)).find(Boolean)?.focus?.();
    }
  }

  function clickKey(key) {
    if (!canClick()) return;
    const choices = page.picker.choicesAt(key);
    if (choices.length === 1) {
      chooseToken(choices[0].token);
    } else if (choices.length > 1) {
      // One cell, several meanings: ask with buttons.
      const bar = document.querySelector("#choices");
      bar.replaceChildren(el("span", { class: "prompt" }, t("game.chooseNext")),
        ...choices.map((choice) => el("button", { type: "button", class: "choice", "data-token": choice.token,
          onclick: () => chooseToken(choice.token) }, page.board.labelOf(choice.token, lang))));
      bar.querySelector("button")?.focus();
    } else if (page.picker.hasSelection && page.board.keyOf(page.picker.chosen.at(-1)) === key) {
      page.picker.back();
      redraw();
    }
  }

  /**
   * The picker's next step, appended to `#choices` (which the page empties and guards): the
   * board's prompt for it (else a hint to select), then the choices that are no cell (buttons, or
   * a list when there are many: a setup's), then "Finish" when the move may end here.
   */
  function fillChoices(view) {
    const bar = document.querySelector("#choices");
    const next = page.picker.next();
    const buttons = next.filter((choice) => choice.key === null);
    const complete = page.picker.complete();
    // The board may say what this step asks (Imbrication: where to place, which piece acts...).
    const prompt = page.board.prompt?.(view, page.picker.chosen, { complete, lang, next });
    if (prompt) bar.append(el("p", { class: "hint board-prompt" }, prompt));
    else if (page.picker.chosen.length === 0 && buttons.length === 0) {
      bar.append(el("p", { class: "hint" }, t("game.selectHint")));
    }
    if (buttons.length > 0 || complete) bar.append(el("span", { class: "prompt" }, t("game.chooseNext")));
    if (buttons.length > 12) {
      const select = el("select", { "aria-label": t("game.chooseNext") },
        el("option", { value: "" }, t("game.choose")),
        buttons.map((choice) => el("option", { value: choice.token }, page.board.labelOf(choice.token, lang))));
      select.addEventListener("change", () => select.value && chooseToken(select.value));
      bar.append(select);
    } else {
      for (const choice of buttons) {
        bar.append(el("button", { type: "button", class: "choice", "data-token": choice.token,
          onclick: () => chooseToken(choice.token) }, page.board.labelOf(choice.token, lang)));
      }
    }
    if (complete) {
      bar.append(el("button", { type: "button", class: "choice finish", onclick: () => submit(complete) },
        `${t("game.finish")} (${complete})`));
    }
  }

  function cancelSelection() {
    if (!page.picker?.hasSelection) return;
    page.picker.reset();
    redraw();
  }

  /**
   * The board's clicks and keys: a cell clicked, or Enter/Space on it, is `clickKey`; other keys
   * move between cells. `keepFocus`: the board takes the focus back after a step chosen by key
   * (lessons, puzzles; the game page decides that when it submits). `keyTaken(event)`: a key the
   * page uses otherwise (the game page's replay arrows once the game is over).
   */
  function wireBoard(board, { keepFocus = true, keyTaken = () => false } = {}) {
    board.addEventListener("click", (event) => {
      const target = event.target.closest("[data-key]");
      if (target) clickKey(target.dataset.key);
    });
    board.addEventListener("keydown", (event) => {
      const target = event.target.closest("[data-key]");
      if (target && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        if (keepFocus) page.keepBoardFocus = true;
        clickKey(target.dataset.key);
      } else if (!keyTaken(event)) {
        handleArrow(board, event);
      }
    });
  }

  return { clickKey, chooseToken, cancelSelection, fillChoices, wireBoard };
}
