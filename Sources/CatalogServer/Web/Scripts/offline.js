// Offline and shared devices: the service worker that keeps visited pages, and forgetting what
// this browser kept when someone signs out.

import { body, doc, lang } from "./page.js";
import { saveLocalFavorites } from "./favorites.js";
import { forgetRecent } from "./recent.js";

// ---- Signing out on a shared device --------------------------------------------------------------

// Pages made for a signed-in user are never kept (the server marks them no-store). When someone
// signs out (the form, or a session that ended), what this browser kept goes too: the service
// worker's pages and images, and the favorites and recently viewed records in localStorage. The browser's own favorites
// without an account start afresh after that, as on a new device.
const SIGNED_IN = "catalog:signed-in";

function forgetThisBrowser() {
  try { localStorage.removeItem(SIGNED_IN); } catch (_) { /* storage off */ }
  saveLocalFavorites([]);
  forgetRecent();
  const message = { type: "signed-out" };
  if (!("serviceWorker" in navigator)) return;
  // The worker in charge of this page hears it before the next page's requests.
  if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage(message);
  else navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage(message)).catch(() => {});
}

export function startSignOutForgetting() {
  if (body.dataset.signedIn !== undefined) {
    try { localStorage.setItem(SIGNED_IN, "1"); } catch (_) { /* storage off */ }
    doc.querySelector("form.signout")?.addEventListener("submit", forgetThisBrowser);
  } else if ((() => { try { return localStorage.getItem(SIGNED_IN) !== null; } catch (_) { return false; } })()) {
    forgetThisBrowser();
  }
}

// The service worker (sw.js), told this catalog's language for its offline page.
export function startServiceWorker() {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  const catalog = doc.getElementById("list")?.dataset.catalog || body.dataset.catalog || "";
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready).then((registration) => {
    if (catalog) registration.active?.postMessage({ type: "language", catalog, lang });
  }).catch((error) => console.warn("catalog: no service worker:", error && error.message));
}
