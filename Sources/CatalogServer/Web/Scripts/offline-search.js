// Searching offline: the rows of this list that this device holds, the ones in the page and the
// ones the service worker saved (sw.js keeps the list's pages and rows fragments in its page
// cache), each record once, that contain every word of the query, ignoring case and accents.
// They are the server's rows as they were saved; nothing is drawn here.

import { doc } from "./page.js";

// The service worker's page caches (sw.js: PAGE_CACHE).
const PAGE_CACHES = "catalog-pages";

// Lower case without accents or other marks ("Ärger" and "arger" alike, "ß" as "ss").
function fold(value) {
  return value.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/ß/g, "ss");
}

function words(query) { return fold(query).split(/\s+/).filter(Boolean); }

// Rows of the markup of a saved page or rows fragment.
function rowsOf(html) {
  const template = doc.createElement("template");
  template.innerHTML = html;
  return Array.from(template.content.querySelectorAll("li.row[data-id]"));
}

// The saved answers for the list at `base` (its pages, with any query, and its rows fragments).
async function savedAnswers(base) {
  const answers = [];
  if (!("caches" in window)) return answers;
  try {
    for (const name of await caches.keys()) {
      if (!name.startsWith(PAGE_CACHES)) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (path !== base && path !== base + "/rows") continue;
        const response = await cache.match(request);
        if (response) answers.push(await response.text());
      }
    }
  } catch (_) { /* no cache storage (a private window): the page's own rows only */ }
  return answers;
}

// The rows of the list at `base` that this device holds and that match `query`, in the order
// found (the page's own first), as fresh elements for the results list.
export async function savedRowsMatching(base, query) {
  const wanted = words(query);
  const found = new Map();
  const consider = (row) => {
    const id = row.dataset.id;
    if (!id || found.has(id) || row.classList.contains("placeholder")) return;
    const haystack = fold(row.textContent);
    if (wanted.every((word) => haystack.includes(word))) found.set(id, row.cloneNode(true));
  };
  for (const row of doc.querySelectorAll("#list li.row[data-id]")) consider(row);
  for (const html of await savedAnswers(base)) for (const row of rowsOf(html)) consider(row);
  for (const row of found.values()) {
    // Placed by the results list, not where the saved list had them.
    row.removeAttribute("style");
    delete row.dataset.fitted;
  }
  return Array.from(found.values());
}
