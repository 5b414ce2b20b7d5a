// Searching offline: the rows of this list that this device holds, the ones in the page and the
// ones the service worker saved (sw.js keeps the list's pages and rows fragments in its page
// cache), each record once, that contain every word of the query, ignoring case and accents,
// and that pass the search's scope and filters, in its order. They are the server's rows as they
// were saved; nothing is drawn here. What a row says of its record for the filters and the
// order (its categories, country, price and field values, read by the server's own rules) is in
// its `data-filter` (OfflineFacts.swift), so nothing is parsed here.

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

// What a row's `data-filter` says of its record ({} for a row saved before rows said it).
function factsOf(row) {
  try { return JSON.parse(row.dataset.filter || "{}") || {}; } catch (_) { return {}; }
}

// Whether a value list has one between the bounds (either may be null).
const between = (values, lower, upper) =>
  (values || []).some((value) => (lower === null || value >= lower) && (upper === null || value <= upper));

// Whether a record passes the scope and filters, as the server decides (ListState.swift): every
// category of the scope and of the checked categories; any checked country; a price within the
// range; for a record field, any checked value and a number or date within its range.
function passes(facts, filter) {
  const categories = facts.c || [];
  if (!filter.categories.every((category) => categories.includes(category))) return false;
  if (filter.countries.length > 0 && !filter.countries.includes(facts.n)) return false;
  if (filter.price) {
    if (typeof facts.p !== "number" || !between([facts.p], filter.price.lower, filter.price.upper)) return false;
  }
  for (const [name, wanted] of Object.entries(filter.fields)) {
    const have = facts.f?.[name];
    if (wanted.keys.length > 0 && !(have?.k || []).some((key) => wanted.keys.includes(key))) return false;
    if (wanted.lower !== null || wanted.upper !== null) {
      if (!between(wanted.dates ? have?.d : have?.n, wanted.lower, wanted.upper)) return false;
    }
  }
  return true;
}

// A row's title as it reads (without the typo mark and its hidden words).
function titleOf(row) {
  const title = row.querySelector(".title");
  if (!title) return "";
  return Array.from(title.childNodes)
    .filter((node) => !(node.classList?.contains("typo-mark") || node.classList?.contains("visually-hidden")))
    .map((node) => node.textContent).join("");
}

