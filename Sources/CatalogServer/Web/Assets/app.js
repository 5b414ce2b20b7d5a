// The web app's one script, an ES module that only enhances server-rendered pages:
//
// - one windowed list for every list (a catalog, a category, search results, Hot, Favorites): the
//   page holds a few dozen rows at any depth, while the scroll bar and the index rail address the
//   whole list (its outline gives every section's first position; rows are fetched by position);
// - the list's place in the URL (`at=`, the cursor of the first row on screen), kept for reload,
//   Back, the detail page's back link, Cancel and shared links;
// - search as you type (the previous request cancelled, timings kept for tests), scope buttons,
//   filters (facets, price, sort) that search at once, results paged by the API's cursor;
// - the index rail (tap, drag to scrub, arrow keys), the keyboard (`/` searches, arrows move
//   through rows), a spinner after 150 ms, an error banner with Retry;
// - on wide screens the record in a pane beside the list, with its own URL and title (Back closes
//   it); favorites without an account kept in this browser and merged at sign-in; toggles that
//   add no history entry; a placeholder for pictures that fail; the service worker, emptied when
//   someone signs out.
//
// Every value is put into the page as text, never as markup. Words come from the page's message
// table (`data-messages` on <body>).
//
// `window.__catalog` is for tests and measurements: `searchTimings` (milliseconds from the input
// event to the frame after its results are drawn), `searchPhases`, `renders` (searches drawn),
// `idle` (no request running and no search waiting), `list` (the windowed list), `frames`.

const doc = document;
doc.documentElement.classList.add("js");
const body = doc.body;
const lang = body.dataset.lang || "en";
const messages = (() => {
  try { return JSON.parse(body.dataset.messages || "{}"); } catch (_) { return {}; }
})();
const spinner = doc.getElementById("spinner");
const banner = doc.getElementById("banner");
const bannerText = doc.getElementById("banner-text");
let retryAction = null;
let pending = 0;
let debounce = null;
let drawing = 0;
const state = { searchTimings: [], searchPhases: [], renders: 0, list: null, frames: [] };
Object.defineProperty(state, "idle", {
  get: () => pending === 0 && debounce === null && drawing === 0 && (!state.list || state.list.idle()),
});
window.__catalog = state;

// ---- Words, numbers, prices -------------------------------------------------------------------

const numberFormat = new Intl.NumberFormat(lang);
function number(value) { return numberFormat.format(value); }

// CLDR's cardinal rules for whole numbers, as the server applies them (WebStrings.swift).
function pluralCategory(count) {
  const n = Math.abs(count);
  if (lang === "fr") return n <= 1 ? "one" : n % 1000000 === 0 ? "many" : "other";
  if (lang === "es") return n === 1 ? "one" : n !== 0 && n % 1000000 === 0 ? "many" : "other";
  return n === 1 ? "one" : "other";
}

function text(key) {
  const value = messages[key];
  if (typeof value === "string") return value;
  if (value && typeof value === "object") return value.other || key;
  return key;
}

function plural(key, count) {
  const value = messages[key];
  const form = value && typeof value === "object" ? value[pluralCategory(count)] || value.other : value;
  return String(form || key).replace("{count}", number(count));
}

