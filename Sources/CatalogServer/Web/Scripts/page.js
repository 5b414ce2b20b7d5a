// What every module of the page shares: the page's words (its message table, `data-messages`
// on <body>), requests with the spinner and the error banner, rows fetched as HTML from the
// server, and `window.__catalog`, the state tests and measurements read.
//
// The server draws every row and every formatted number, price and plural (Web/Pages/RowView.swift
// and WebStrings.swift): the script puts the server's markup into the page and its own values as
// text, never as markup.

export const doc = document;
export const body = doc.body;
export const lang = body.dataset.lang || "en";
const messages = (() => {
  try { return JSON.parse(body.dataset.messages || "{}"); } catch (_) { return {}; }
})();
const spinner = doc.getElementById("spinner");
const banner = doc.getElementById("banner");
const bannerText = doc.getElementById("banner-text");
let retryAction = null;

// What is under way: requests running, searches being drawn, a search waiting for its keystrokes.
export const activity = { pending: 0, drawing: 0, debounce: null };

// `window.__catalog` is for tests and measurements: `searchTimings` (milliseconds from the input
// event to the frame after its results are drawn), `searchPhases`, `renders` (searches drawn),
// `idle` (no request running and no search waiting), `list` (the windowed list), `frames`.
export const state = { searchTimings: [], searchPhases: [], renders: 0, list: null, frames: [] };
Object.defineProperty(state, "idle", {
  get: () => activity.pending === 0 && activity.debounce === null && activity.drawing === 0
    && (!state.list || state.list.idle()),
});
window.__catalog = state;

// The text of a message (a plural message's `other` form: the server writes every count).
export function text(key) {
  const value = messages[key];
  if (typeof value === "string") return value;
  if (value && typeof value === "object") return value.other || key;
  return key;
}

export function encode(value) { return encodeURIComponent(value); }

export function element(name, className, content) {
  const node = doc.createElement(name);
  if (className) node.className = className;
  if (content !== undefined) node.textContent = content;
  return node;
}

// ---- Requests, spinner, banner ------------------------------------------------------------------

export async function request(url, options = {}) {
  const { signal, accept = "application/json", method = "GET", form = null } = options;
  activity.pending += 1;
  const timer = setTimeout(() => { if (activity.pending > 0 && spinner) spinner.hidden = false; }, 150);
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
    // An answer the service worker saved, while offline, leaves the offline banner up.
    if (navigator.onLine) showBanner(false);
    return result;
  } finally {
    clearTimeout(timer);
    activity.pending -= 1;
    if (activity.pending === 0 && spinner) spinner.hidden = true;
  }
}

// Rows as the server draws them (`/c/{id}/rows?…`, RowsFragment.swift): the fragment's root,
// its rows (`li.row`, not yet in the page) and its other parts by name (`part("total")`).
export async function requestRows(url, options = {}) {
  const html = await request(url, { ...options, accept: "text/html" });
  const template = doc.createElement("template");
  template.innerHTML = html;
  const root = template.content.querySelector(".rows-fragment");
  if (!root) throw new Error("no rows in the answer to " + url);
  const rows = Array.from(root.querySelectorAll('[data-part="rows"] > li.row'));
  return { root, rows, part: (name) => root.querySelector('[data-part="' + name + '"]') };
}

// A failed request: the banner tells the user, Retry runs it again, the console keeps the cause.
export function failed(error, action) {
  if (error && error.name === "AbortError") return;
  console.error("catalog:", error);
  retryAction = action;
  if (bannerText) bannerText.textContent = text("unreachable");
  showBanner(true);
}

// What the banner's Retry does next (a search drawn from the rows saved offline runs again).
export function offerRetry(action) { retryAction = action; }

// The banner shows under the bar and moves the search field and the list's sticky header down
// (the stylesheet's --banner-h), so the windowed list measures where its rows show again.
function showBanner(shown) {
  if (!banner || banner.hidden === !shown) return;
  banner.hidden = !shown;
  if (state.list) { state.list.measure(); state.list.schedule(); }
}

// The banner's Retry, the offline page's, and the banner while the browser is offline.
export function startBanner() {
  doc.getElementById("retry")?.addEventListener("click", () => {
    showBanner(false);
    const action = retryAction;
    retryAction = null;
    if (action) action(); else location.reload();
  });
  doc.getElementById("offline-retry")?.addEventListener("click", () => location.reload());
  const showOffline = () => {
    if (!banner || navigator.onLine || doc.querySelector(".offline-page")) return;
    if (bannerText) bannerText.textContent = text("offlineBanner");
    showBanner(true);
  };
  addEventListener("offline", showOffline);
  addEventListener("online", () => { if (!retryAction) showBanner(false); });
  showOffline();
}

// A failed picture: a neutral placeholder of the same size instead of the browser's broken image.
// Pictures that failed before this module ran (the server draws the rows, and a module runs after
// the page is parsed, so on a busy machine a 404 can come first) are replaced at once.
export function startImagePlaceholders() {
  doc.addEventListener("error", (event) => showFailedImage(event.target), true);
  for (const image of doc.images) {
    if (image.complete && image.naturalWidth === 0 && image.getAttribute("src")) showFailedImage(image);
  }
}

function showFailedImage(image) {
  if (!(image instanceof HTMLImageElement) || image.dataset.failed) return;
  image.dataset.failed = "1";
  if (image.classList.contains("image-preview")) {
    // The editor's preview of a picture that does not load stays in place, hidden, for the next one.
    image.hidden = true;
    return;
  }
  if (image.classList.contains("flag")) {
    // The script recognises no country code: the server drew this flag for a code it parsed
    // (CountryCode) and wrote the code, upper-cased, as the alt text; the badge shows it as the
    // server shows a code without a flag.
    const badge = element("span", "flag code", image.alt || "");
    image.replaceWith(badge);
    return;
  }
  const placeholder = element("span", (image.className || "") + " image-failed");
  placeholder.setAttribute("role", "img");
  placeholder.setAttribute("aria-label", image.alt || text("imageUnavailable"));
  image.replaceWith(placeholder);
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
