// The windowed list after its catalog changed (live.js): the rows around the screen are asked
// for again, so a changed record is drawn anew where it now stands, a record that left the list
// (deleted, or no longer in the search or the category) goes, one that joined it comes, and the
// counts follow. The row first on screen stays where it was (or the top stays the top), focus
// stays on its record, and rows the server draws as before keep their elements: nothing blinks
// and no picture loads again. An extension of WindowedList (windowed-list.js): it works on the
// list's own fields.

import { doc, requestRows } from "./page.js";
import { drawnAs } from "./list-layout.js";

/**
 * Draws `list` as the server has it now. Resolves to the first page of a search's answer (its
 * total, scope and facet counts, for search.js to put in place), or null.
 */
export async function refreshList(list) {
  if (list.kind === "positions") return refreshPositions(list);
  if (list.kind === "search") return refreshSearch(list);
  return null;
}

/**
 * Draws a list of the page's own rows (Hot, Favorites) with `rows`, the rows it has now in their
 * order: the first row on screen stays where it was (or the one after it, when it left).
 */
export function refreshStatic(list, rows) {
  const place = screenPlace(list);
  const anchorID = place.atTop ? null : list.nodeAt(place.position)?.dataset.id;
  rows.forEach((node, index) => { node.dataset.position = String(index); });
  let anchor = 0;
  let offset = place.atTop ? place.offset : 0;
  if (anchorID) {
    const index = rows.findIndex((node) => node.dataset.id === anchorID);
    anchor = index >= 0 ? index : Math.min(place.position, Math.max(0, rows.length - 1));
    offset = place.offset;
  }
  const nodes = new Map(rows.map((node, index) => [index, node]));
  replaceContent(list, { count: rows.length, sections: [], nodes }, anchor, offset);
}

// Where the screen is: the first row on it, how far it is scrolled past that row, and whether
// the list is at its top (then a record added at the top shows).
function screenPlace(list) {
  list.measure();
  list.visibleRange();
  const place = list.place_();
  return { ...place, atTop: list.virtual <= 0, first: Math.min(place.position, ...list.rendered.keys()) };
}

async function refreshPositions(list) {
  const place = screenPlace(list);
  const back = Math.max(0, Math.min(place.position - place.first, 50));
  const parameters = { outline: "1", limit: String(100), thumbs: list.source.thumbs ? "1" : "0" };
  if (place.cursor && !place.atTop) Object.assign(parameters, { at: place.cursor, back: String(back) });
  else parameters.position = String(place.atTop ? 0 : Math.max(0, place.position - back));
  const generation = ++list.generation;
  const { root, rows } = await requestRows(list.url(parameters));
  if (generation !== list.generation || !list.host.isConnected) return null;
  const outline = JSON.parse(root.dataset.outline || '{"count":0,"sections":[]}');
  const nodes = new Map(rows.map((node) => [Number(node.dataset.position), node]));
  let anchor = place.atTop ? 0 : place.position;
  if (root.dataset.anchor !== undefined) anchor = Number(root.dataset.anchor);
  replaceContent(list, { count: outline.count, sections: outline.sections, nodes }, anchor, place.offset);
  redrawRail(outline);
  return null;
}

async function refreshSearch(list) {
  const place = screenPlace(list);
  const anchorID = place.atTop ? null : list.results[place.position]?.id;
  // As many results as cover the screen and the rows kept around it; later ones come by cursor
  // while scrolling, as before.
  const wanted = Math.max(1, ...Array.from(list.rendered.keys(), (position) => position + 1));
  const thumbs = list.source.thumbs ? "1" : "0";
  const generation = ++list.generation;
  const first = await requestRows(list.url({ thumbs }));
  const rows = [...first.rows];
  let next = first.root.dataset.next || null;
  while (next && rows.length < wanted && generation === list.generation) {
    const more = await requestRows(list.url({ after: next, thumbs }));
    rows.push(...more.rows);
    next = more.root.dataset.next || null;
  }
  if (generation !== list.generation || !list.host.isConnected) return null;
  let anchor = 0;
  let offset = place.atTop ? place.offset : 0;
  if (anchorID !== null) {
    const index = rows.findIndex((node) => node.dataset.id === anchorID);
    // The first row left the results: the screen stays at the same place in the list.
    anchor = index >= 0 ? index : Math.min(place.position, Math.max(0, rows.length - 1));
    offset = place.offset;
  }
  replaceContent(list, { count: rows.length, results: rows, next }, anchor, offset);
  return first;
}

// The list's rows, count and sections replaced by the server's, the screen kept on `anchor`.
function replaceContent(list, content, anchor, offset) {
  const focused = doc.activeElement && list.host.contains(doc.activeElement)
    ? doc.activeElement.closest(".row")?.dataset.id ?? null : null;
  const drawn = new Map();
  for (const node of list.rendered.values()) if (node.dataset.id) drawn.set(node.dataset.id, node);
  // A row the server draws as before keeps its element (and its place in the page, its focus).
  const reuse = (node) => {
    const before = drawn.get(node.dataset.id);
    return before && drawnAs.get(before) === node.innerHTML ? before : node;
  };
  let kept;
  if (list.kind === "search") {
    list.results = content.results.map((node) => ({ id: node.dataset.id, node: reuse(node) }));
    list.next = content.next;
    kept = new Map(list.results.map(({ node }, position) => [node, position]));
  } else {
    list.nodes = new Map(Array.from(content.nodes, ([position, node]) => [position, reuse(node)]));
    list.pages = new Set();
    for (const position of list.nodes.keys()) {
      const index = Math.floor(position / list.pageSize);
      if (!list.pages.has(index) && list.known(index)) list.pages.add(index);
    }
    list.sections = list.source.flat ? [] : content.sections.map(({ label, start, count }) => ({ label, start, count }));
    kept = new Map(Array.from(list.nodes, ([position, node]) => [node, position]));
  }
  list.count = content.count;
  list.host.setAttribute("data-count", String(list.count));
  for (const header of list.headers.values()) header.remove();
  list.headers.clear();
  const rendered = list.rendered;
  list.rendered = new Map();
  for (const node of rendered.values()) {
    const position = kept.get(node);
    if (position === undefined) node.remove();
    else list.rendered.set(position, list.draw(position));
  }
  list.measure();
  list.scrollToPosition(anchor, offset);
  if (focused && !list.host.contains(doc.activeElement)) {
    const row = Array.from(list.rendered.values()).find((node) => node.dataset.id === focused);
    row?.querySelector(".row-link")?.focus({ preventScroll: true });
  }
}

// The index rail after a change: a section that became empty is dimmed and leads to the next
// one that has records; one that has records again leads to itself.
function redrawRail(outline) {
  const rail = doc.getElementById("rail");
  if (!rail || !Array.isArray(outline.labels)) return;
  const indexOf = new Map(outline.labels.map((label, index) => [label, index]));
  const sections = outline.sections.map((section) => ({ ...section, index: indexOf.get(section.label) ?? Infinity }));
  for (const link of rail.querySelectorAll("a[data-label]")) {
    const index = indexOf.get(link.dataset.label) ?? Infinity;
    const target = sections.find((section) => section.index >= index) || sections[sections.length - 1];
    link.classList.toggle("empty-label", !sections.some((section) => section.label === link.dataset.label));
    if (target) link.dataset.target = target.label;
  }
}
