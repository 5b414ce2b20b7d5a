// The keyboard: `/` searches, arrows move through rows (in a windowed list, by position), and
// focus never hides under the sticky bars or the tab bar.

import { doc, state } from "./page.js";
import { list } from "./lists.js";
import { input, startSearching } from "./search.js";
import { HEADER, bottomInset, stickyBottom } from "./list-layout.js";

export function startKeyboard() {
  doc.addEventListener("keydown", onKey);
  doc.addEventListener("focusin", (event) => {
    const target = event.target.closest?.(".row, .facet-value, .favorite");
    if (target && event.target.matches(":focus-visible")) requestAnimationFrame(() => keepInView(target));
  });
}

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const typing = event.target.closest?.("input, textarea, select, [contenteditable]");
  if (event.key === "/" && !typing && input) {
    event.preventDefault();
    input.focus();
    input.select();
    if (list) startSearching();
    return;
  }
  if ((event.key === "ArrowDown" || event.key === "ArrowUp") && event.target.classList?.contains("row-link")) {
    event.preventDefault();
    const current = event.target.closest(".row");
    const step = event.key === "ArrowDown" ? 1 : -1;
    const windowed = state.list;
    if (windowed && current?.dataset.position !== undefined && windowed.host.contains(current)) {
      const position = Number(current.dataset.position) + step;
      if (position < 0) { (input ?? current.querySelector(".row-link"))?.focus(); return; }
      const next = windowed.rendered.get(position);
      if (!next) return;
      const link = next.querySelector(".row-link");
      if (!link) return;
      link.focus({ preventScroll: true });
      keepInView(next);
      return;
    }
    const links = Array.from(doc.querySelectorAll("main .row-link"));
    const index = links.indexOf(event.target) + step;
    if (index < 0) (input ?? links[0])?.focus();
    else links[Math.min(index, links.length - 1)]?.focus();
  }
}

// Focus never hides under the sticky bars or the tab bar.
export function keepInView(node) {
  const box = node.getBoundingClientRect();
  const top = stickyBottom() + (doc.querySelector(".sticky-header:not([hidden])") ? HEADER : 0);
  const bottom = innerHeight - bottomInset();
  if (box.top < top) window.scrollBy({ top: box.top - top, behavior: "instant" });
  else if (box.bottom > bottom) window.scrollBy({ top: box.bottom - bottom, behavior: "instant" });
}