const formatters = new Map();
function price(value, currency, locale) {
  const key = locale + "|" + (currency || "");
  if (!formatters.has(key)) {
    try {
      formatters.set(key, currency && /^[A-Z]{3}$/.test(currency)
        ? new Intl.NumberFormat(locale, { style: "currency", currency })
        : new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
    } catch (_) {
      formatters.set(key, new Intl.NumberFormat(locale));
    }
  }
  return formatters.get(key).format(Number(value));
}

const regionNames = (() => {
  try { return new Intl.DisplayNames([lang], { type: "region" }); } catch (_) { return null; }
})();

function encode(value) { return encodeURIComponent(value); }

// ---- Requests, spinner, banner ------------------------------------------------------------------

async function request(url, options = {}) {
  const { signal, accept = "application/json", method = "GET", form = null } = options;
  pending += 1;
  const timer = setTimeout(() => { if (pending > 0 && spinner) spinner.hidden = false; }, 150);
  try {
    const init = { signal, method, headers: { Accept: accept }, credentials: "same-origin" };
    if (form) {
      init.body = new URLSearchParams(form);
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const response = await fetch(url, init);
    if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
    const result = accept === "application/json"
      ? (response.status === 204 ? null : await response.json())
      : await response.text();
    if (banner) banner.hidden = true;
    return result;
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
  if (bannerText) bannerText.textContent = text("unreachable");
  if (banner) banner.hidden = false;
}
doc.getElementById("retry")?.addEventListener("click", () => {
  if (banner) banner.hidden = true;
  const action = retryAction;
  retryAction = null;
  if (action) action(); else location.reload();
});
doc.getElementById("offline-retry")?.addEventListener("click", () => location.reload());
function showOffline() {
  if (!banner || navigator.onLine || doc.querySelector(".offline-page")) return;
  if (bannerText) bannerText.textContent = text("offlineBanner");
  banner.hidden = false;
}
addEventListener("offline", showOffline);
addEventListener("online", () => { if (banner && !retryAction) banner.hidden = true; });
showOffline();

// ---- Elements and rows --------------------------------------------------------------------------

function element(name, className, content) {
  const node = doc.createElement(name);
  if (className) node.className = className;
  if (content !== undefined) node.textContent = content;
  return node;
}

// Text with <mark> around the UTF-16 ranges the API found, every piece as text.
function marked(className, value, ranges) {
  const node = element("span", className);
  let position = 0;
  for (const range of ranges.slice().sort((a, b) => a.start - b.start)) {
    const start = Math.max(position, Math.min(range.start, value.length));
    const end = Math.min(range.start + range.length, value.length);
    if (start >= end) continue;
    node.append(value.slice(position, start), element("mark", null, value.slice(start, end)));
    position = end;
  }
  node.append(value.slice(position));
  return node;
}

const COUNTRY = /^[A-Za-z]{2}$/;

function flag(country) {
  const code = country.toUpperCase();
  if (!COUNTRY.test(code)) return element("span", "flag code", code);
  const image = element("img", "flag");
  image.src = "/images/demo/flags/" + code.toLowerCase() + ".svg";
  image.alt = code;
  image.title = (regionNames && regionNames.of(code)) || code;
  image.width = 20; image.height = 14; image.loading = "lazy";
  return image;
}

// One row, drawn as RowView.swift draws it on the server.
function row(record, options) {
  const { catalog, matches = [], snippet = null, href, thumbnails, locale } = options;
  const item = element("li", "row");
  item.dataset.id = record.id;
  const link = element("a", "row-link");
  link.href = href;
  if (record.image) {
    const image = element("img", "thumb");
    const isRaster = record.image.startsWith("/images/") && !record.image.toLowerCase().endsWith(".svg");
    image.src = isRaster ? record.image + "?size=80" : record.image;
    image.alt = ""; image.loading = "lazy"; image.decoding = "async"; image.width = 40; image.height = 40;
    link.append(image);
  } else if (thumbnails) {
    const none = element("span", "thumb thumb-none");
    none.setAttribute("aria-hidden", "true");
    link.append(none);
  }
  const texts = element("span", "row-text");
  const ranges = (field) => matches.filter((m) => m.field === field);
  const title = marked("title", record.title, ranges("title"));
  if ([...record.title].length > 28) title.classList.add("long");
  texts.append(title);
  if (snippet && !ranges("title").length) {
    texts.append(marked("subtitle snippet", snippet.text, snippet.matches || []));
  } else if (record.subtitle) {
    texts.append(marked("subtitle", record.subtitle, ranges("subtitle")));
  } else if (record.categories && record.categories.length) {
    texts.append(element("span", "subtitle", text("categoryPrefix") + " " + record.categories.join(", ")));
  }
  link.append(texts);
  if (record.price !== null && record.price !== undefined) {
    link.append(element("span", "price", price(record.price, record.currency, locale)));
  }
  if (record.country) link.append(flag(record.country));
  const chevron = element("span", "chevron");  // drawn by the stylesheet
  chevron.setAttribute("aria-hidden", "true");
  link.append(chevron);
  item.append(link);
  void catalog;
  return item;
}

// A row whose record has not arrived yet: the same height, a neutral shape.
function placeholderRow() {
  const item = element("li", "row placeholder");
  item.setAttribute("aria-busy", "true");
  const link = element("span", "row-link");
  link.append(element("span", "row-text"));
  link.firstChild.append(element("span", "title skeleton", "\u00a0"), element("span", "subtitle skeleton", "\u00a0"));
  item.append(link);
  return item;
}

// A failed picture: a neutral placeholder of the same size instead of the browser's broken image.
doc.addEventListener("error", (event) => {
  const image = event.target;
  if (!(image instanceof HTMLImageElement) || image.dataset.failed) return;
  image.dataset.failed = "1";
  if (image.classList.contains("flag")) {
    const badge = element("span", "flag code", (image.alt || "").toUpperCase());
    image.replaceWith(badge);
    return;
  }
  const placeholder = element("span", (image.className || "") + " image-failed");
  placeholder.setAttribute("role", "img");
  placeholder.setAttribute("aria-label", image.alt || text("imageUnavailable"));
  image.replaceWith(placeholder);
}, true);

// ---- The windowed list ----------------------------------------------------------------------

const rootStyle = getComputedStyle(doc.documentElement);
const px = (name, fallback) => parseFloat(rootStyle.getPropertyValue(name)) || fallback;
const ROW = px("--row-h", 60);
const HEADER = px("--header-h", 28);
// Browsers cap an element's height (Chromium near 33 million pixels, Firefox near 17): longer
// lists are drawn scaled, with 1:1 scrolling in between (see `mapped`).
const MAX_HEIGHT = 8000000;
const PAGE = 100;
const BUFFER = 1.0;  // screens of rows kept above and below the visible ones

function stickyBottom() {
  const form = doc.querySelector("form.search");
  const bar = doc.querySelector("header.bar");
  return Math.max(form ? form.getBoundingClientRect().bottom : 0, bar ? bar.getBoundingClientRect().bottom : 0);
}

function bottomInset() {
  const tabs = doc.querySelector("nav.tabs");
  return tabs ? tabs.getBoundingClientRect().height : 0;
}

/**
 * One list of rows, windowed: only the rows near the screen are in the page.
 *
 * `source` says where rows come from:
 * - `{kind: "positions", api, count, sections: [{label, start, count}…], flat}`: rows by position
 *   (`api?position=N&limit=100`), the whole list laid out from its outline;
 * - `{kind: "search", api, next, total}`: pages of results appended by cursor while scrolling;
 * - `{kind: "static"}`: the rows already in the page.
 * `prerendered` are server-drawn rows by position (adopted as they are).
 */
class WindowedList {
  constructor(host, source, options) {
    this.host = host;
    this.source = source;
    this.options = options;
    this.kind = source.kind;
    this.pages = new Map();      // page index → {records, cursors, matches…} (positions)
    this.loading = new Map();    // page index → promise
    this.results = [];           // search: hits in order; static: nodes
    this.prerendered = options.prerendered || new Map();
    this.rendered = new Map();   // position → li
    this.headers = new Map();    // section index → li
    this.next = source.next || null;
    this.fetchingNext = null;
    this.generation = 0;
    this.sections = (source.sections || []).map(({ label, start, count }) => ({ label, start, count }));
    if (this.kind !== "positions" || source.flat) this.sections = [];
    this.count = this.kind === "positions" ? source.count : this.prerendered.size;
    this.anchorVirtual = 0;
    this.anchorPos = 0;
    this.virtual = 0;
    this.lastPos = 0;
    this.scheduled = false;
    host.classList.add("vlist");
    host.replaceChildren();
    host.setAttribute("aria-rowcount", String(this.count));
    this.sticky = null;
    if (this.sections.length) {
      this.sticky = element("div", "sticky-header");
      this.sticky.setAttribute("aria-hidden", "true");
      host.before(this.sticky);
    }
    this.measure();
    this.onScroll = () => this.schedule();
    addEventListener("scroll", this.onScroll, { passive: true });
    this.onResize = () => { this.measure(); this.schedule(); };
    addEventListener("resize", this.onResize);
  }

  destroy() {
    removeEventListener("scroll", this.onScroll);
    removeEventListener("resize", this.onResize);
    this.sticky?.remove();
    this.generation += 1;
  }

  idle() { return this.loading.size === 0 && !this.fetchingNext && !this.scheduled; }

  // ---- Geometry: every section a header, every record a row of fixed height.

  get total() {
    const rows = this.count + (this.kind === "search" && this.next ? 1 : 0);
    return this.sections.length * HEADER + rows * ROW;
  }

  sectionIndexOf(position) {
    let low = 0;
    let high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.sections[middle].start <= position) low = middle; else high = middle - 1;
    }
    return low;
  }

  rowTop(position) {
    if (!this.sections.length) return position * ROW;
    const index = this.sectionIndexOf(position);
    return (index + 1) * HEADER + position * ROW;
  }

  headerTop(index) { return index * HEADER + this.sections[index].start * ROW; }

  // The row at or just below virtual offset `y`.
  positionAt(y) {
    if (!this.sections.length) return Math.max(0, Math.floor(y / ROW));
    let low = 0;
    let high = this.sections.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.headerTop(middle) <= y) low = middle; else high = middle - 1;
    }
    const inside = y - this.headerTop(low) - HEADER;
    const offset = Math.max(0, Math.floor(inside / ROW));
    return Math.min(this.sections[low].start + Math.min(offset, this.sections[low].count - 1), Math.max(0, this.count - 1));
  }

  // ---- Scroll mapping: the spacer may be shorter than the list (scaled), scrolling stays 1:1.

  measure() {
    const total = this.total;
    this.height = Math.min(total, MAX_HEIGHT);
    this.host.style.height = this.height + "px";
    this.listTop = this.host.getBoundingClientRect().top + scrollY;
    this.top = stickyBottom();
    this.viewport = Math.max(ROW, innerHeight - this.top - bottomInset());
    const range = Math.max(1, this.height - this.viewport);
    this.scale = total > this.height ? Math.max(1, (total - this.viewport) / range) : 1;
    this.maxPos = range;
  }

  scrollPos() { return scrollY + this.top - this.listTop; }

  // The virtual offset at the top of the screen for scroll position `pos`.
  mapped(pos) {
    if (this.scale === 1) return pos;
    const clamped = Math.min(Math.max(pos, 0), this.maxPos);
    let virtual = this.anchorVirtual + (clamped - this.anchorPos);
    const delta = Math.abs(clamped - this.lastPos);
    if (delta > this.viewport * 3) {
      // A jump (the scroll bar dragged): the proportional place.
      virtual = clamped * this.scale;
    }
    // Drift allowed so far from both ends: none at the ends, so the first and last rows are reached.
    const slack = Math.min(clamped, this.maxPos - clamped) * (this.scale - 1);
    const low = clamped * this.scale - slack;
    const high = clamped * this.scale + slack;
    if (virtual < low || virtual > high) virtual = Math.min(Math.max(virtual, low), high);
    if (virtual !== this.anchorVirtual + (clamped - this.anchorPos)) this.reanchor(virtual, clamped);
    this.lastPos = clamped;
    return virtual + (pos - clamped);
  }

  reanchor(virtual, pos) {
    this.anchorVirtual = virtual;
    this.anchorPos = pos;
    for (const [position, node] of this.rendered) this.place(node, this.rowTop(position));
    for (const [index, node] of this.headers) this.place(node, this.headerTop(index));
  }

  // Where virtual offset `y` sits inside the spacer.
  offsetOf(y) { return this.scale === 1 ? y : this.anchorPos + (y - this.anchorVirtual); }

  place(node, y) { node.style.transform = "translateY(" + this.offsetOf(y) + "px)"; }

  // Scrolls so that virtual offset `y` is at the top of the screen (under the sticky bars).
  scrollToVirtual(y) {
    this.measure();
    const total = this.total;
    const target = Math.max(0, Math.min(y, Math.max(0, total - this.viewport)));
    const pos = this.scale === 1 ? target : target / this.scale;
    if (this.scale !== 1) {
      this.anchorVirtual = target;
      this.anchorPos = pos;
      this.lastPos = pos;
      this.reanchor(target, pos);
    }
    window.scrollTo({ top: this.listTop + pos - this.top, behavior: "instant" });
    this.update();
  }

  // Scrolls so that row `position` is the first on screen (a section's first row with its header).
  scrollToPosition(position, offset = 0) {
    this.scrollToVirtual(this.rowTop(position) - this.stickyOffset + offset);
  }

  scrollToLabel(label) {
    const index = this.sections.findIndex((section) => section.label === label);
    if (index < 0) return false;
    this.scrollToVirtual(this.headerTop(index));
    return true;
  }

  // ---- Drawing

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.update(); });
  }

  visibleRange() {
    const top = this.mapped(this.scrollPos());
    this.virtual = top;
    const buffer = this.viewport * BUFFER;
    const first = this.positionAt(Math.max(0, top - buffer));
    const last = this.positionAt(top + this.viewport + buffer);
    const rows = this.count + (this.kind === "search" && this.next ? 1 : 0);
    return { top, first: Math.max(0, first), last: Math.min(rows - 1, last) };
  }

  update() {
    if (!this.host.isConnected) return;
    const { top, first, last } = this.visibleRange();
    // Rows that left the window go; rows that entered it come (drawn now or as placeholders).
    for (const [position, node] of this.rendered) {
      if (position < first || position > last) {
        if (node.contains(doc.activeElement)) continue;
        node.remove();
        this.rendered.delete(position);
      }
    }
    const fragment = doc.createDocumentFragment();
    const fresh = [];
    for (let position = first; position <= last; position += 1) {
      if (!this.rendered.has(position)) {
        const node = this.draw(position);
        this.rendered.set(position, node);
        fragment.append(node);
        if (!node.dataset.fitted) fresh.push(node);
      }
    }
    if (fresh.length) requestAnimationFrame(() => { for (const node of fresh) shrinkIfCut(node); });
    // Section headers of the sections in the window.
    const wanted = new Set();
    if (this.sections.length && last >= first) {
      for (let index = this.sectionIndexOf(first); index <= this.sectionIndexOf(last); index += 1) wanted.add(index);
    }
    for (const [index, node] of this.headers) {
      if (!wanted.has(index)) { node.remove(); this.headers.delete(index); }
    }
    for (const index of wanted) {
      if (this.headers.has(index)) continue;
      const item = element("li", "header-item");
      const header = element("h2", "section-header", this.sections[index].label);
      header.id = "s-" + this.sections[index].label;
      item.append(header);
      item.dataset.label = this.sections[index].label;
      this.place(item, this.headerTop(index));
      this.headers.set(index, item);
      fragment.append(item);
    }
    if (fragment.childNodes.length) this.host.append(fragment);
    this.updateSticky(top);
    this.fetchAround(first, last);
    this.options.onUpdate?.(this);
  }

  updateSticky(top) {
    if (!this.sticky) return;
    if (top <= 0 || !this.sections.length) { this.sticky.hidden = true; return; }
    const index = this.sectionIndexOf(this.positionAt(top));
    const headerY = this.headerTop(index);
    // The section's own header is on the screen: it shows itself.
    if (headerY >= top - 0.5) { this.sticky.hidden = true; return; }
    this.sticky.hidden = false;
    if (this.sticky.textContent !== this.sections[index].label) this.sticky.textContent = this.sections[index].label;
    const nextY = index + 1 < this.sections.length ? this.headerTop(index + 1) - top : Infinity;
    const push = Math.min(0, nextY - HEADER);
    this.sticky.style.transform = push ? "translateY(" + push + "px)" : "";
  }

  draw(position) {
    // Server-drawn rows are kept and put back as they are when they come into view again.
    const node = this.prerendered.get(position) || this.rowFromData(position);
    node.classList.toggle("alt", position % 2 === 1);
    node.dataset.position = String(position);
    node.setAttribute("aria-posinset", String(position + 1));
    node.setAttribute("aria-setsize", String(this.count));
    this.place(node, this.rowTop(position));
    return node;
  }

  rowFromData(position) {
    const data = this.recordAt(position);
    if (!data) return placeholderRow();
    const node = row(data.record, {
      matches: data.matches, snippet: data.snippet, href: this.options.href(data.record, data.cursor),
      thumbnails: this.options.thumbnails, locale: this.options.locale,
    });
    if (data.cursor) node.dataset.cursor = data.cursor;
    return node;
  }

  recordAt(position) {
    if (this.kind === "positions") {
      const page = this.pages.get(Math.floor(position / PAGE));
      if (!page) return null;
      const offset = position - page.position;
      if (offset < 0 || offset >= page.records.length) return null;
      return { record: page.records[offset], cursor: page.cursors[offset] };
    }
    const hit = this.results[position];
    if (!hit) return null;
    return { record: hit, matches: hit.matches || [], snippet: hit.snippet || null };
  }

  // The records of pages whose arrival drew placeholders: drawn again.
  redraw(first, last) {
    for (let position = first; position <= last; position += 1) {
      const node = this.rendered.get(position);
      if (!node || !node.classList.contains("placeholder")) continue;
      const fresh = this.draw(position);
      node.replaceWith(fresh);
      this.rendered.set(position, fresh);
    }
  }

  fetchAround(first, last) {
    if (this.kind === "positions") {
      const from = Math.max(0, Math.floor(first / PAGE));
      const to = Math.floor(Math.min(this.count - 1, last) / PAGE);
      for (let index = from; index <= to; index += 1) {
        if (!this.pages.has(index) && !this.loading.has(index) && !this.coveredByPrerendered(index)) {
          this.loadPage(index);
        }
      }
      // Forget pages far from the screen.
      if (this.pages.size > 60) {
        for (const index of this.pages.keys()) {
          if (index < from - 20 || index > to + 20) this.pages.delete(index);
        }
      }
    } else if (this.kind === "search" && this.next && last >= this.count - 30) {
      this.loadNext();
    }
  }

  coveredByPrerendered(index) {
    const start = index * PAGE;
    const end = Math.min(this.count, start + PAGE);
    for (let position = start; position < end; position += 1) {
      if (!this.prerendered.has(position) && !this.rendered.has(position)) return false;
      const node = this.rendered.get(position);
      if (node && node.classList.contains("placeholder")) return false;
    }
    return true;
  }

  loadPage(index) {
    const generation = this.generation;
    const url = this.source.api + (this.source.api.includes("?") ? "&" : "?") + "position=" + index * PAGE + "&limit=" + PAGE;
    const promise = request(url).then((page) => {
      if (generation !== this.generation) return;
      this.pages.set(index, { position: page.position, records: page.items, cursors: page.cursors });
      this.redraw(page.position, page.position + page.items.length - 1);
    }).catch((error) => failed(error, () => this.schedule())).finally(() => {
      this.loading.delete(index);
    });
    this.loading.set(index, promise);
  }

  loadNext() {
    if (this.fetchingNext || !this.next) return;
    const generation = this.generation;
    const url = this.source.api + "&after=" + encode(this.next);
    this.fetchingNext = request(url).then((page) => {
      if (generation !== this.generation) return;
      this.append(page.items, page.next);
    }).catch((error) => failed(error, () => this.loadNext())).finally(() => { this.fetchingNext = null; });
  }

  // Search results: more hits at the end.
  append(hits, next) {
    const before = this.count;
    for (const hit of hits) this.results.push(hit);
    this.count = this.results.length;
    this.next = next;
    this.host.setAttribute("aria-rowcount", String(this.count));
    // The loading row at the old end is replaced by real rows.
    const sentinel = this.rendered.get(before);
    if (sentinel) { sentinel.remove(); this.rendered.delete(before); }
    this.measure();
    this.schedule();
  }

  // Rows under the sticky section label are not on screen.
  get stickyOffset() { return this.sections.length ? HEADER : 0; }

  // The first row on screen (below the bars and the sticky section label), its cursor, and how
  // far the list is scrolled from where that row is at the top.
  place_() {
    const top = this.virtual + this.stickyOffset;
    const position = Math.min(this.positionAt(Math.max(0, top) + 1), Math.max(0, this.count - 1));
    const data = this.recordAt(position);
    const node = this.rendered.get(position);
    const cursor = (data && data.cursor) || (node && node.dataset.cursor) || null;
    return { position, cursor, offset: Math.round(top - this.rowTop(position)) };
  }

  rowCount() { return this.host.querySelectorAll(".row").length; }
}

