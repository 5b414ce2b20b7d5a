const doc = document;
doc.documentElement.classList.add("js");
const list = doc.getElementById("list");
const spinner = doc.getElementById("spinner");
const banner = doc.getElementById("banner");
const rail = doc.getElementById("rail");
let retryAction = null;
let pending = 0;
let debounce = null;
let drawing = 0;
const state = { searchTimings: [], searchPhases: [], renders: 0 };
Object.defineProperty(state, "idle", { get: () => pending === 0 && debounce === null && drawing === 0 });
window.__catalog = state;

async function request(url, signal, accept = "application/json") {
  pending += 1;
  const timer = setTimeout(() => { if (pending > 0 && spinner) spinner.hidden = false; }, 150);
  try {
    const response = await fetch(url, { signal, headers: { Accept: accept } });
    if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
    const body = accept === "application/json" ? await response.json() : await response.text();
    if (banner) banner.hidden = true;
    return body;
  } finally {
    clearTimeout(timer);
    pending -= 1;
    if (pending === 0 && spinner) spinner.hidden = true;
  }
}

// A failed request: the banner tells the user, Retry runs it again, the console keeps the cause.
function failed(error, action) {
  if (error && error.name === "AbortError") return;
  console.error("catalog:", error);
  retryAction = action;
  if (banner) banner.hidden = false;
}
doc.getElementById("retry")?.addEventListener("click", () => {
  if (banner) banner.hidden = true;
  const action = retryAction;
  retryAction = null;
  if (action) action();
});

