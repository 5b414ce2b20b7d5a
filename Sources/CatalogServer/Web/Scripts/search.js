// Search as you type (the previous request cancelled, timings kept for tests), scope buttons,
// filters (facets, price, sort) that search at once, results paged by cursor. The results, their
// total, the scope and facet counts and the filter button's words are the server's (a rows
// fragment, RowsFragment.swift); the script puts them in place. Offline, the rows saved on this
// device are searched instead, and the total says so.

import { activity, doc, element, failed, offerRetry, requestRows, state, text } from "./page.js";
import { list, rememberPlace } from "./lists.js";
import { WindowedList } from "./windowed-list.js";
import { restoreFilters, savedFilter, savedRowsMatching } from "./offline-search.js";

const form = doc.getElementById("search-form");
export const input = doc.getElementById("q");
const filters = doc.getElementById("filters");
const firstScope = list?.querySelector(".scope")?.value ?? null;
let scope = new URL(location.href).searchParams.get("scope");
if (scope === firstScope) scope = null;
let controller = null;
let keystrokeAt = 0;

// The search's filters as the form holds them (facets, price, record fields, sort).
function filterParams() {
  const params = [];
  if (!form) return params;
  for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]:checked")) params.push([box.name, box.value]);
  const low = doc.getElementById("pmin")?.value.trim() || "";
  const high = doc.getElementById("pmax")?.value.trim() || "";
  if (low || high) params.push(["price", low + ".." + high]);
  // A record field's range (min:NAME, max:NAME), numbers or dates.
  for (const bound of doc.querySelectorAll("input[data-range][form=search-form]")) {
    if (bound.value.trim()) params.push([bound.name, bound.value.trim()]);
  }
  const sort = doc.getElementById("sort")?.value;
  if (sort && sort !== "relevance") params.push(["sort", sort]);
  return params;
}

// The search's part of the URL (the page's and the rows fragment's).
function stateQuery(query) {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (scope) params.set("scope", scope);
  for (const [name, value] of filterParams()) params.append(name, value);
  params.set("search", "1");
  return "?" + params.toString();
}

function ensureResults() {
  let results = doc.getElementById("results");
  if (!results) {
    if (state.list) { state.list.destroy(); state.list = null; }
    doc.getElementById("sections")?.remove();
    doc.getElementById("rail")?.remove();
    doc.getElementById("more")?.remove();
    doc.getElementById("earlier")?.remove();
    doc.getElementById("empty")?.remove();
    doc.querySelector(".sticky-header")?.remove();
    const total = element("p", "total"); total.id = "total"; total.setAttribute("aria-live", "polite");
    results = element("ol", "rows results"); results.id = "results";
    // Replaced by the server's "no results" (with what to do) when a search answers.
    const empty = element("div", "empty"); empty.id = "empty"; empty.hidden = true;
    empty.append(element("p", "empty-title", text("noResults")));
    list.append(total, results, empty);
  }
  return results;
}

// The pressed scope, and the counts the server wrote under the search (`fresh`, when it came).
function drawScopes(fresh) {
  for (const button of list.querySelectorAll(".scope")) {
    const label = button.value;
    const pressed = (scope ?? firstScope) === label;
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    if (pressed) revealChip(button);
    if (!fresh) continue;
    const counted = Array.from(fresh.querySelectorAll(".scope")).find((other) => other.value === label);
    const count = counted?.querySelector(".count");
    const badge = button.querySelector(".count");
    if (count && badge) badge.replaceWith(count);
    else if (count) button.append(count);
    else if (badge) badge.textContent = "";
  }
}

// A pressed chip of a row of scope chips is scrolled into the row's view (sideways only).
function revealChip(button) {
  const row = button.parentElement;
  if (!row.classList.contains("scope-chips")) return;
  const box = row.getBoundingClientRect();
  const chip = button.getBoundingClientRect();
  if (chip.left < box.left) row.scrollLeft -= box.left - chip.left + 12;
  else if (chip.right > box.right) row.scrollLeft += chip.right - box.right + 12;
}