// Shrinks a title a step when it does not fit, before it ends in "…".
function shrinkIfCut(node) {
  if (!node.isConnected || node.classList.contains("placeholder")) return;
  node.dataset.fitted = "1";
  const title = node.querySelector(".title");
  if (title && !title.classList.contains("long") && title.scrollWidth > title.clientWidth + 1) title.classList.add("long");
}

// ---- The list on this page ----------------------------------------------------------------------

const list = doc.getElementById("list");
const catalogID = list?.dataset.catalog || body.dataset.catalog || "";
const listLocale = list?.dataset.locale || lang;
const listBase = list?.dataset.base || location.pathname;
const via = list?.dataset.via || doc.getElementById("collection")?.dataset.via || "";
let windowed = null;

function detailHref(record, query) {
  return "/c/" + encode(catalogID) + "/i/" + encode(record.id) + query;
}

function withVia(query) {
  if (!via) return query;
  return query + (query ? "&" : "?") + "via=" + encode(via);
}

function prerenderedRows(container) {
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
  const prerendered = prerenderedRows(container);
  container.replaceWith(host);
  doc.getElementById("earlier")?.remove();
  doc.getElementById("more")?.remove();
  const source = {
    kind: "positions", api: container.dataset.api, count: outline.count, sections: outline.sections,
    flat: container.dataset.flat !== undefined,
  };
  windowed = new WindowedList(host, source, {
    prerendered, thumbnails: container.dataset.thumbs !== undefined, locale: listLocale,
    href: (record, cursor) => detailHref(record, withVia(cursor ? "?at=" + cursor : "")),
    onUpdate: rememberPlaceSoon,
  });
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
  return windowed;
}