function element(name, className, text) {
  const node = doc.createElement(name);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Text with <mark> around the UTF-16 ranges the API found, every piece as text.
function marked(className, text, ranges) {
  const node = element("span", className);
  let position = 0;
  for (const range of ranges.slice().sort((a, b) => a.start - b.start)) {
    const start = Math.max(position, Math.min(range.start, text.length));
    const end = Math.min(range.start + range.length, text.length);
    if (start >= end) continue;
    node.append(text.slice(position, start), element("mark", null, text.slice(start, end)));
    position = end;
  }
  node.append(text.slice(position));
  return node;
}

const formatters = new Map();
function price(value, currency, locale) {
  const key = locale + "|" + (currency || "");
  if (!formatters.has(key)) {
    try {
      formatters.set(key, currency && currency.length === 3
        ? new Intl.NumberFormat(locale, { style: "currency", currency })
        : new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
    } catch (_) {
      formatters.set(key, new Intl.NumberFormat(locale));
    }
  }
  return formatters.get(key).format(Number(value));
}

function encode(value) { return encodeURIComponent(value); }

// One row, drawn as RowView.swift draws it on the server.
function row(record, matches, backQuery) {
  const catalog = list.dataset.catalog;
  const item = element("li", "row");
  item.dataset.id = record.id;
  const link = element("a", "row-link");
  link.href = "/c/" + encode(catalog) + "/i/" + encode(record.id) + backQuery;
  if (record.image) {
    const image = element("img", "thumb");
    const isRaster = record.image.startsWith("/images/") && !record.image.toLowerCase().endsWith(".svg");
    image.src = isRaster ? record.image + "?size=80" : record.image;
    image.alt = ""; image.loading = "lazy"; image.decoding = "async"; image.width = 40; image.height = 40;
    link.append(image);
  }
  const text = element("span", "row-text");
  const ranges = (field) => matches.filter((m) => m.field === field);
  const title = marked("title", record.title, ranges("title"));
  if ([...record.title].length > 28) title.classList.add("long");
  text.append(title);
  if (record.subtitle) {
    text.append(marked("subtitle", record.subtitle, ranges("subtitle")));
  } else if (record.categories && record.categories.length) {
    text.append(element("span", "subtitle", list.dataset.category + " " + record.categories.join(", ")));
  }
  link.append(text);
  if (record.price !== null && record.price !== undefined) {
    link.append(element("span", "price", price(record.price, record.currency, list.dataset.locale)));
  }
  if (record.country && record.country.length === 2) {
    const flag = element("img", "flag");
    flag.src = "/images/demo/flags/" + record.country.toLowerCase() + ".svg";
    flag.alt = record.country.toUpperCase(); flag.width = 20; flag.height = 14; flag.loading = "lazy";
    link.append(flag);
  }
  const chevron = element("span", "chevron");  // drawn by the stylesheet
  chevron.setAttribute("aria-hidden", "true");
  link.append(chevron);
  item.append(link);
  return item;
}

// ---- Search as you type -------------------------------------------------------------
const form = list?.querySelector("form.search");
const input = doc.getElementById("q");
const firstScope = list?.querySelector(".scope")?.value ?? null;
let scope = new URL(location.href).searchParams.get("scope");
if (scope === firstScope) scope = null;
let controller = null;
let keystrokeAt = 0;

function stateQuery(query) {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (scope) params.set("scope", scope);
  params.set("search", "1");
  return "?" + params.toString();
}

function ensureResults() {
  let results = doc.getElementById("results");
  if (!results) {
    doc.getElementById("sections")?.remove();
    doc.getElementById("more")?.remove();
    const total = element("p", "total"); total.id = "total"; total.setAttribute("aria-live", "polite");
    results = element("ol", "rows results"); results.id = "results";
    const empty = element("p", "empty", list.dataset.noResults); empty.id = "empty"; empty.hidden = true;
    list.append(total, results, empty);
  }
  return results;
}

function drawScopes(counts) {
  for (const button of list.querySelectorAll(".scope")) {
    const label = button.value;
    button.setAttribute("aria-pressed", (scope ?? firstScope) === label ? "true" : "false");
    if (!counts) continue;
    const count = counts.find((c) => c.label === label);
    let badge = button.querySelector(".count");
    if (!badge) { badge = element("span", "count"); button.append(badge); }
    badge.textContent = count ? String(count.count) + (count.capped ? "+" : "") : "";
  }
}

// Rows drawn before the frame: a screenful; the rest of the results follow right after it.
const firstRows = 20;

async function search() {
  clearTimeout(debounce);
  debounce = null;
  const query = input.value;
  const startedAt = keystrokeAt || performance.now();
  keystrokeAt = 0;
  if (controller) controller.abort();
  const mine = new AbortController();
  controller = mine;
  const params = new URLSearchParams({ q: query, limit: "50" });
  if (scope) params.set("scope", scope);
  const url = "/api/v1/catalogs/" + encode(list.dataset.catalog) + "/search?" + params.toString();
  drawing += 1;
  let finishing = false;
  try {
    const requestedAt = performance.now();
    const response = await request(url, mine.signal);
    if (mine !== controller) return;
    const answeredAt = performance.now();
    const results = ensureResults();
    const backQuery = stateQuery(query);
    const items = response.items;
    const fragment = doc.createDocumentFragment();
    for (const hit of items.slice(0, firstRows)) fragment.append(row(hit, hit.matches || [], backQuery));
    results.replaceChildren(fragment);
    doc.getElementById("total").textContent =
      String(response.total) + (response.totalCapped ? "+" : "") + " " + list.dataset.results;
    doc.getElementById("empty").hidden = items.length > 0;
    drawScopes(response.scopes || []);
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
      // After the frame: the rows below the screen, and the URL (which costs a few ms).
      setTimeout(() => {
        if (mine === controller) {
          const rest = doc.createDocumentFragment();
          for (const hit of items.slice(firstRows)) rest.append(row(hit, hit.matches || [], backQuery));
          results.append(rest);
          history.replaceState(history.state, "", location.pathname + backQuery);
        }
        drawing -= 1;
      }, 0);
    });
  } catch (error) {
    failed(error, search);
  } finally {
    if (!finishing) drawing -= 1;
  }
}

// A keystroke searches at once when nothing is running; keystrokes that come while a search
// runs are gathered for 15 ms, and the search then cancels the one still running.
function searchSoon() {
  clearTimeout(debounce);
  if (pending === 0 && drawing === 0) {
    debounce = null;
    search();
  } else {
    debounce = setTimeout(search, 15);
  }
}

function startSearching() {
  if (list.classList.contains("searching")) return;
  list.classList.add("searching");
  search();
}

if (input && list) {
  // A tap or click in the field starts searching; moving through the page with Tab does not
  // (the rail and the rows stay where the keyboard expects them).
  input.addEventListener("pointerdown", startSearching);
  input.addEventListener("input", (event) => {
    if (!keystrokeAt) keystrokeAt = event.timeStamp || performance.now();
    list.classList.add("searching");
    searchSoon();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      location.assign(list.querySelector(".search-cancel")?.href ?? location.pathname);
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      list.querySelector(".row-link")?.focus();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = event.submitter;
    if (button && button.classList.contains("scope")) {
      scope = button.value === firstScope ? null : button.value;
      drawScopes(null);
    } else {
      input.blur();
    }
    list.classList.add("searching");
    keystrokeAt = event.timeStamp || performance.now();
    search();
  });
}

