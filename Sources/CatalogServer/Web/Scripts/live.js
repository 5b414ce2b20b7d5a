// Live updates: an open list (the catalog, a category, search results, Hot, Favorites), a record's page and the
// record beside the list follow their catalog's changes (change-stream.js) from the change the
// page was drawn at (`data-change` on <body>, read in the same snapshot as its rows), so nothing
// written between the page and the stream is missed. Changes that arrive together are drawn
// together: the list asks the server for the rows around the screen again (list-refresh.js), a
// record's page for its article; a deleted record's page says so. `reload` events draw
// everything again. `window.__catalog.live` tells tests and curious people what happened.

import { body, doc, element, encode, request, state, text } from "./page.js";
import { ChangeStream } from "./change-stream.js";
import { refreshList, refreshStatic } from "./list-refresh.js";
import { drawSearchParts } from "./search.js";
import { enhanceFavorite, localFavoriteRows } from "./favorites.js";

// `connected`: a stream is open; `last`: the last change the page got; `events`: changes heard;
// `refreshes`: times the page was drawn again; `opened`: streams opened so far.
const live = { connected: false, last: null, events: 0, refreshes: 0, opened: 0 };

export function startLive() {
  const catalog = body.dataset.catalog;
  const since = Number(body.dataset.change);
  if (!catalog || !body.dataset.change || !Number.isInteger(since)) return;
  if (!doc.getElementById("list") && !doc.getElementById("collection") && !doc.querySelector("article.detail")) return;
  state.live = live;
  let changed = new Map();
  let everything = false;
  let running = false;
  let queued = false;
  let missed = false;
  const schedule = () => {
    if (running || queued) return;
    queued = true;
    // Events read from one chunk of the stream are drawn once.
    setTimeout(run, 0);
  };
  const run = async () => {
    queued = false;
    running = true;
    const batch = changed;
    const reload = everything || missed;
    changed = new Map();
    everything = false;
    missed = false;
    try {
      await Promise.all([redrawList(batch, reload), redrawRecords(catalog, batch, reload)]);
      live.refreshes += 1;
    } catch (error) {
      // Offline, or the server went away: everything is drawn again once the stream is back.
      console.warn("catalog: a live update failed:", error && error.message);
      missed = true;
    } finally {
      running = false;
      if (changed.size || everything) schedule();
    }
  };
  const stream = new ChangeStream("/api/v1/catalogs/" + encode(catalog) + "/changes", since, {
    change(change) {
      live.events += 1;
      changed.set(change.id, change);
      schedule();
    },
    reload() {
      everything = true;
      schedule();
    },
    deleted() { notice(doc.getElementById("main"), text("catalogDeleted"), "alert"); },
    status(connected) {
      live.connected = connected;
      live.opened = stream.opened;
      if (connected && missed) schedule();
    },
  });
  live.stream = stream;
  Object.defineProperty(live, "last", { get: () => stream.last, enumerable: true });
}

// The list as the server has it now, with its counts.
async function redrawList(batch, reload) {
  const windowed = state.list;
  const collection = doc.getElementById("collection");
  if (windowed && collection && windowed.host === collection) return redrawCollection(windowed, batch, reload);
  if (!windowed || !doc.getElementById("list")?.contains(windowed.host)) return;
  const answer = await refreshList(windowed);
  if (windowed !== state.list) return;
  if (answer) drawSearchParts(answer, windowed.count);
  else if (windowed.kind === "positions") {
    const empty = doc.getElementById("empty");
    if (empty) empty.hidden = windowed.count > 0;
  }
}

// Hot or Favorites as they are now. Any change may move a record into or out of Hot, so its
// rows are asked for again after every change; Favorites only when one of its records changed.
async function redrawCollection(windowed, batch, reload) {
  const collection = windowed.host;
  if (collection.dataset.via === "favorites" && !reload) {
    const shown = new Set(Array.from(windowed.nodes.values(), (node) => node.dataset.id));
    if (!Array.from(batch.keys()).some((id) => shown.has(id))) return;
  }
  const rows = collection.dataset.favorites === "local" ? await localFavoriteRows(collection) : await pageRows();
  if (windowed !== state.list || !collection.isConnected) return;
  refreshStatic(windowed, rows);
  const empty = doc.getElementById("empty");
  if (empty) empty.hidden = rows.length > 0;
}

// The rows of this page as the server draws it now.
async function pageRows() {
  const html = await request(location.pathname + location.search, { accept: "text/html" });
  const page = new DOMParser().parseFromString(html, "text/html");
  return Array.from(page.querySelectorAll("#collection > li.row"), (node) => doc.adoptNode(node));
}

// Each record on the page that changed, drawn again (or said to be deleted).
async function redrawRecords(catalog, batch, reload) {
  const jobs = [];
  for (const article of doc.querySelectorAll("article.detail")) {
    const change = batch.get(article.dataset.id);
    if (!change && !reload) continue;
    if (change && change.kind === "delete") markDeleted(article);
    else jobs.push(redrawRecord(article, catalog));
  }
  await Promise.all(jobs);
}

async function redrawRecord(article, catalog) {
  const pane = article.closest("#pane");
  const href = pane
    ? pane.dataset.href || "/c/" + encode(catalog) + "/i/" + encode(article.dataset.id)
    : location.pathname + location.search;
  const response = await fetch(href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
  if (response.status === 404) { markDeleted(article); return; }
  if (!response.ok) throw new Error("HTTP " + response.status + " for " + href);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.querySelector("article.detail");
  if (!fresh || !article.isConnected || fresh.dataset.id !== article.dataset.id) return;
  const focused = article.contains(doc.activeElement) ? doc.activeElement.id : "";
  const adopted = doc.adoptNode(fresh);
  article.replaceWith(adopted);
  enhanceFavorite(adopted);
  if (focused) doc.getElementById(focused)?.focus({ preventScroll: true });
  const title = adopted.querySelector(".detail-title")?.textContent || "";
  if (pane) {
    if (title) doc.title = title;
    return;
  }
  doc.title = page.title;
  const bar = doc.getElementById("bar-title");
  if (bar) bar.textContent = page.getElementById("bar-title")?.textContent || title;
  const data = doc.querySelector('script[type="application/ld+json"]');
  const freshData = page.querySelector('script[type="application/ld+json"]');
  if (data && freshData) data.textContent = freshData.textContent;
}

function markDeleted(article) {
  if (article.classList.contains("deleted")) return;
  article.classList.add("deleted");
  for (const control of article.querySelectorAll("form.favorite-form, .favorite-hint, .edit-link")) control.hidden = true;
  notice(article, text("recordDeleted"), "status");
}

// A notice at the top of `container`, announced: the live region is in the page before its words.
function notice(container, words, role) {
  if (!container) return;
  const note = element("p", "notice");
  note.setAttribute("role", role);
  note.dataset.notice = words;
  container.prepend(note);
  requestAnimationFrame(() => { note.textContent = words; });
}
