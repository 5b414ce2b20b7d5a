// The web app's service worker: keeps the app shell (stylesheet, script modules, icons, the offline
// pages), the pages the user visited and the images those pages showed, so that visited pages
// open without a network. Pages are fetched from the network first (fresh data when online) and
// fall back to the saved copy; images and fingerprinted assets come from the cache first. A page
// that was never saved gets the offline page in the language of its catalog.
//
// Nothing personal is kept: a response whose Cache-Control says no-store or private (every page
// made for a signed-in user, anything that sets a cookie: the server marks them) is never
// stored, and signing in or out (the form's POST, or the page saying so) empties the page and
// image caches, so on a shared device the next person finds nothing of the previous one's.
//
// The server fills in SHELL (the fingerprinted asset paths and the offline pages) and VERSION when
// it serves this file; both change when an asset does, which installs a new worker.

const SHELL = /*SHELL*/[]/*END*/;
const VERSION = /*VERSION*/"dev"/*END*/;
const SHELL_CACHE = "catalog-shell-" + VERSION;
// "-2": the workers before it kept pages made for signed-in users; activating drops that cache.
const PAGE_CACHE = "catalog-pages-2";
const OLD_PAGE_CACHES = ["catalog-pages"];
const IMAGE_CACHE = "catalog-images";
// The catalogs' languages, kept apart from the pages so that emptying those keeps them.
const SETTINGS_CACHE = "catalog-settings";
const LANGUAGES_KEY = "/__catalog-languages";
const MAX_PAGES = 300;
// A list's rows fragment (`/c/{id}/rows`, `/c/{id}/categories/{n}/rows`).
const ROWS = /^\/c\/[^/]+(\/categories\/[^/]+)?\/rows$/;
const MAX_IMAGES = 600;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("catalog-shell-") && name !== SHELL_CACHE) await caches.delete(name);
      if (OLD_PAGE_CACHES.includes(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Pages tell the worker the language of their catalog, for the offline page of pages not saved,
// and that the person signed out (or in as someone else), to forget what was kept.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "language" && typeof data.catalog === "string" && typeof data.lang === "string") {
    event.waitUntil(rememberLanguage(data.catalog, data.lang));
  } else if (data.type === "signed-out") {
    event.waitUntil(forget());
  }
});

async function languages() {
  const cache = await caches.open(SETTINGS_CACHE);
  const saved = await cache.match(LANGUAGES_KEY);
  return saved ? saved.json() : {};
}

async function rememberLanguage(catalog, lang) {
  const known = await languages();
  if (known[catalog] === lang) return;
  known[catalog] = lang;
  const cache = await caches.open(SETTINGS_CACHE);
  await cache.put(LANGUAGES_KEY, new Response(JSON.stringify(known), { headers: { "Content-Type": "application/json" } }));
}

// Whether a response may be kept: a whole same-origin answer that no one marked as someone's.
// (A worker cannot read Set-Cookie; the server makes every response that sets one private.)
function storable(response) {
  if (!response.ok || response.type !== "basic") return false;
  const control = (response.headers.get("Cache-Control") || "").toLowerCase();
  return !/(^|[\s,])(no-store|private)([\s,=]|$)/.test(control);
}

// Emptying the page and image caches. Every later store waits for it, so a page saved after a
// sign-out is never dropped by it, and nothing saved before it survives.
let forgetting = Promise.resolve();

function forget() {
  forgetting = forgetting.then(() => Promise.all([caches.delete(PAGE_CACHE), caches.delete(IMAGE_CACHE)])).catch(() => {});
  return forgetting;
}

async function keep(cacheName, request, response, limit) {
  await forgetting;
  const cache = await caches.open(cacheName);
  await cache.put(request, response);
  await trim(cacheName, limit);
}

// Keeps at most `limit` entries in a cache, dropping the oldest.
async function trim(cacheName, limit) {
  const cache = await caches.open(cacheName);
  const keys = await cache.keys();
  for (const request of keys.slice(0, Math.max(0, keys.length - limit))) await cache.delete(request);
}

async function offlinePage(url) {
  const match = url.pathname.match(/^\/c\/([^/]+)/);
  const known = await languages();
  const fromCatalog = match ? known[decodeURIComponent(match[1])] : null;
  const fromBrowser = (self.navigator && self.navigator.language || "en").slice(0, 2).toLowerCase();
  const cache = await caches.open(SHELL_CACHE);
  for (const lang of [fromCatalog, fromBrowser, "en"]) {
    if (!lang) continue;
    const page = await cache.match("/offline/" + lang);
    if (page) return page;
  }
  return new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}

async function page(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (storable(response)) keep(PAGE_CACHE, request, response.clone(), MAX_PAGES);
    return response;
  } catch (error) {
    await forgetting;
    const cache = await caches.open(PAGE_CACHE);
    const saved = (await cache.match(request)) || (await cache.match(request, { ignoreSearch: true }));
    if (saved) {
      // Marked so the page can say that it is a saved copy.
      const headers = new Headers(saved.headers);
      headers.set("X-Catalog-Offline", "1");
      return new Response(await saved.blob(), { status: saved.status, headers });
    }
    return offlinePage(url);
  }
}

async function cachedFirst(request, cacheName, limit) {
  await forgetting;
  const cache = await caches.open(cacheName);
  const saved = await cache.match(request);
  if (saved) return saved;
  const response = await fetch(request);
  if (storable(response)) keep(cacheName, request, response.clone(), limit);
  return response;
}

async function data(request) {
  // Answers the pages read (rows, search results, the API's JSON) are kept too, so a visited list scrolls
  // offline; fresh from the network whenever there is one.
  try {
    const response = await fetch(request);
    if (storable(response)) keep(PAGE_CACHE, request, response.clone(), MAX_PAGES);
    return response;
  } catch (error) {
    await forgetting;
    const saved = await (await caches.open(PAGE_CACHE)).match(request);
    if (saved) return saved;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && (url.pathname === "/signout" || url.pathname === "/signin")) {
    // Who uses this browser changes: what was kept goes (the request itself goes on untouched).
    event.waitUntil(forget());
    return;
  }
  if (request.method !== "GET") return;
  // A change stream (live updates) goes to the network as it is: it never ends, so it is never kept.
  if ((request.headers.get("Accept") || "").includes("text/event-stream")) return;
  if (ROWS.test(url.pathname) && request.mode !== "navigate") {
    // Rows the script fetches (HTML, but no page): kept like the API's answers.
    event.respondWith(data(request));
  } else if (request.mode === "navigate" || (request.headers.get("Accept") || "").startsWith("text/html")) {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cachedFirst(request, SHELL_CACHE, 1000));
  } else if (url.pathname.startsWith("/images/")) {
    event.respondWith(cachedFirst(request, IMAGE_CACHE, MAX_IMAGES));
  } else if (url.pathname.startsWith("/api/v1/catalogs/")) {
    event.respondWith(data(request));
  }
});