function startStaticList(container) {
  const prerendered = prerenderedRows(container);
  const host = container;
  const thumbnails = container.dataset.thumbs !== undefined;
  windowed = new WindowedList(host, { kind: "static" }, {
    prerendered, thumbnails, locale: listLocale, href: (record) => detailHref(record, withVia("")),
  });
  windowed.results = [];
  windowed.update();
  state.list = windowed;
  return windowed;
}

// ---- The list's place in the URL ----------------------------------------------------------------

const placeKey = () => "catalog:place:" + location.pathname + location.search;
let placeTimer = null;

function rememberPlaceSoon() {
  clearTimeout(placeTimer);
  placeTimer = setTimeout(rememberPlace, 200);
}

// The cursor of the first row on screen goes into the URL (replaced, never a new entry), and its
// exact offset into this tab's session storage, so reload and Back land on the same pixel.
function rememberPlace() {
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
list?.addEventListener("click", (event) => {
  const link = event.target.closest(".row-link");
  if (!link || !windowed || windowed.kind !== "positions") return;
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

// ---- Search as you type ---------------------------------------------------------------------

const form = doc.getElementById("search-form");
const input = doc.getElementById("q");
const firstScope = list?.querySelector(".scope")?.value ?? null;
let scope = new URL(location.href).searchParams.get("scope");
if (scope === firstScope) scope = null;
let controller = null;
let keystrokeAt = 0;

// The search's filters as the form holds them (facets, price, sort).
function filterParams() {
  const params = [];
  if (!form) return params;
  for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]:checked")) params.push([box.name, box.value]);
  const low = doc.getElementById("pmin")?.value.trim() || "";
  const high = doc.getElementById("pmax")?.value.trim() || "";
  if (low || high) params.push(["price", low + ".." + high]);
  const sort = doc.getElementById("sort")?.value;
  if (sort && sort !== "relevance") params.push(["sort", sort]);
  return params;
}

function stateQuery(query) {
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (scope) params.set("scope", scope);
  for (const [name, value] of filterParams()) params.append(name, value);
  params.set("search", "1");
  return "?" + params.toString();
}

function apiQuery(query) {
  const params = new URLSearchParams({ q: query, limit: "50", facets: "categories,country" });
  if (scope) params.set("scope", scope);
  for (const [name, value] of filterParams()) params.append(name, value);
  const category = list?.dataset.category;
  if (category) params.append("category", category);
  return params;
}

function ensureResults() {
  let results = doc.getElementById("results");
  if (!results) {
    if (windowed) { windowed.destroy(); windowed = null; state.list = null; }
    doc.getElementById("sections")?.remove();
    doc.getElementById("rail")?.remove();
    doc.getElementById("more")?.remove();
    doc.getElementById("earlier")?.remove();
    doc.getElementById("empty")?.remove();
    doc.querySelector(".sticky-header")?.remove();
    const total = element("p", "total"); total.id = "total"; total.setAttribute("aria-live", "polite");
    results = element("ol", "rows results"); results.id = "results";
    const empty = element("p", "empty", text("noResults")); empty.id = "empty"; empty.hidden = true;
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
    badge.textContent = count ? number(count.count) + (count.capped ? "+" : "") : "";
  }
}

// Facet counts under the current query: the values' counts change, values the search no longer
// finds stay while they are checked.
function drawFacets(facets) {
  if (!facets) return;
  for (const fieldset of doc.querySelectorAll(".facet[data-facet]")) {
    const name = fieldset.dataset.facet;
    const values = facets[name === "category" ? "categories" : "country"] || [];
    const listNode = fieldset.querySelector("ul");
    const checked = new Set(Array.from(fieldset.querySelectorAll("input:checked")).map((box) => box.value));
    const known = new Map(values.map((value) => [value.value, value]));
    for (const value of checked) if (!known.has(value)) known.set(value, { value, count: 0 });
    const own = list?.dataset.category;
    const items = [];
    for (const value of known.values()) {
      if (own && value.value === own) continue;
      const item = element("li");
      const label = element("label", "facet-value");
      const box = element("input");
      box.type = "checkbox"; box.name = name; box.value = value.value; box.checked = checked.has(value.value);
      box.setAttribute("form", "search-form");
      const shown = name === "country" ? ((regionNames && regionNames.of(value.value)) || value.value) : value.value;
      label.append(box, element("span", "facet-label", shown),
        element("span", "facet-count", number(value.count) + (value.capped ? "+" : "")));
      item.append(label);
      items.push(item);
    }
    listNode.replaceChildren(...items);
    fieldset.hidden = items.length === 0;
  }
  const toggle = doc.getElementById("filter-toggle");
  if (toggle) {
    const count = filterParams().length;
    toggle.textContent = count ? plural("activeFilters", count) : text("filters");
  }
}

// Rows drawn before the frame: a screenful; the rest of the results follow right after it.
async function search() {
  clearTimeout(debounce);
  debounce = null;
  const query = input.value;
  const startedAt = keystrokeAt || performance.now();
  keystrokeAt = 0;
  if (controller) controller.abort();
  const mine = new AbortController();
  controller = mine;
  const params = apiQuery(query);
  const url = "/api/v1/catalogs/" + encode(catalogID) + "/search?" + params.toString();
  drawing += 1;
  let finishing = false;
  try {
    const requestedAt = performance.now();
    const response = await request(url, { signal: mine.signal });
    if (mine !== controller) return;
    const answeredAt = performance.now();
    const results = ensureResults();
    const backQuery = stateQuery(query);
    if (windowed) windowed.destroy();
    const thumbnails = response.items.some((hit) => hit.image);
    params.delete("facets");
    windowed = new WindowedList(results, {
      kind: "search", api: "/api/v1/catalogs/" + encode(catalogID) + "/search?" + params.toString(),
      next: response.next,
    }, {
      thumbnails, locale: listLocale, href: (record) => detailHref(record, withVia(backQuery)),
    });
    state.list = windowed;
    windowed.results = response.items.slice();
    windowed.count = windowed.results.length;
    windowed.measure();
    window.scrollTo({ top: 0, behavior: "instant" });
    windowed.update();
    const total = response.totalCapped ? plural("resultsCapped", response.total) : plural("results", response.total);
    doc.getElementById("total").textContent = total;
    doc.getElementById("empty").hidden = response.items.length > 0;
    drawScopes(response.scopes || []);
    drawFacets(response.facets);
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

// Cancel: back to the list where it was before the search (its place is in the session).
function cancelSearch(event) {
  const placeBefore = sessionStorage.getItem("catalog:before-search:" + location.pathname);
  if (placeBefore) {
    event?.preventDefault();
    location.assign(placeBefore);
  }
}

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
  // Filters search at once; the URL is replaced, so they add no history entries.
  doc.getElementById("filters")?.addEventListener("change", () => {
    keystrokeAt = performance.now();
    searchSoon();
  });
}

// The filter sheet (a phone) or panel (a wide screen).
const filters = doc.getElementById("filters");
function closeFilters() { filters?.classList.remove("open"); }
doc.getElementById("filter-toggle")?.addEventListener("click", (event) => {
  event.preventDefault();
  filters?.classList.toggle("open");
  if (filters?.classList.contains("open")) filters.querySelector("select, input")?.focus({ preventScroll: true });
});
doc.getElementById("filters-close")?.addEventListener("click", (event) => { event.preventDefault(); closeFilters(); });
doc.getElementById("filters-reset")?.addEventListener("click", (event) => {
  if (!input) return;
  event.preventDefault();
  for (const box of doc.querySelectorAll("input[type=checkbox][form=search-form]")) box.checked = false;
  for (const id of ["pmin", "pmax"]) { const field = doc.getElementById(id); if (field) field.value = ""; }
  const sort = doc.getElementById("sort"); if (sort) sort.value = "relevance";
  search();
});

// ---- Start the list ---------------------------------------------------------------------------

const sectionsContainer = doc.getElementById("sections");
const resultsContainer = doc.getElementById("results");
const collection = doc.getElementById("collection");
if (sectionsContainer && sectionsContainer.dataset.source === "positions") {
  startBrowseList(sectionsContainer);
} else if (resultsContainer && resultsContainer.dataset.source === "search") {
  const prerendered = prerenderedRows(resultsContainer);
  const api = resultsContainer.dataset.api;
  const thumbnails = resultsContainer.dataset.thumbs !== undefined;
  windowed = new WindowedList(resultsContainer, { kind: "search", api, next: resultsContainer.dataset.next || null }, {
    prerendered, thumbnails, locale: listLocale, href: (record) => detailHref(record, withVia(stateQuery(input?.value || ""))),
  });
  // The server's rows stand for the first page; their records come with the next page's fetch.
  windowed.results = new Array(prerendered.size);
  windowed.count = prerendered.size;
  windowed.measure();
  windowed.update();
  state.list = windowed;
  doc.getElementById("more")?.remove();
} else if (collection && collection.dataset.favorites !== "local") {
  startStaticList(collection);
}

// ---- Index rail: tap or drag to jump, arrow keys to move, Enter to jump ---------------------------

const rail = doc.getElementById("rail");
if (rail) {
  let active = null;
  let touched = false;
  const jump = (link, focus) => {
    const label = link.dataset.target || link.dataset.label;
    if (windowed && windowed.kind === "positions" && windowed.scrollToLabel(label)) {
      if (focus) {
        requestAnimationFrame(() => {
          const header = doc.getElementById("s-" + label)?.closest("li");
          let next = header?.nextElementSibling;
          const start = windowed.sections.find((section) => section.label === label)?.start;
          next = windowed.rendered.get(start) || next;
          next?.querySelector(".row-link")?.focus({ preventScroll: true });
        });
      }
      rememberPlaceSoon();
    } else {
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
  // Touch and pen: the section under the finger shows at once, and follows it while it drags.
  const follow = (event) => {
    const link = linkAt(event.clientY);
    if (!link || link === active) return;
    active?.classList.remove("active");
    active = link;
    link.classList.add("active");
    jump(link, false);
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
    active?.classList.remove("active");
    active = null;
    setTimeout(() => { touched = false; }, 400);
  };
  rail.addEventListener("pointerup", release);
  rail.addEventListener("pointercancel", release);
  // One Tab stop for the whole rail (the letter used last); arrows, Home and End move in it.
  const railLinks = Array.from(rail.querySelectorAll("a"));
  const rove = (link) => { for (const other of railLinks) other.tabIndex = other === link ? 0 : -1; };
  rove(railLinks[0]);
  rail.addEventListener("focusin", (event) => { if (railLinks.includes(event.target)) rove(event.target); });
  rail.addEventListener("keydown", (event) => {
    const index = railLinks.indexOf(event.target);
    if (index < 0) return;
    const moves = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: railLinks.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    railLinks[Math.max(0, Math.min(moves[event.key], railLinks.length - 1))].focus();
  });
}

// ---- Keyboard ---------------------------------------------------------------------------------

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
    const current = event.target.closest(".row");
    const step = event.key === "ArrowDown" ? 1 : -1;
    if (windowed && current?.dataset.position !== undefined && windowed.host.contains(current)) {
      const position = Number(current.dataset.position) + step;
      if (position < 0) { (input ?? current.querySelector(".row-link"))?.focus(); return; }
      let next = windowed.rendered.get(position);
      if (!next) return;
      const link = next.querySelector(".row-link");
      if (!link) return;
      link.focus({ preventScroll: true });
      keepInView(next);
      return;
    }
    const links = Array.from(doc.querySelectorAll("main .row-link"));
    const index = links.indexOf(event.target) + step;
    if (index < 0) (input ?? links[0])?.focus();
    else links[Math.min(index, links.length - 1)]?.focus();
  }
});

// Focus never hides under the sticky bars or the tab bar.
function keepInView(node) {
  const box = node.getBoundingClientRect();
  const top = stickyBottom() + (doc.querySelector(".sticky-header:not([hidden])") ? HEADER : 0);
  const bottom = innerHeight - bottomInset();
  if (box.top < top) window.scrollBy({ top: box.top - top, behavior: "instant" });
  else if (box.bottom > bottom) window.scrollBy({ top: box.bottom - bottom, behavior: "instant" });
}
doc.addEventListener("focusin", (event) => {
  const target = event.target.closest?.(".row, .facet-value, .favorite");
  if (target && event.target.matches(":focus-visible")) requestAnimationFrame(() => keepInView(target));
});

// ---- The record beside the list on wide screens, with its own URL ---------------------------

const wide = window.matchMedia("(min-width: 900px)");
const pane = doc.getElementById("pane");
const main = doc.getElementById("main");
const listTitle = list?.dataset.title || doc.title;
let paneController = null;

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
  markCurrent(null);
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
    pane.scrollTop = 0;
    main?.classList.add("has-open");
    const title = article.querySelector(".detail-title")?.textContent || listTitle;
    doc.title = title;
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

if (list && pane) {
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
    if (history.state && history.state.open) history.back();
    else {
      closePane();
      history.replaceState(null, "", close.getAttribute("href"));
    }
  });
  addEventListener("popstate", () => {
    const open = new URL(location.href).searchParams.get("open");
    if (!open) { closePane(); return; }
    openPane("/c/" + encode(catalogID) + "/i/" + encode(open), false);
  });
  const open = new URL(location.href).searchParams.get("open");
  if (open) markCurrent(open);
}

