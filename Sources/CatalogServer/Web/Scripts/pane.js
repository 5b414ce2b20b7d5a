// On wide screens the record in a pane beside the list, with its own URL and title (Back closes
// it, and so does Escape, which returns the focus to the record's row), and the list column's width, dragged or set with the arrow keys. The record is the
// server's detail page's article.

import { doc, element, encode, failed, request, state, text } from "./page.js";
import { list, rememberPlace } from "./lists.js";
import { enhanceFavorite } from "./favorites.js";

const wide = window.matchMedia("(min-width: 900px)");
const pane = doc.getElementById("pane");
const main = doc.getElementById("main");
const listTitle = list?.dataset.title || doc.title;
// The bar's title: the list's, or the open record's (the pane is the page's subject then).
const bar = doc.getElementById("bar-title");
const barTitle = list?.dataset.barTitle || bar?.textContent || "";
let paneController = null;
// The record whose row gets the focus back once the pane is closed (by Escape).
let returnFocusTo = null;

function markCurrent(id) {
  for (const other of doc.querySelectorAll(".row-link[aria-current]")) other.removeAttribute("aria-current");
  if (!id) return;
  const current = Array.from(doc.querySelectorAll(".row")).find((node) => node.dataset.id === id);
  current?.querySelector(".row-link")?.setAttribute("aria-current", "true");
}

function closePane() {
  if (!pane) return;
  pane.replaceChildren(element("p", "pane-empty", text("pickRecord")));
  main?.classList.remove("has-open");
  doc.title = listTitle;
  if (bar) bar.textContent = barTitle;
  markCurrent(null);
  const id = returnFocusTo;
  returnFocusTo = null;
  if (id) {
    const row = Array.from(doc.querySelectorAll(".row")).find((node) => node.dataset.id === id);
    row?.querySelector(".row-link")?.focus();
  }
}

// Closes the pane as its close link does: Back when the pane has its own history entry.
function closeFromLink(href) {
  if (history.state && history.state.open) history.back();
  else {
    closePane();
    history.replaceState(null, "", href);
  }
}

async function openPane(href, push) {
  if (!pane) return;
  paneController?.abort();
  const mine = new AbortController();
  paneController = mine;
  try {
    const html = await request(href, { signal: mine.signal, accept: "text/html" });
    if (mine !== paneController) return;
    const page = new DOMParser().parseFromString(html, "text/html");
    const article = page.querySelector("article.detail");
    if (!article) throw new Error("no record in " + href);
    const close = element("a", "pane-close", text("close"));
    close.id = "pane-close";
    const id = article.dataset.id;
    const url = new URL(location.href);
    url.searchParams.delete("open");
    close.href = url.pathname + url.search;
    pane.replaceChildren(close, doc.adoptNode(article));
    pane.dataset.href = href;
    pane.scrollTop = 0;
    main?.classList.add("has-open");
    const title = article.querySelector(".detail-title")?.textContent || listTitle;
    doc.title = title;
    if (bar) bar.textContent = title;
    markCurrent(id);
    enhanceFavorite(pane);
    if (push) {
      rememberPlace();
      const next = new URL(location.href);
      next.searchParams.set("open", id);
      history.pushState({ open: id }, "", next.pathname + next.search);
    }
  } catch (error) {
    failed(error, () => openPane(href, push));
  }
}

export function startPane() {
  if (!list || !pane) return;
  list.addEventListener("click", (event) => {
    const link = event.target.closest(".row-link");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || !wide.matches) return;
    if (!link.href) return;
    event.preventDefault();
    openPane(link.href, true);
  });
  pane.addEventListener("click", (event) => {
    const close = event.target.closest("#pane-close");
    if (!close) return;
    event.preventDefault();
    closeFromLink(close.getAttribute("href"));
  });
  // Escape closes the pane on a wide screen, unless a field or the search takes it.
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || !wide.matches) return;
    if (!main?.classList.contains("has-open")) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const close = doc.getElementById("pane-close");
    const id = pane.querySelector("article.detail")?.dataset.id;
    if (!close || !id) return;
    event.preventDefault();
    returnFocusTo = id;
    closeFromLink(close.getAttribute("href"));
  });
  addEventListener("popstate", () => {
    const open = new URL(location.href).searchParams.get("open");
    if (!open) { closePane(); return; }
    openPane("/c/" + encode(list.dataset.catalog) + "/i/" + encode(open), false);
  });
  const open = new URL(location.href).searchParams.get("open");
  if (open && !pane.querySelector("article.detail") && wide.matches) {
    // A list the server draws without its pane's record (Hot, Favorites): the script opens it.
    openPane("/c/" + encode(list.dataset.catalog) + "/i/" + encode(open), false);
  } else if (open) markCurrent(open);
}

// The list column's width on wide screens: drag the separator (or use the arrow keys on it).
export function startSplitter() {
  if (!main?.classList.contains("split") || !pane || !list) return;
  const splitter = element("div", "splitter");
  splitter.setAttribute("role", "separator");
  splitter.setAttribute("aria-orientation", "vertical");
  splitter.tabIndex = 0;
  pane.before(splitter);
  const setWidth = (width) => {
    const clamped = Math.round(Math.max(320, Math.min(width, innerWidth - 360)));
    main.style.setProperty("--list-w", clamped + "px");
    try { localStorage.setItem("catalog:list-width", String(clamped)); } catch (_) { /* storage off */ }
    state.list?.onResize();
  };
  const saved = Number(localStorage.getItem("catalog:list-width") || 0);
  if (saved && !list.classList.contains("searching")) main.style.setProperty("--list-w", saved + "px");
  splitter.addEventListener("pointerdown", (event) => {
    splitter.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  splitter.addEventListener("pointermove", (event) => {
    if (splitter.hasPointerCapture(event.pointerId)) setWidth(event.clientX - main.getBoundingClientRect().left);
  });
  splitter.addEventListener("keydown", (event) => {
    const width = list.getBoundingClientRect().width;
    if (event.key === "ArrowLeft") setWidth(width - 24);
    else if (event.key === "ArrowRight") setWidth(width + 24);
  });
}
