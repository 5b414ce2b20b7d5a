// Favorites: the favorite button without a page load (in the account when signed in, in this
// browser when not), the browser's own favorites merged at sign-in, and the favorites page of
// someone signed out, filled with the server's rows of the records kept here.

import { body, doc, encode, failed, request, requestRows } from "./page.js";
import { startStaticList } from "./lists.js";

const LOCAL_FAVORITES = "catalog:favorites";

function localFavorites() {
  try {
    const list = JSON.parse(localStorage.getItem(LOCAL_FAVORITES) || "[]");
    return Array.isArray(list) ? list.filter((entry) => Array.isArray(entry) && entry.length === 2) : [];
  } catch (_) { return []; }
}

export function saveLocalFavorites(list) {
  try { localStorage.setItem(LOCAL_FAVORITES, JSON.stringify(list)); } catch (_) { /* storage off */ }
}

function isLocalFavorite(catalog, item) {
  return localFavorites().some(([c, i]) => c === catalog && i === item);
}

// The favorite button without a page load (and so without a history entry): in the account when
// signed in, in this browser when not.
export function enhanceFavorite(root) {
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

// Signed out, the favorites page lists the browser's own favorites: their rows come from the
// server (a few requests of up to 100 records, the URLs kept short), in the order kept here.
async function drawLocalFavorites(container) {
  let rows;
  try {
    rows = await localFavoriteRows(container);
  } catch (error) {
    failed(error, () => drawLocalFavorites(container));
    return;
  }
  container.replaceChildren(...rows);
  doc.getElementById("empty").hidden = rows.length > 0;
  startStaticList(container);
}

// The rows of the browser's own favorites of the list's catalog, numbered in their order.
export async function localFavoriteRows(container) {
  const catalog = container.dataset.catalog;
  const ids = localFavorites().filter(([c]) => c === catalog).map(([, item]) => item);
  const base = "/c/" + encode(catalog) + "/rows?via=favorites&thumbs=" + (container.dataset.thumbs !== undefined ? "1" : "0");
  const chunks = [];
  let chunk = [];
  let length = 0;
  for (const id of ids) {
    const size = encode(id).length + 6;
    if (chunk.length && (chunk.length === 100 || length + size > 6000)) { chunks.push(chunk); chunk = []; length = 0; }
    chunk.push(id);
    length += size;
  }
  if (chunk.length) chunks.push(chunk);
  const rows = [];
  for (const part of chunks) {
    const url = base + "&" + part.map((id) => "item=" + encode(id)).join("&");
    rows.push(...(await requestRows(url)).rows);
  }
  rows.forEach((node, index) => { node.dataset.position = String(index); });
  return rows;
}

export function startFavorites() {
  enhanceFavorite(doc);
  // Signed in: the browser's favorites were merged at sign-in (the form carried them).
  if (body.dataset.signedIn !== undefined && localFavorites().length) saveLocalFavorites([]);
  const localField = doc.getElementById("local-favorites");
  if (localField) localField.value = JSON.stringify(localFavorites());
  const collection = doc.getElementById("collection");
  if (collection && collection.dataset.favorites === "local") drawLocalFavorites(collection);
  // Coming back to a favorites list (the browser's back-forward cache): drawn again, so a
  // favorite removed on the record's page is gone at once.
  addEventListener("pageshow", (event) => {
    if (event.persisted && collection && location.pathname.endsWith("/favorites")) location.reload();
  });
}
