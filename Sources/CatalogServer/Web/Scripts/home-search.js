// The home page's one search across every catalog, as you type: the server draws the groups
// (`/search?q=…&fragment=1`, HomeSearch.swift), the script puts them in place of the catalog
// list, keeps the query in the URL, and cancels a request a newer keystroke replaced.

import { activity, doc, failed, request } from "./page.js";

const DEBOUNCE = 120;

export function startHomeSearch() {
  const form = doc.getElementById("home-search");
  const input = doc.getElementById("home-q");
  if (!form || !input) return;
  const catalogs = doc.getElementById("catalogs");
  const footnote = doc.querySelector("main > .footnote");
  let controller = null;
  const show = (searching) => {
    if (catalogs) catalogs.hidden = searching;
    if (footnote) footnote.hidden = searching;
  };
  const run = async () => {
    clearTimeout(activity.debounce);
    activity.debounce = null;
    const query = input.value.trim();
    controller?.abort();
    const url = new URL(location.href);
    if (!query) {
      controller = null;
      doc.getElementById("home-results")?.replaceChildren();
      show(false);
      history.replaceState(null, "", "/");
      return;
    }
    const mine = new AbortController();
    controller = mine;
    try {
      const html = await request("/search?q=" + encodeURIComponent(query) + "&fragment=1",
        { signal: mine.signal, accept: "text/html" });
      if (mine !== controller) return;
      const template = doc.createElement("template");
      template.innerHTML = html;
      const fresh = template.content.getElementById("home-results");
      if (!fresh) return;
      const current = doc.getElementById("home-results");
      if (current) current.replaceWith(fresh);
      else form.after(fresh);
      show(true);
      url.pathname = "/search";
      url.search = "?q=" + encodeURIComponent(query);
      history.replaceState(null, "", url.pathname + url.search);
    } catch (error) {
      failed(error, run);
    }
  };
  input.addEventListener("input", () => {
    // The page is not idle (`window.__catalog.idle`) while a search waits to run.
    clearTimeout(activity.debounce);
    activity.debounce = setTimeout(run, DEBOUNCE);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
}