// The facets under the current query, as the server drew them (a checked value the search no
// longer finds stays), and the filter button's words.
function drawFacets(fresh, toggleWords) {
  if (fresh) {
    for (const facet of fresh.querySelectorAll(".facet[data-facet]")) {
      doc.querySelector('.facet[data-facet="' + facet.dataset.facet + '"]')?.replaceWith(facet);
    }
  }
  const toggle = doc.getElementById("filter-toggle");
  if (toggle && toggleWords) {
    toggle.textContent = toggleWords.textContent;
    toggle.dataset.count = toggleWords.dataset.count;
  }
}

// What a search's first page brings around its rows: the total, "no results" (when `shown`,
// the rows drawn, is 0), the scope and facet counts and the filter button's words.
export function drawSearchParts(answer, shown) {
  const total = answer.part("total")?.textContent || "";
  doc.getElementById("total").textContent = total;
  delete doc.getElementById("total").dataset.offline;
  if (doc.getElementById("results")?.hasAttribute("aria-label")) doc.getElementById("results").setAttribute("aria-label", total);
  const empty = answer.part("empty");
  if (empty) doc.getElementById("empty").replaceWith(empty);
  doc.getElementById("empty").hidden = shown > 0;
  drawScopes(answer.root);
  drawFacets(answer.part("facets"), answer.part("filter-toggle"));
  const showResults = answer.part("show-results")?.textContent;
  if (showResults && doc.getElementById("show-results")) doc.getElementById("show-results").textContent = showResults;
}

// Rows drawn before the frame: a screenful; the rest of the results follow right after it.
async function search() {
  clearTimeout(activity.debounce);
  activity.debounce = null;
  const query = input.value;
  const startedAt = keystrokeAt || performance.now();
  keystrokeAt = 0;
  if (controller) controller.abort();
  const mine = new AbortController();
  controller = mine;
  const backQuery = stateQuery(query);
  const url = list.dataset.rows + backQuery;
  activity.drawing += 1;
  let finishing = false;
  try {
    if (!navigator.onLine) {
      await searchSaved(query, mine);
      return;
    }
    const requestedAt = performance.now();
    const answer = await requestRows(url, { signal: mine.signal });
    if (mine !== controller) return;
    const answeredAt = performance.now();
    const results = ensureResults();
    state.list?.destroy();
    // As the server draws a first page of results: the total, and whether it was capped.
    results.dataset.total = answer.root.dataset.total || "0";
    results.toggleAttribute("data-capped", answer.root.dataset.capped !== undefined);
    const rows = new Map(answer.rows.map((node, index) => [index, node]));
    const windowed = new WindowedList(results, {
      kind: "search", rows: url, next: answer.root.dataset.next || null, thumbs: answer.root.dataset.thumbs === "1",
      total: answer.root.dataset.capped !== undefined ? null : Number(answer.root.dataset.total),
    }, { rows });
    state.list = windowed;
    window.scrollTo({ top: 0, behavior: "instant" });
    windowed.update();
    drawSearchParts(answer, answer.rows.length);
    state.renders += 1;
    finishing = true;
    const drawnAt = performance.now();
    requestAnimationFrame(() => {
      const frameAt = performance.now();
      state.searchTimings.push(frameAt - startedAt);
      state.searchPhases.push({
        wait: requestedAt - startedAt, answer: answeredAt - requestedAt, draw: drawnAt - answeredAt,
        frame: frameAt - drawnAt,
      });
      // After the frame: the URL (which costs a few ms). Replaced: typing adds no history entries.
      setTimeout(() => {
        if (mine === controller) history.replaceState(history.state, "", location.pathname + backQuery);
        activity.drawing -= 1;
      }, 0);
    });
  } catch (error) {
    failed(error, search);
    // No network (a request that got no answer at all): the rows saved here, said to be only those.
    if (error && error.name !== "AbortError" && (error instanceof TypeError || !navigator.onLine) && mine === controller) {
      await searchSaved(query, mine);
    }
  } finally {
    if (!finishing) activity.drawing -= 1;
  }
}