// The list column's width on wide screens: drag the separator (or use the arrow keys on it).
if (main?.classList.contains("split") && pane && list) {
  const splitter = element("div", "splitter");
  splitter.setAttribute("role", "separator");
  splitter.setAttribute("aria-orientation", "vertical");
  splitter.tabIndex = 0;
  pane.before(splitter);
  const setWidth = (width) => {
    const clamped = Math.round(Math.max(320, Math.min(width, innerWidth - 360)));
    main.style.setProperty("--list-w", clamped + "px");
    try { localStorage.setItem("catalog:list-width", String(clamped)); } catch (_) { /* storage off */ }
    windowed?.onResize();
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

// ---- Favorites --------------------------------------------------------------------------------

const LOCAL_FAVORITES = "catalog:favorites";

function localFavorites() {
  try {
    const list = JSON.parse(localStorage.getItem(LOCAL_FAVORITES) || "[]");
    return Array.isArray(list) ? list.filter((entry) => Array.isArray(entry) && entry.length === 2) : [];
  } catch (_) { return []; }
}

function saveLocalFavorites(list) {
  try { localStorage.setItem(LOCAL_FAVORITES, JSON.stringify(list)); } catch (_) { /* storage off */ }
}

function isLocalFavorite(catalog, item) {
  return localFavorites().some(([c, i]) => c === catalog && i === item);
}

// The favorite button without a page load (and so without a history entry): in the account when
// signed in, in this browser when not.
function enhanceFavorite(root) {
  const favoriteForm = root.querySelector("form.favorite-form");
  if (!favoriteForm || favoriteForm.dataset.enhanced) return;
  favoriteForm.dataset.enhanced = "1";
  const button = favoriteForm.querySelector("button.favorite");
  const label = favoriteForm.querySelector(".favorite-label");
  const field = favoriteForm.querySelector("input[name=favorite]");
  const catalog = favoriteForm.dataset.catalog;
  const item = favoriteForm.dataset.item;
  const signedIn = favoriteForm.dataset.signedIn !== undefined;
  const show = (on) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    label.textContent = on ? button.dataset.remove : button.dataset.add;
    field.value = on ? "0" : "1";
  };
  if (!signedIn) show(isLocalFavorite(catalog, item));
  favoriteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const on = button.getAttribute("aria-pressed") !== "true";
    if (!signedIn) {
      const list = localFavorites().filter(([c, i]) => !(c === catalog && i === item));
      if (on) list.unshift([catalog, item]);
      saveLocalFavorites(list);
      show(on);
      return;
    }
    // The form as it is now asks for the change; the button shows it at once.
    const data = new FormData(favoriteForm);
    show(on);
    try {
      await request(favoriteForm.action, { method: "POST", form: data });
    } catch (error) {
      show(!on);
      failed(error, () => favoriteForm.requestSubmit());
    }
  });
}
enhanceFavorite(doc);

