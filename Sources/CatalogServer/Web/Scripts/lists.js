// The list on this page, windowed (a catalog or a category in index order, the server's first
// page of search results, Hot and Favorites), and the list's place in the URL: `at=`, the cursor
// of the first row on screen, kept for reload, Back, the detail page's back link, Cancel and
// shared links.

import { doc, element, state } from "./page.js";
import { WindowedList } from "./windowed-list.js";

export const list = doc.getElementById("list");

// The server's rows in a container, by position.
export function rowsIn(container) {
  const rows = new Map();
  container.querySelectorAll("li.row").forEach((node, index) => {
    const position = node.dataset.position !== undefined ? Number(node.dataset.position) : index;
    rows.set(position, node);
  });
  return rows;
}

function startBrowseList(container) {
  const outline = JSON.parse(container.dataset.outline || '{"count":0,"sections":[]}');
  const start = Number(container.dataset.position || 0);
  const host = element("ol", "rows");
  host.id = "sections";
  // A list without a rail (a flat one, a short one) keeps the rows' room where the rail would be.
  for (const name of ["flat", "no-rail"]) if (container.classList.contains(name)) host.classList.add(name);
  const rows = rowsIn(container);
  container.replaceWith(host);
  doc.getElementById("earlier")?.remove();
  doc.getElementById("more")?.remove();
  const source = {
    kind: "positions", rows: container.dataset.rows, pageSize: Number(container.dataset.pageSize || 100),
    thumbs: container.dataset.thumbs !== undefined, count: outline.count, sections: outline.sections,
    flat: container.dataset.flat !== undefined,
  };
  const windowed = new WindowedList(host, source, { rows, onUpdate: rememberPlaceSoon });
  state.list = windowed;
  const saved = savedPlace();
  if (saved && saved.position === start && saved.offset) windowed.scrollToPosition(start, saved.offset);
  else if (start > 0 || location.hash) {
    const label = location.hash.startsWith("#s-") ? decodeURIComponent(location.hash.slice(3)) : null;
    if (!(label && windowed.scrollToLabel(label))) windowed.scrollToPosition(start);
  } else windowed.update();
  const focused = sessionStorage.getItem(placeKey() + ":focus");
  if (focused) {
    sessionStorage.removeItem(placeKey() + ":focus");
    const row = Array.from(host.querySelectorAll(".row")).find((node) => node.dataset.id === focused);
    row?.querySelector(".row-link")?.focus({ preventScroll: true });
  }
}

// The server's first page of results; later pages come by cursor while scrolling.
function startSearchResults(container) {
  const source = {
    kind: "search", rows: container.dataset.rows, next: container.dataset.next || null,
    thumbs: container.dataset.thumbs !== undefined,
    total: container.dataset.capped !== undefined ? null : Number(container.dataset.total),
  };
  const windowed = new WindowedList(container, source, { rows: rowsIn(container) });
  windowed.measure();
  windowed.update();
  state.list = windowed;
  doc.getElementById("more")?.remove();
}

// A list of rows already in the page (Hot, Favorites).
export function startStaticList(container) {
  const windowed = new WindowedList(container, { kind: "static" }, { rows: rowsIn(container) });
  windowed.update();
  state.list = windowed;
}

export function startList() {
  const sections = doc.getElementById("sections");
  const results = doc.getElementById("results");
  const collection = doc.getElementById("collection");
  if (sections && sections.dataset.source === "positions") startBrowseList(sections);
  else if (results && results.dataset.source === "search") startSearchResults(results);
  else if (collection && collection.dataset.favorites !== "local") startStaticList(collection);
}

// ---- The list's place in the URL ----------------------------------------------------------------

const placeKey = () => "catalog:place:" + location.pathname + location.search;
let placeTimer = null;

export function rememberPlaceSoon() {
  clearTimeout(placeTimer);
  placeTimer = setTimeout(rememberPlace, 200);
}

// The cursor of the first row on screen goes into the URL (replaced, never a new entry), and its
// exact offset into this tab's session storage, so reload and Back land on the same pixel.
export function rememberPlace() {
  const windowed = state.list;
  if (!windowed || windowed.kind !== "positions" || !list || list.classList.contains("searching")) return;
  const place = windowed.place_();
  const url = new URL(location.href);
  if (place.position === 0 && place.offset <= 0) url.searchParams.delete("at");
  else if (place.cursor) url.searchParams.set("at", place.cursor);
  else return;
  url.hash = "";
  url.searchParams.delete("from");
  url.searchParams.delete("after");
  url.searchParams.delete("before");
  const next = url.pathname + url.search;
  if (next !== location.pathname + location.search) history.replaceState(history.state, "", next);
  try {
    sessionStorage.setItem(placeKey(), JSON.stringify({ position: place.position, offset: place.offset }));
  } catch (_) { /* storage full or disabled: the URL still holds the place */ }
}

function savedPlace() {
  try { return JSON.parse(sessionStorage.getItem(placeKey()) || "null"); } catch (_) { return null; }
}

// Rows link to their record with the place of the list at the moment they are opened; a row
// opened with the keyboard gets the keyboard's focus again on the way back.
export function startPlaceLinks() {
  list?.addEventListener("click", (event) => {
    const link = event.target.closest(".row-link");
    if (!link || !state.list || state.list.kind !== "positions") return;
    rememberPlace();
    try {
      if (event.detail === 0) sessionStorage.setItem(placeKey() + ":focus", link.closest(".row")?.dataset.id || "");
      else sessionStorage.removeItem(placeKey() + ":focus");
    } catch (_) { /* storage off */ }
    const at = new URL(location.href).searchParams.get("at");
    const url = new URL(link.href);
    if (at) url.searchParams.set("at", at); else url.searchParams.delete("at");
    link.href = url.pathname + url.search;
  }, { capture: true });
}
