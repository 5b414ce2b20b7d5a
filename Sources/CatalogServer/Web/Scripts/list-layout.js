// What the windowed list measures and draws of its own: the rows' and headers' heights (from the
// stylesheet), the bars that cover the list, the shape of a row that has not arrived, and a title
// a step smaller when it does not fit. Rows themselves are the server's.

import { doc, element } from "./page.js";

const rootStyle = getComputedStyle(doc.documentElement);
const px = (name, fallback) => parseFloat(rootStyle.getPropertyValue(name)) || fallback;
export const ROW = px("--row-h", 60);
export const HEADER = px("--header-h", 28);
// Browsers cap an element's height (Chromium near 33 million pixels, Firefox near 17): longer
// lists are drawn scaled, with 1:1 scrolling in between (see `mapped`).
export const MAX_HEIGHT = 8000000;
export const BUFFER = 1.0;  // screens of rows kept above and below the visible ones

export function stickyBottom() {
  const form = doc.querySelector("form.search");
  const bar = doc.querySelector("header.bar");
  return Math.max(form ? form.getBoundingClientRect().bottom : 0, bar ? bar.getBoundingClientRect().bottom : 0);
}

export function bottomInset() {
  const tabs = doc.querySelector("nav.tabs");
  return tabs ? tabs.getBoundingClientRect().height : 0;
}

// Each server row's markup as it arrived, before the list placed it: a row drawn again after a
// change keeps its element when the server draws it the same (list-refresh.js).
export const drawnAs = new WeakMap();

// A row whose record has not arrived yet: the same height, a neutral shape.
export function placeholderRow() {
  const item = element("li", "row placeholder");
  item.setAttribute("aria-busy", "true");
  const link = element("span", "row-link");
  link.append(element("span", "row-text"));
  link.firstChild.append(element("span", "title skeleton", "\u00a0"), element("span", "subtitle skeleton", "\u00a0"));
  item.append(link);
  return item;
}

// Shrinks a title a step when it does not fit, before it ends in "…".
export function shrinkIfCut(node) {
  if (!node.isConnected || node.classList.contains("placeholder")) return;
  node.dataset.fitted = "1";
  const title = node.querySelector(".title");
  if (title && !title.classList.contains("long") && title.scrollWidth > title.clientWidth + 1) title.classList.add("long");
}