// Signed in: the browser's favorites were merged at sign-in (the form carried them).
if (body.dataset.signedIn !== undefined && localFavorites().length) saveLocalFavorites([]);
const localField = doc.getElementById("local-favorites");
if (localField) localField.value = JSON.stringify(localFavorites());

// Signed out, the favorites page lists the browser's own favorites.
async function drawLocalFavorites(container) {
  const catalog = container.dataset.catalog;
  const ids = localFavorites().filter(([c]) => c === catalog).map(([, item]) => item);
  const records = [];
  for (const id of ids) {
    try {
      records.push(await request("/api/v1/catalogs/" + encode(catalog) + "/items/" + encode(id)));
    } catch (error) {
      if (!String(error.message).includes("HTTP 404")) { failed(error, () => drawLocalFavorites(container)); return; }
    }
  }
  container.replaceChildren(...records.map((record, index) => {
    const node = row(record, {
      href: detailHref(record, "?via=favorites"), thumbnails: container.dataset.thumbs !== undefined,
      locale: listLocale,
    });
    node.dataset.position = String(index);
    return node;
  }));
  doc.getElementById("empty").hidden = records.length > 0;
  startStaticList(container);
}
if (collection && collection.dataset.favorites === "local") drawLocalFavorites(collection);

// Coming back to a favorites list (the browser's back-forward cache): drawn again, so a favorite
// removed on the record's page is gone at once.
addEventListener("pageshow", (event) => {
  if (event.persisted && collection && location.pathname.endsWith("/favorites")) location.reload();
});

