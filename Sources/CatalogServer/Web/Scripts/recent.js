// Recently viewed records: kept in this browser only (localStorage, one list per catalog, newest
// first, at most MAX), shown at the top of the catalog's start page as a row of links with a
// Clear button. Nothing goes to the server. The links are drawn from what is kept, so they show
// offline too; online, the server's rows of the kept records (`/c/{id}/rows?item=…`, which
// leaves out records that no longer exist) bring the current titles and drop the records that
// are gone.

import { body, doc, element, encode, requestRows, state, text } from "./page.js";
import { list } from "./lists.js";

const PREFIX = "catalog:recent:";
const MAX = 10;

function kept(catalog) {
  try {
    const entries = JSON.parse(localStorage.getItem(PREFIX + catalog) || "[]");
    if (!Array.isArray(entries)) return [];
    return entries.filter((entry) => entry && typeof entry.id === "string" && typeof entry.title === "string").slice(0, MAX);
  } catch (_) { return []; }
}

function keep(catalog, entries) {
  try {
    if (entries.length) localStorage.setItem(PREFIX + catalog, JSON.stringify(entries.slice(0, MAX)));
    else localStorage.removeItem(PREFIX + catalog);
  } catch (_) { /* storage off */ }
}

// A record shown (its page, or the pane beside a list): first in its catalog's list.
export function noteViewed(article) {
  const catalog = article.dataset.catalog;
  const id = article.dataset.id;
  const title = article.querySelector(".detail-title")?.textContent.trim();
  if (!catalog || !id || !title) return;
  keep(catalog, [{ id, title }, ...kept(catalog).filter((entry) => entry.id !== id)]);
}

// What this browser kept of every catalog goes (someone signed out of a shared device).
export function forgetRecent() {
  try {
    const names = [];
    for (let index = 0; index < localStorage.length; index += 1) {
      const name = localStorage.key(index);
      if (name && name.startsWith(PREFIX)) names.push(name);
    }
    for (const name of names) localStorage.removeItem(name);
  } catch (_) { /* storage off */ }
}

// The list's rows start lower or higher once the links come or go: the windowed list measures again.
function listMoved() {
  if (!state.list) return;
  state.list.measure();
  state.list.schedule();
}

function draw(catalog, entries) {
  const section = element("section", "recent");
  section.id = "recent";
  section.setAttribute("aria-labelledby", "recent-title");
  const head = element("div", "recent-head");
  const title = element("h2", "recent-title", text("recentlyViewed"));
  title.id = "recent-title";
  const clear = element("button", "recent-clear", text("clearRecent"));
  clear.type = "button";
  clear.id = "recent-clear";
  head.append(title, clear);
  const links = element("ol", "recent-list");
  for (const entry of entries) {
    const item = element("li", "recent-item");
    item.dataset.id = entry.id;
    const link = element("a", "recent-link", entry.title);
    link.href = "/c/" + encode(catalog) + "/i/" + encode(entry.id);
    item.append(link);
    links.append(item);
  }
  section.append(head, links);
  clear.addEventListener("click", () => {
    keep(catalog, []);
    section.remove();
    listMoved();
    doc.getElementById("main")?.focus({ preventScroll: true });
  });
  return section;
}

// Online: the kept records that still exist, with their titles as they are now.
async function check(catalog, entries, section) {
  if (!navigator.onLine) return;
  const url = "/c/" + encode(catalog) + "/rows?thumbs=0&" + entries.map((entry) => "item=" + encode(entry.id)).join("&");
  let rows;
  try {
    rows = (await requestRows(url)).rows;
  } catch (_) {
    return;  // the list as kept: nothing is dropped without an answer
  }
  const titles = new Map(rows.map((row) => [row.dataset.id, row.querySelector(".title")?.textContent.trim()]));
  // Entries viewed meanwhile (another tab) are kept as they are.
  const now = kept(catalog).filter((entry) => !entries.some((old) => old.id === entry.id) || titles.has(entry.id))
    .map((entry) => ({ id: entry.id, title: titles.get(entry.id) || entry.title }));
  keep(catalog, now);
  for (const item of Array.from(section.querySelectorAll(".recent-item"))) {
    const entry = now.find((candidate) => candidate.id === item.dataset.id);
    if (!entry) item.remove();
    else item.firstChild.textContent = entry.title;
  }
  if (!now.length) section.remove();
  listMoved();
  section.dataset.checked = "1";
}

// The catalog's start page (the whole catalog browsed, not a category, not a search): the
// records viewed last, above the rows and after the index rail in the focus order (the rail stays
// one Tab stop after the search field).
export function startRecent() {
  const sections = doc.getElementById("sections");
  if (!list || !sections || list.dataset.category !== undefined || list.classList.contains("searching")) return;
  const catalog = list.dataset.catalog || body.dataset.catalog;
  const entries = kept(catalog);
  if (!entries.length) return;
  const section = draw(catalog, entries);
  (doc.getElementById("list-head") || sections).before(section);
  check(catalog, entries, section);
}