// Offline: the rows saved on this device (offline-search.js) that hold every word of the query
// and pass the scope and filters, in the chosen order, said to be only those; never the whole
// list as if every row matched.
async function searchSaved(query, mine) {
  const rows = await savedRowsMatching(list.dataset.base || location.pathname, query, savedFilter(list, scope ?? firstScope));
  if (mine !== controller) return;
  const results = ensureResults();
  state.list?.destroy();
  rows.forEach((node, index) => { node.dataset.position = String(index); });
  const windowed = new WindowedList(results, { kind: "static" }, { rows: new Map(rows.map((node, index) => [index, node])) });
  state.list = windowed;
  window.scrollTo({ top: 0, behavior: "instant" });
  windowed.update();
  const total = doc.getElementById("total");
  total.textContent = text("offlineSearch");
  total.dataset.offline = "";
  results.setAttribute("aria-label", total.textContent);
  const empty = doc.getElementById("empty");
  empty.replaceChildren(element("p", "empty-title", text("noResults")));
  empty.hidden = rows.length > 0;
  state.renders += 1;
  history.replaceState(history.state, "", location.pathname + stateQuery(query));
  // The banner's Retry searches the server again (it stays up for that once the network is back).
  offerRetry(search);
}

// A keystroke searches at once when nothing is running; keystrokes that come while a search
// runs are gathered for 15 ms, and the search then cancels the one still running.
function searchSoon() {
  clearTimeout(activity.debounce);
  if (activity.pending === 0 && activity.drawing === 0) {
    activity.debounce = null;
    search();
  } else {
    activity.debounce = setTimeout(search, 15);
  }
}

export function startSearching() {
  if (list.classList.contains("searching")) return;
  list.classList.add("searching");
  search();
}

// Cancel: back to the list where it was before the search (its place is in the session).
function cancelSearch(event) {
  const placeBefore = sessionStorage.getItem("catalog:before-search:" + location.pathname);
  if (placeBefore) {
    event?.preventDefault();
    location.assign(placeBefore);
  }
}

// On a phone the filters are a modal sheet: a dimmed backdrop that closes it, the focus kept
// inside, Escape closes it, and "Show N results" closes it over the results it counts. On a
// wide screen they are a panel beside the results and none of that applies.
let backdrop = null;
let openedFrom = null;
const isSheet = () => filters && getComputedStyle(filters).position === "fixed";

function openFilters(from) {
  if (!filters) return;
  filters.classList.add("open");
  if (!isSheet()) return;
  openedFrom = from || null;
  filters.setAttribute("role", "dialog");
  filters.setAttribute("aria-modal", "true");
  if (!backdrop) {
    backdrop = element("div", "sheet-backdrop");
    backdrop.addEventListener("click", () => closeFilters());
  }
  filters.before(backdrop);
  backdrop.hidden = false;
  filters.querySelector("select, input, button")?.focus({ preventScroll: true });
}

function closeFilters() {
  if (!filters) return;
  const wasSheet = filters.getAttribute("aria-modal") === "true";
  filters.classList.remove("open");
  filters.removeAttribute("role");
  filters.removeAttribute("aria-modal");
  if (backdrop) backdrop.hidden = true;
  if (wasSheet && openedFrom) openedFrom.focus({ preventScroll: true });
  openedFrom = null;
}

filters?.addEventListener("keydown", (event) => {
  if (filters.getAttribute("aria-modal") !== "true") return;
  if (event.key === "Escape") {
    event.preventDefault();
    closeFilters();
  } else if (event.key === "Tab") {
    // The focus goes round inside the sheet.
    const stops = Array.from(filters.querySelectorAll("a[href], button, input, select"))
      .filter((node) => node.offsetParent !== null && !node.disabled);
    if (stops.length === 0) return;
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (event.shiftKey && doc.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && doc.activeElement === last) { event.preventDefault(); first.focus(); }
  }
});

