// Toasts: a short message at the bottom of the screen, with an action (Undo) and Dismiss. A toast
// stays until it is dismissed, its action taken or the page left (no timer takes it away before
// it is read). The editor hands a toast to the page it goes to (session storage): "Saved." on the
// record's page, and on the list "“Gulyás” was deleted. Undo", which puts the record back as it
// was (`PUT` of its stored JSON, `If-None-Match: *`).

import { body, doc, element, encode, text } from "./page.js";

const KEY = "catalog:toast";
let region = null;

function words(key, title) { return text(key).replace("{title}", title || ""); }

// The live region is in the page before any words are put into it, so they are announced.
function toastRegion() {
  if (!region) {
    region = element("div", "toasts");
    region.id = "toasts";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    body.append(region);
  }
  return region;
}

/** Shows `message`, with `action` ({label, run}) as a button beside Dismiss. */
export function showToast(message, action = null) {
  const host = toastRegion();
  host.replaceChildren();
  const toast = element("div", "toast");
  const words = element("p", "toast-text");
  toast.append(words);
  if (action) {
    const button = element("button", "toast-action", action.label);
    button.type = "button";
    button.id = "toast-action";
    button.addEventListener("click", () => { toast.remove(); action.run(); });
    toast.append(button);
  }
  const close = element("button", "toast-close");
  close.type = "button";
  close.id = "toast-close";
  close.setAttribute("aria-label", text("dismiss"));
  close.append(element("span", "", "×"));
  close.firstChild.setAttribute("aria-hidden", "true");
  close.addEventListener("click", () => toast.remove());
  toast.append(close);
  host.append(toast);
  requestAnimationFrame(() => { words.textContent = message; });
  return toast;
}

/** Keeps a toast for the next page of this tab: `{kind: "saved"}` or `{kind: "deleted", …}`. */
export function handOver(toast) {
  try { sessionStorage.setItem(KEY, JSON.stringify(toast)); } catch (_) { /* storage off: no toast */ }
}

export function startToasts() {
  let toast = null;
  try {
    toast = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
  } catch (_) { return; }
  if (!toast) return;
  if (toast.kind === "saved") showToast(text("saved"));
  else if (toast.kind === "deleted" && toast.catalog === body.dataset.catalog && typeof toast.json === "string") {
    showToast(words("deletedToast", toast.title), { label: text("undo"), run: () => undoDelete(toast) });
  }
}

// Puts a deleted record back as it was stored; a record made again meanwhile is left alone.
async function undoDelete(toast) {
  const url = "/c/" + encode(toast.catalog) + "/i/" + encode(toast.id);
  try {
    const response = await fetch(url, {
      method: "PUT", body: toast.json, credentials: "same-origin",
      headers: {
        "Content-Type": "application/json", Accept: "application/json", "If-None-Match": "*",
        "X-CSRF-Token": body.dataset.csrf || "",
      },
    });
    showToast(response.ok ? words("restored", toast.title) : text("notSaved"));
  } catch (_) {
    showToast(text("notSaved"));
  }
}
