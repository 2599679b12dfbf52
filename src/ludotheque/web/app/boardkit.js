/**
 * What every board module shares: marking elements as clickable targets, chosen or part of the
 * last move, with a label a screen reader reads, and the colour-blind-safe palette
 * (Okabe & Ito) from which every game takes its colours.
 */

import { svg, titled } from "./dom.js";

export const PALETTE = {
  blue: "#0072B2",
  vermillion: "#D55E00",
  yellow: "#F0E442",
  green: "#009E73",
  orange: "#E69F00",
  sky: "#56B4E9",
  purple: "#CC79A7",
  ink: "#2b2118",
};

/**
 * Give `element` its board key and label; a target becomes a button. Which cell is in the Tab
 * order is the page's choice (boardnav.js: one at a time, the arrow keys move between them).
 * `marks`: `{targets: Set<key>, chosenKeys: Set<key>, lastKeys: Set<key>}`.
 */
export function mark(element, key, label, marks) {
  element.dataset.key = key;
  titled(element, label);
  const isTarget = marks.targets.has(key);
  element.classList.add("cell");
  element.setAttribute("tabindex", "-1");
  if (isTarget) {
    element.classList.add("target");
    element.setAttribute("role", "button");
  } else {
    element.setAttribute("role", "img");
  }
  if (marks.chosenKeys.has(key)) element.classList.add("chosen");
  if (marks.lastKeys.has(key)) element.classList.add("last");
  return element;
}

/** A ring drawn around a target or chosen element (shape as well as colour: dashed vs solid). */
export function ring(cx, cy, r, marks, key) {
  if (marks.chosenKeys.has(key)) {
    return svg("circle", { cx, cy, r, class: "ring-chosen" });
  }
  if (marks.targets.has(key)) {
    return svg("circle", { cx, cy, r, class: "ring-target" });
  }
  if (marks.lastKeys.has(key)) {
    return svg("circle", { cx, cy, r: r * 0.35, class: "ring-last" });
  }
  return null;
}

/** A square variant of `ring` for square cells. */
export function squareRing(x, y, size, marks, key) {
  const inset = 3;
  const attrs = { x: x + inset, y: y + inset, width: size - 2 * inset, height: size - 2 * inset, rx: 6 };
  if (marks.chosenKeys.has(key)) return svg("rect", { ...attrs, class: "ring-chosen" });
  if (marks.targets.has(key)) return svg("rect", { ...attrs, class: "ring-target" });
  if (marks.lastKeys.has(key)) return svg("rect", { ...attrs, class: "ring-last-square" });
  return null;
}

/** The root `<svg>` of a board, with a readable name. */
export function boardRoot(width, height, label) {
  return svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board-svg",
    role: "group",
    "aria-label": label,
  });
}

/** Text centred on a point (letters on pieces: never colour alone). */
export function label(x, y, text, className = "piece-letter", size = 14) {
  return svg("text", {
    x,
    y,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    class: className,
    "font-size": size,
    "aria-hidden": "true",
  }, text);
}

/** Strip the leading separator of a token (`-d4`, `xd4` -> `d4`). */
export function cellOfToken(token) {
  return token.replace(/^[-x]/, "");
}

/**
 * A board turned by `quarter` quarter turns clockwise (0 to 3), so that the reader's side is at
 * the bottom: `point(x, y)` moves a point of the unturned `width` × `height` drawing, `cell(x, y,
 * size)` the top-left corner of a square cell (its content stays upright), `rect` any rectangle;
 * `width` and `height` are the turned drawing's.
 */
export function turner(width, height, quarter = 0) {
  const q = ((quarter % 4) + 4) % 4;
  const point = (x, y) => [[x, y], [height - y, x], [width - x, height - y], [y, width - x]][q];
  const rect = (x, y, w, h) => {
    const [x1, y1] = point(x, y);
    const [x2, y2] = point(x + w, y + h);
    return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
  };
  const cell = (x, y, size) => {
    const [cx, cy] = point(x + size / 2, y + size / 2);
    return [cx - size / 2, cy - size / 2];
  };
  return { quarter: q, point, rect, cell, width: q % 2 ? height : width, height: q % 2 ? width : height };
}

/**
 * Link a board module's own stylesheet (`/static/games/<id>.css`: the `page_board.css` its game's
 * package ships) once, and resolve when it has loaded, so that no page draws the board unstyled.
 * A board module calls `await boardStyles(import.meta.url)` at its top.
 */
export function boardStyles(moduleUrl) {
  const href = new URL(moduleUrl).pathname.replace(/\.js$/, ".css");
  const present = document.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (present) return present.dataset.loaded ? Promise.resolve() : new Promise((done) => {
    present.addEventListener("load", done, { once: true });
    present.addEventListener("error", done, { once: true });
  });
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise((done) => {
    link.addEventListener("load", () => { link.dataset.loaded = "yes"; done(); }, { once: true });
    link.addEventListener("error", done, { once: true });
  });
  document.head.append(link);
  return loaded;
}