export function startSearch() {
  if (input && list) {
    const rememberBeforeSearch = () => {
      if (!list.classList.contains("searching")) {
        rememberPlace();
        sessionStorage.setItem("catalog:before-search:" + location.pathname, location.pathname + location.search);
      }
    };
    // A tap or click in the field starts searching; moving through the page with Tab does not
    // (the rail and the rows stay where the keyboard expects them).
    input.addEventListener("pointerdown", () => { rememberBeforeSearch(); startSearching(); });
    input.addEventListener("input", (event) => {
      rememberBeforeSearch();
      if (!keystrokeAt) keystrokeAt = event.timeStamp || performance.now();
      list.classList.add("searching");
      searchSoon();
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        const cancel = doc.getElementById("search-cancel");
        const before = sessionStorage.getItem("catalog:before-search:" + location.pathname);
        location.assign(before || cancel?.href || location.pathname);
      } else if (event.key === "ArrowDown") {
        event.preventDefault();
        list.querySelector(".row-link")?.focus();
      }
    });
    doc.getElementById("search-cancel")?.addEventListener("click", cancelSearch);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const button = event.submitter;
      if (button && button.classList.contains("scope")) {
        scope = button.value === firstScope ? null : button.value;
        drawScopes(null);
      } else {
        input.blur();
        closeFilters();
      }
      list.classList.add("searching");
      keystrokeAt = event.timeStamp || performance.now();
      search();
    });
    // Filters search at once; the URL is replaced, so they add no history entries. A sort or
    // filter chosen while browsing turns the list into its results (every record, so ordered).
    const searchFiltered = () => {
      keystrokeAt = performance.now();
      if (!list.classList.contains("searching")) {
        rememberBeforeSearch();
        list.classList.add("searching");
      }
      searchSoon();
    };
    filters?.addEventListener("change", (event) => {
      if (!event.target.classList?.contains("facet-search")) searchFiltered();
    });
    // The sort above the rows while browsing: the filters' sort takes its choice.
    doc.getElementById("browse-sort")?.addEventListener("change", (event) => {
      const sort = doc.getElementById("sort");
      if (!sort) return;
      sort.value = event.target.value;
      searchFiltered();
    });
    // A search page opened offline is the saved copy of its list (the service worker keeps
    // pages by their path: the list, or another search of it): the search runs again, with the
    // URL's query and filters, in the rows saved here.
    const asked = new URL(location.href).searchParams;
    if (!navigator.onLine && asked.has("search")) {
      input.value = asked.get("q") || "";
      restoreFilters(asked);
      list.classList.add("searching");
      search();
    }
  }
  // The filter sheet (a phone) or panel (a wide screen).
  doc.getElementById("filter-toggle")?.addEventListener("click", (event) => {
    event.preventDefault();
    if (filters?.classList.contains("open")) closeFilters();
    else openFilters(event.currentTarget);
  });
  doc.getElementById("show-results")?.addEventListener("click", () => closeFilters());
  // A long list of values narrows to those containing what is typed above it (case and accents aside).
  const fold = (value) => value.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
  filters?.addEventListener("input", (event) => {
    const box = event.target;
    if (!box.classList?.contains("facet-search")) return;
    const needle = fold(box.value.trim());
    for (const item of box.closest(".facet").querySelectorAll("li")) {
      item.hidden = needle !== "" && !fold(item.querySelector(".facet-label")?.textContent || "").includes(needle);
    }
  });
  doc.getElementById("filters-close")?.addEventListener("click", (event) => { event.preventDefault(); closeFilters(); });
  doc.getElementById("filters-reset")?.addEventListener("click", (event) => {
    if (!input) return;
    event.preventDefault();
    for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]")) box.checked = false;
    for (const id of ["pmin", "pmax"]) { const field = doc.getElementById(id); if (field) field.value = ""; }
    for (const bound of doc.querySelectorAll("input[data-range][form=search-form]")) bound.value = "";
    const sort = doc.getElementById("sort"); if (sort) sort.value = "relevance";
    search();
  });
}

