// A record's page (and the pane beside a list): the share button, the picture shown full size,
// and the record noted as recently viewed. They listen on the document, so a record that the pane
// or a live change draws later works the same as the page's own.

import { doc, element, text } from "./page.js";
import { showToast } from "./toast.js";
import { noteViewed } from "./recent.js";

// The full-size picture: a modal dialog over the page that closes on a tap, Escape or its close
// button; on phones it may be pinched (the dialog allows the browser's pinch zoom), on desktop a
// click on the picture switches between fitted and natural size.
function zoom(image) {
  const dialog = element("dialog", "zoom");
  dialog.setAttribute("aria-label", image.alt || image.dataset.zoom || "");
  const close = element("button", "zoom-close");
  close.type = "button";
  close.setAttribute("aria-label", text("close"));
  close.append(element("span", "", "×"));
  close.firstChild.setAttribute("aria-hidden", "true");
  const full = element("img", "zoom-image");
  full.alt = image.alt;
  // The original, not the list's thumbnail size.
  full.src = image.currentSrc ? image.currentSrc.replace(/[?&]size=\d+$/, "") : image.src;
  dialog.append(close, full);
  // Inside the page's main landmark (a modal dialog is drawn over everything wherever it is).
  (doc.querySelector("main") || doc.body).append(dialog);
  const done = () => { dialog.close(); };
  close.addEventListener("click", done);
  full.addEventListener("click", (event) => {
    event.stopPropagation();
    dialog.classList.toggle("natural");
  });
  dialog.addEventListener("click", (event) => { if (event.target === dialog) done(); });
  dialog.addEventListener("close", () => { dialog.remove(); image.focus(); });
  dialog.showModal();
  close.focus();
}

async function share(button) {
  const url = new URL(button.dataset.url, location.href).href;
  if (navigator.share) {
    try {
      await navigator.share({ title: button.dataset.title, url });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") return;  // the person closed the share sheet
    }
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch (_) {
    // No clipboard API (a page not served over HTTPS): the older way, through a selected field.
    const field = element("textarea", "offscreen");
    field.value = url;
    doc.body.append(field);
    field.select();
    try { copied = doc.execCommand("copy"); } catch (_) { copied = false; }
    field.remove();
  }
  showToast(copied ? button.dataset.copied : url);
}

export function startRecord() {
  const prepare = (root) => {
    for (const button of root.querySelectorAll("button.share[hidden]")) button.hidden = false;
    for (const image of root.querySelectorAll("img.detail-image[data-zoom]")) {
      image.tabIndex = 0;
      image.setAttribute("role", "button");
      image.setAttribute("aria-label", image.dataset.zoom);
    }
    // A record seen (its page, or the pane): first among the catalog's recently viewed.
    const articles = root.matches?.("article.detail[data-id]") ? [root] : root.querySelectorAll("article.detail[data-id]");
    for (const article of articles) noteViewed(article);
  };
  prepare(doc);
  // Records the pane or a live change draws later.
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) if (node.nodeType === Node.ELEMENT_NODE) prepare(node);
    }
  }).observe(doc.body, { childList: true, subtree: true });
  doc.addEventListener("click", (event) => {
    const button = event.target.closest("button.share");
    if (button) { share(button); return; }
    const image = event.target.closest("img.detail-image[data-zoom]");
    if (image && !image.classList.contains("image-failed")) zoom(image);
  });
  doc.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const image = event.target.closest && event.target.closest("img.detail-image[data-zoom]");
    if (!image) return;
    event.preventDefault();
    zoom(image);
  });
}
