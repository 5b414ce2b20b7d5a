// The windowed list: every list of the app (a catalog, a category, search results, Hot,
// Favorites) holds a few dozen rows at any depth, while the scroll bar and the index rail address
// the whole list (its outline gives every section's first position; rows are fetched by
// position, as the server draws them).

import { doc, element, failed, requestRows } from "./page.js";
import { BUFFER, HEADER, MAX_HEIGHT, ROW, drawnAs, placeholderRow, fitRow, stickyBottom, bottomInset } from "./list-layout.js";

/**
 * One list of rows, windowed: only the rows near the screen are in the page. Every row is the
 * server's (`li.row` from the page or from a rows fragment, RowsFragment.swift): the list only
 * places, fetches and forgets them.
 *
 * `source` says where rows come from:
 * - `{kind: "positions", rows, pageSize, thumbs, count, sections: [{label, start, count}…], flat}`:
 *   rows by position (`rows?position=N&limit=100`), the whole list laid out from its outline;
 * - `{kind: "search", rows, next, thumbs}`: pages of results appended by cursor while scrolling;
 * - `{kind: "static"}`: the rows already in the page.
 * `options.rows` are rows already drawn, by position (the page's, or a search's first page).
 */
export class WindowedList {
  constructor(host, source, options = {}) {
    this.host = host;
    this.source = source;
    this.options = options;
    this.kind = source.kind;
    this.pageSize = source.pageSize || 100;
    this.nodes = options.rows || new Map();  // position → li, drawn or not (positions, static)
    this.pages = new Set();      // page indices whose rows are all known (positions)
    this.loading = new Map();    // page index → promise
    this.results = [];           // search: {id, node} in order
    this.rendered = new Map();   // position → li in the page
    this.headers = new Map();    // section index → li
    this.next = source.next || null;
    // Search: all results (null when the count was capped), the size screen readers announce.
    this.resultCount = Number.isInteger(source.total) ? source.total : null;
    this.fetchingNext = null;
    this.generation = 0;
    this.sections = (source.sections || []).map(({ label, start, count }) => ({ label, start, count }));
    if (this.kind !== "positions" || source.flat) this.sections = [];
    this.count = this.kind === "positions" ? source.count : this.nodes.size;
    if (this.kind === "search") {
      this.results = Array.from(this.nodes.values(), (node) => ({ id: node.dataset.id, node }));
      this.nodes = new Map();
    }
    if (this.kind === "positions") {
      // The pages the rows already drawn fill: not fetched again.
      for (const position of this.nodes.keys()) {
        const index = Math.floor(position / this.pageSize);
        if (!this.pages.has(index) && this.known(index)) this.pages.add(index);
      }
    }
    this.anchorVirtual = 0;
    this.anchorPos = 0;
    this.virtual = 0;
    this.lastPos = 0;
    this.scheduled = false;
    host.classList.add("vlist");
    host.replaceChildren();
    host.setAttribute("data-count", String(this.count));
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
    if (fresh.length) requestAnimationFrame(() => { for (const node of fresh) fitRow(node); });
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
    // Rows are kept and put back as they are when they come into view again.
    const node = this.nodeAt(position) || placeholderRow();
    if (!drawnAs.has(node)) drawnAs.set(node, node.innerHTML);
    node.classList.toggle("alt", position % 2 === 1);
    node.dataset.position = String(position);
    node.setAttribute("aria-posinset", String(position + 1));
    // A search with pages to come: its total, or -1 (ARIA's "unknown") when it was capped.
    node.setAttribute("aria-setsize", String(this.kind === "search" && this.next ? (this.resultCount ?? -1) : this.count));
    this.place(node, this.rowTop(position));
    return node;
  }

  nodeAt(position) {
    if (this.kind === "search") return this.results[position]?.node || null;
    return this.nodes.get(position) || null;
  }

  // The rows of pages whose arrival drew placeholders: drawn now.
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
      const from = Math.max(0, Math.floor(first / this.pageSize));
      const to = Math.floor(Math.min(this.count - 1, last) / this.pageSize);
      for (let index = from; index <= to; index += 1) {
        if (!this.pages.has(index) && !this.loading.has(index)) this.loadPage(index);
      }
      // Forget pages far from the screen (rows on it stay until they leave it).
      if (this.pages.size > 60) {
        for (const index of this.pages) {
          if (index >= from - 20 && index <= to + 20) continue;
          this.pages.delete(index);
          const start = index * this.pageSize;
          for (let position = start; position < start + this.pageSize; position += 1) this.nodes.delete(position);
        }
      }
    } else if (this.kind === "search" && this.next && last >= this.count - 30) {
      this.loadNext();
    }
  }

  // Whether every row of page `index` is known.
  known(index) {
    const start = index * this.pageSize;
    const end = Math.min(this.count, start + this.pageSize);
    for (let position = start; position < end; position += 1) if (!this.nodes.has(position)) return false;
    return true;
  }

  // The fragment's URL with more parameters.
  url(parameters) {
    const base = this.source.rows;
    return base + (base.includes("?") ? "&" : "?") + new URLSearchParams(parameters).toString();
  }

  loadPage(index) {
    const generation = this.generation;
    const url = this.url({
      position: index * this.pageSize, limit: this.pageSize, thumbs: this.source.thumbs ? "1" : "0",
    });
    const promise = requestRows(url).then(({ rows }) => {
      if (generation !== this.generation) return;
      let first = Infinity;
      let last = -1;
      for (const node of rows) {
        const position = Number(node.dataset.position);
        this.nodes.set(position, node);
        first = Math.min(first, position);
        last = Math.max(last, position);
      }
      this.pages.add(index);
      this.redraw(first, last);
    }).catch((error) => failed(error, () => this.schedule())).finally(() => {
      this.loading.delete(index);
    });
    this.loading.set(index, promise);
  }

  loadNext() {
    if (this.fetchingNext || !this.next) return;
    const generation = this.generation;
    const url = this.url({ after: this.next, thumbs: this.source.thumbs ? "1" : "0" });
    this.fetchingNext = requestRows(url).then(({ root, rows }) => {
      if (generation !== this.generation) return;
      this.append(rows, root.dataset.next || null);
    }).catch((error) => failed(error, () => this.loadNext())).finally(() => { this.fetchingNext = null; });
  }

  // Search results: more rows at the end.
  append(rows, next) {
    const before = this.count;
    for (const node of rows) this.results.push({ id: node.dataset.id, node });
    this.count = this.results.length;
    this.next = next;
    this.host.setAttribute("data-count", String(this.count));
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
    const node = this.rendered.get(position) || this.nodeAt(position);
    const cursor = (node && node.dataset.cursor) || null;
    return { position, cursor, offset: Math.round(top - this.rowTop(position)) };
  }
}