// ---- Signing out on a shared device --------------------------------------------------------------

// Pages made for a signed-in user are never kept (the server marks them no-store). When someone
// signs out (the form, or a session that ended), what this browser kept goes too: the service
// worker's pages and images and the favorites in localStorage. The browser's own favorites
// without an account start afresh after that, as on a new device.
const SIGNED_IN = "catalog:signed-in";

function forgetThisBrowser() {
  try { localStorage.removeItem(SIGNED_IN); } catch (_) { /* storage off */ }
  saveLocalFavorites([]);
  const message = { type: "signed-out" };
  if (!("serviceWorker" in navigator)) return;
  // The worker in charge of this page hears it before the next page's requests.
  if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage(message);
  else navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage(message)).catch(() => {});
}

if (body.dataset.signedIn !== undefined) {
  try { localStorage.setItem(SIGNED_IN, "1"); } catch (_) { /* storage off */ }
  doc.querySelector("form.signout")?.addEventListener("submit", forgetThisBrowser);
} else if ((() => { try { return localStorage.getItem(SIGNED_IN) !== null; } catch (_) { return false; } })()) {
  forgetThisBrowser();
}

// ---- Offline: the service worker, told this catalog's language ---------------------------------

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((registration) => {
    if (catalogID) registration.active?.postMessage({ type: "language", catalog: catalogID, lang });
  }).catch((error) => console.warn("catalog: no service worker:", error && error.message));
}

// ---- Frames, for the measurements -------------------------------------------------------------

state.measureFrames = (milliseconds) => new Promise((resolve) => {
  const frames = [];
  let last = performance.now();
  const started = last;
  const tick = (now) => {
    frames.push(now - last);
    last = now;
    if (now - started < milliseconds) requestAnimationFrame(tick); else resolve(frames);
  };
  requestAnimationFrame(tick);
});