// ---- More rows while scrolling ------------------------------------------------------
let loading = false;
function lastSection() {
  const sections = doc.querySelectorAll("#sections > .section");
  return sections[sections.length - 1];
}
async function loadMore(more) {
  if (loading) return;
  loading = true;
  const after = new URL(more.href).searchParams.get("after");
  const url = "/api/v1/catalogs/" + encode(list.dataset.catalog) + "/items?limit=100&after=" + encode(after);
  try {
    const page = await request(url);
    const container = doc.getElementById("sections");
    if (!container) return;
    for (const record of page.items) {
      let section = lastSection();
      const label = record.section || "#";
      if (!section || section.dataset.label !== label) {
        section = element("section", "section");
        section.dataset.label = label;
        const header = element("h2", "section-header", label);
        header.id = "s-" + label;
        section.setAttribute("aria-labelledby", header.id);
        section.append(header, element("ol", "rows"));
        container.append(section);
        rail?.querySelector("a[data-label='" + CSS.escape(label) + "']")?.classList.add("loaded");
      }
      section.querySelector("ol").append(row(record, [], ""));
    }
    if (page.next) {
      more.href = location.pathname + "?after=" + encode(page.next);
    } else {
      more.remove();
    }
  } catch (error) {
    failed(error, () => loadMore(more));
  } finally {
    loading = false;
  }
  // Still in view (a tall screen or a short page): keep going.
  if (doc.body.contains(more) && more.getBoundingClientRect().top < innerHeight + 800) loadMore(more);
}
const more = doc.getElementById("more");
if (more && "IntersectionObserver" in window) {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting && doc.body.contains(more)) loadMore(more);
  }, { rootMargin: "800px 0px" });
  observer.observe(more);
}

// ---- Index rail: tap or drag to jump, arrow keys to move, Enter to jump ---------------

// The height of the bars that stay at the top: a section starts right below them.
function stickyBottom() {
  return list?.querySelector("form.search")?.getBoundingClientRect().bottom ?? 0;
}

// Scrolls section `label` to the top; false when it is not in the page.
function showSection(label, focus) {
  const header = doc.getElementById("s-" + label);
  if (!header) return false;
  const section = header.closest(".section") ?? header;
  window.scrollTo({ top: section.getBoundingClientRect().top + scrollY - stickyBottom(), behavior: "instant" });
  if (focus) section.querySelector(".row-link")?.focus({ preventScroll: true });
  return true;
}

if (rail) {
  let active = null;
  let touched = false;
  const jump = (link, focus) => {
    if (showSection(link.dataset.label, focus)) {
      history.replaceState(history.state, "", location.pathname + location.search + "#s-" + encode(link.dataset.label));
    } else {
      if (focus) sessionStorage.setItem("catalog:focus-section", link.dataset.label);
      location.assign(link.href);
    }
  };
  const linkAt = (y) => {
    const box = rail.getBoundingClientRect();
    return doc.elementFromPoint(box.left + box.width / 2, Math.min(Math.max(y, box.top + 1), box.bottom - 1))
      ?.closest("#rail a");
  };
  rail.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    event.preventDefault();
    if (touched) { touched = false; return; }
    if (link) jump(link, event.detail === 0);
  });
  // Touch and pen: the section under the finger shows at once, and follows it while it
  // drags along the rail; a section that is not loaded yet is opened when the finger lifts.
  const follow = (event) => {
    const link = linkAt(event.clientY);
    if (!link || link === active) return;
    active?.classList.remove("active");
    active = link;
    link.classList.add("active");
    showSection(link.dataset.label, false);
  };
  rail.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    event.preventDefault();
    touched = true;
    rail.setPointerCapture(event.pointerId);
    follow(event);
  });
  rail.addEventListener("pointermove", (event) => {
    if (rail.hasPointerCapture(event.pointerId)) follow(event);
  });
  const release = () => {
    if (active) {
      active.classList.remove("active");
      if (!doc.getElementById("s-" + active.dataset.label)) location.assign(active.href);
      else history.replaceState(history.state, "", location.pathname + location.search + "#s-" + encode(active.dataset.label));
    }
    active = null;
    setTimeout(() => { touched = false; }, 400);
  };
  rail.addEventListener("pointerup", release);
  rail.addEventListener("pointercancel", release);
  // One Tab stop for the whole rail (the letter used last); arrows, Home and End move in it.
  const railLinks = Array.from(rail.querySelectorAll("a"));
  const rove = (link) => { for (const other of railLinks) other.tabIndex = other === link ? 0 : -1; };
  rove(railLinks.find((link) => "#s-" + link.dataset.label === decodeURIComponent(location.hash)) ?? railLinks[0]);
  rail.addEventListener("focusin", (event) => { if (railLinks.includes(event.target)) rove(event.target); });
  rail.addEventListener("keydown", (event) => {
    const index = railLinks.indexOf(event.target);
    if (index < 0) return;
    const moves = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: railLinks.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    railLinks[Math.max(0, Math.min(moves[event.key], railLinks.length - 1))].focus();
  });
  for (const header of doc.querySelectorAll(".section-header")) {
    rail.querySelector("a[data-label='" + CSS.escape(header.id.slice(2)) + "']")?.classList.add("loaded");
  }
}