// Rows in the search's order (`sort` as the URL writes it), by the server's rules (SearchSort):
// titles by the catalog's collation; prices within their currency (the most common first, then
// the others by code, then none), records without a price last; fields numbers before dates
// before texts, the smallest value ascending and the largest descending, records without the
// field last; ties in the order found.
function ordered(rows, sort, locale) {
  if (!sort || sort === "relevance") return rows;
  const keys = sort.split(",").map((key) => (key.startsWith("-") ? { name: key.slice(1), down: true } : { name: key, down: false }));
  const collator = new Intl.Collator(locale || undefined);
  const entries = rows.map((row, index) => ({ row, index, facts: factsOf(row), title: titleOf(row) }));
  const counts = new Map();
  for (const { facts } of entries) if (facts.$) counts.set(facts.$, (counts.get(facts.$) || 0) + 1);
  const main = Array.from(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const currencyRank = (facts) => (facts.$ === undefined ? "2" : facts.$ === main ? "0" : "1" + facts.$);
  // [group, value]: groups ascending always (those without a value last), values by direction.
  const keyOf = (entry, key) => {
    if (key.name === "title") return [0, entry.title];
    if (key.name === "price") return typeof entry.facts.p === "number" ? [currencyRank(entry.facts), entry.facts.p] : ["3", 0];
    const have = entry.facts.f?.[key.name];
    const pick = (values) => (key.down ? Math.max(...values) : Math.min(...values));
    if (have?.n?.length) return [0, pick(have.n)];
    if (have?.d?.length) return [1, pick(have.d)];
    if (have?.k?.length) return [2, have.k.slice().sort(collator.compare)[key.down ? have.k.length - 1 : 0]];
    return [3, 0];
  };
  entries.sort((a, b) => {
    for (const key of keys) {
      const [ga, va] = keyOf(a, key);
      const [gb, vb] = keyOf(b, key);
      if (ga !== gb) return ga < gb ? -1 : 1;
      const order = typeof va === "string" ? collator.compare(va, vb) : va - vb;
      if (order !== 0) return key.down ? -order : order;
    }
    return a.index - b.index;
  });
  return entries.map((entry) => entry.row);
}

// The rows of the list at `base` that this device holds and that match `query` and `filter`
// (scope categories, countries, price, fields, sort: savedFilter below), in its order, or
// in the order found (the page's own first), as fresh elements for the results list.
export async function savedRowsMatching(base, query, filter = null) {
  const wanted = words(query);
  const found = new Map();
  const consider = (row) => {
    const id = row.dataset.id;
    if (!id || found.has(id) || row.classList.contains("placeholder")) return;
    const haystack = fold(row.textContent);
    if (!wanted.every((word) => haystack.includes(word))) return;
    if (filter && !passes(factsOf(row), filter)) return;
    found.set(id, row.cloneNode(true));
  };
  for (const row of doc.querySelectorAll("#list li.row[data-id]")) consider(row);
  for (const html of await savedAnswers(base)) for (const row of rowsOf(html)) consider(row);
  for (const row of found.values()) {
    // Placed by the results list, not where the saved list had them.
    row.removeAttribute("style");
    delete row.dataset.fitted;
  }
  return ordered(Array.from(found.values()), filter?.sort, filter?.locale);
}

// The scope and filters as the offline search applies them to saved rows (offline-search.js):
// the pressed scope's categories and the checked ones, the checked countries, the price range,
// each record field's checked values (by their keys) and range, and the order.
// `list`: the list element; `scope`: the pressed scope's label.
export function savedFilter(list, scope) {
  const pressed = Array.from(list.querySelectorAll(".scope")).find((button) => button.value === scope);
  let categories = [];
  try { categories = JSON.parse(pressed?.dataset.categories || "[]"); } catch (_) { categories = []; }
  const filter = { categories, countries: [], price: null, fields: {}, sort: doc.getElementById("sort")?.value, locale: list.dataset.locale };
  const field = (name) => (filter.fields[name] ??= { keys: [], lower: null, upper: null, dates: false });
  for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]:checked")) {
    if (box.name === "category") filter.categories.push(box.value);
    else if (box.name === "country") filter.countries.push(box.value.toUpperCase());
    else if (box.name.startsWith("f:") && box.dataset.key !== undefined) field(box.name.slice(2)).keys.push(box.dataset.key);
  }
  const number = (id) => {
    const value = parseFloat(doc.getElementById(id)?.value.trim() || "");
    return Number.isFinite(value) ? value : null;
  };
  const [low, high] = [number("pmin"), number("pmax")];
  if (low !== null || high !== null) filter.price = { lower: low, upper: high };
  for (const bound of doc.querySelectorAll("input[data-range][form=search-form]")) {
    const value = bound.value.trim();
    const [end, name] = [bound.name.slice(0, 4), bound.name.slice(4)];
    if (!value || (end !== "min:" && end !== "max:")) continue;
    const dates = bound.type === "date";
    // A day is its midnight UTC, as the server reads it (FieldValueOrder.date).
    const read = dates ? Date.parse(value + "T00:00:00Z") / 1000 : parseFloat(value);
    if (!Number.isFinite(read)) continue;
    const chosen = field(name);
    chosen.dates = dates;
    if (end === "min:") chosen.lower = read; else chosen.upper = read;
  }
  return filter;
}

// The filters a URL names, set in the form (a saved copy of the list has the filters it was
// saved with): checked values, the price range, record field ranges and the order.
export function restoreFilters(params) {
  for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]")) {
    box.checked = params.getAll(box.name).includes(box.value);
  }
  const [low, high] = params.has("price") ? params.get("price").split("..") : [params.get("pmin"), params.get("pmax")];
  for (const [id, value] of [["pmin", low], ["pmax", high]]) {
    const field = doc.getElementById(id);
    if (field) field.value = value || "";
  }
  for (const bound of doc.querySelectorAll("input[data-range][form=search-form]")) bound.value = params.get(bound.name) || "";
  const sort = doc.getElementById("sort");
  const asked = params.get("sort") || "relevance";
  if (sort && Array.from(sort.options).some((option) => option.value === asked)) sort.value = asked;
}
