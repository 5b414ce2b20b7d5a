// What the catalog owner's pages share (NewCatalogPage.swift, CatalogSettingsPage.swift): the
// headers of a change (the session's CSRF token), and problems shown beside the controls their
// JSON pointers name (`data-pointer`, each with its `<id>-error` line) or, for the rest, in the
// page's error box.

import { body, doc, element, text } from "./page.js";

export const control = (id) => doc.getElementById(id);

export function headers(extra) {
  return { Accept: "application/json", "X-CSRF-Token": body.dataset.csrf || "", ...extra };
}

// The words of a plural message for `count` (the server writes the number into `{count}`).
const forms = (() => {
  try { return JSON.parse(body.dataset.messages || "{}"); } catch (_) { return {}; }
})();

export function plural(key, count) {
  const entry = forms[key];
  const category = new Intl.PluralRules(body.dataset.lang || "en").select(count);
  const form = (typeof entry === "object" && entry && (entry[category] || entry.other)) || text(key);
  return form.replace("{count}", new Intl.NumberFormat(body.dataset.lang || "en").format(count));
}

export function clearProblems(form) {
  const box = control("owner-error");
  box.hidden = true;
  box.replaceChildren();
  for (const error of form.querySelectorAll(".field-error")) { error.hidden = true; error.textContent = ""; }
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

// Each problem beside its control; the first such control gets the focus, else the error box.
export function showProblems(form, problems) {
  const box = control("owner-error");
  let first = null;
  for (const problem of problems) {
    const node = Array.from(form.querySelectorAll("[data-pointer]"))
      .find((candidate) => candidate.dataset.pointer === problem.pointer);
    const error = node && control(node.id + "-error");
    if (error) {
      error.textContent = problem.message;
      error.hidden = false;
      node.setAttribute("aria-invalid", "true");
      first = first || (node.tagName === "FIELDSET" ? node.querySelector("input") : node);
    } else {
      box.append(element("p", "", problem.message));
      box.hidden = false;
    }
  }
  (first || box).focus();
}

// The problems of an error answer: its pointers' problems, else its message.
export async function problemsOf(response, fallback) {
  const answer = await response.json().catch(() => null);
  const problems = answer?.error?.problems;
  if (problems && problems.length) return problems;
  return [{ pointer: "", message: answer?.error?.message || fallback }];
}