// Arriving from the rail at a section that had to be loaded: the section at the top, and
// the keyboard's focus in it when the rail was used with the keyboard.
if (location.hash.startsWith("#s-") && list) {
  const label = decodeURIComponent(location.hash.slice(3));
  const focus = sessionStorage.getItem("catalog:focus-section") === label;
  sessionStorage.removeItem("catalog:focus-section");
  requestAnimationFrame(() => showSection(label, focus));
}

// ---- The list's place, kept for the way back from a record -----------------------------
const placeKey = () => "catalog:place:" + location.pathname + location.search;
if (list) {
  list.addEventListener("click", (event) => {
    const link = event.target.closest(".row-link");
    if (link) {
      const id = link.closest(".row")?.dataset.id;
      const keyboard = event.detail === 0;
      sessionStorage.setItem(placeKey(), JSON.stringify({ id, top: link.getBoundingClientRect().top, keyboard }));
    }
  }, { capture: true });
  const saved = sessionStorage.getItem(placeKey());
  const fromRecord = doc.referrer && new URL(doc.referrer).pathname.startsWith(location.pathname + "/i/");
  if (saved && fromRecord && !location.hash) {
    try {
      const place = JSON.parse(saved);
      const link = Array.from(list.querySelectorAll(".row")).find((r) => r.dataset.id === place.id)
        ?.querySelector(".row-link");
      if (link) {
        window.scrollTo({ top: link.getBoundingClientRect().top + scrollY - place.top, behavior: "instant" });
        if (place.keyboard) link.focus({ preventScroll: true });
      }
    } catch (_) {
      sessionStorage.removeItem(placeKey());
    }
  }
}

// ---- Keyboard ---------------------------------------------------------------------------
doc.addEventListener("keydown", (event) => {
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
    const links = Array.from(doc.querySelectorAll("main .row-link"));
    const index = links.indexOf(event.target) + (event.key === "ArrowDown" ? 1 : -1);
    if (index < 0) (input ?? links[0])?.focus();
    else links[Math.min(index, links.length - 1)]?.focus();
  }
});

// ---- Two panes on wide screens --------------------------------------------------------
const wide = window.matchMedia("(min-width: 900px)");
if (list && wide.matches) {
  const main = doc.getElementById("main");
  const pane = element("aside", "pane");
  pane.id = "pane";
  pane.setAttribute("aria-live", "polite");
  pane.setAttribute("aria-label", list.dataset.paneLabel || "");
  pane.append(element("p", "pane-empty", list.dataset.pick || ""));
  main.classList.add("with-pane");
  main.append(pane);
  let paneController = null;
  const open = async (link) => {
    paneController?.abort();
    const mine = new AbortController();
    paneController = mine;
    try {
      const html = await request(link.href, mine.signal, "text/html");
      if (mine !== paneController) return;
      const page = new DOMParser().parseFromString(html, "text/html");
      const article = page.querySelector("article.detail");
      if (!article) throw new Error("no record in " + link.href);
      pane.replaceChildren(doc.adoptNode(article));
      pane.scrollTop = 0;
      for (const other of list.querySelectorAll(".row-link[aria-current]")) other.removeAttribute("aria-current");
      link.setAttribute("aria-current", "true");
    } catch (error) {
      failed(error, () => open(link));
    }
  };
  list.addEventListener("click", (event) => {
    const link = event.target.closest(".row-link");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || !wide.matches) return;
    event.preventDefault();
    open(link);
  });
}
