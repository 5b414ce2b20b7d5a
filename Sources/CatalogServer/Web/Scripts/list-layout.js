// What the windowed list measures and draws of its own: the rows' and headers' heights (from the
// stylesheet), the bars that cover the list, the shape of a row that has not arrived, and
// the search snippet fitted to its row. Rows themselves are the server's.

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

// Fits a search snippet to its row: the server's snippet keeps some words before the first
// match, which a narrow row may not have room for; those words go, one at a time from the start
// (after an "…"), until the match shows. Titles keep one size in every row and end in "…".
export function fitRow(node) {
  if (!node.isConnected || node.classList.contains("placeholder")) return;
  node.dataset.fitted = "1";
  const snippet = node.querySelector(".snippet");
  const mark = snippet && snippet.querySelector("mark");
  const lead = mark && mark.previousSibling;
  if (!lead || lead.nodeType !== Node.TEXT_NODE) return;
  // Shown whole: the match ends before the "…" that cuts a longer snippet (about one em).
  const visible = () => {
    const cut = snippet.scrollWidth > snippet.clientWidth + 1 ? parseFloat(getComputedStyle(snippet).fontSize) : 0;
    return mark.getBoundingClientRect().right <= snippet.getBoundingClientRect().right - cut + 0.5;
  };
  if (snippet.clientWidth === 0 || visible()) return;
  const words = lead.data.replace(/^\u2026/, "").split(/(?<=\s)/);
  // The words before the match that still fit, dropping them from the start; at worst none, so
  // that the snippet starts at the matched word.
  while (words.length > 0 && !visible()) {
    words.shift();
    lead.data = "\u2026" + words.join("");
  }
}
