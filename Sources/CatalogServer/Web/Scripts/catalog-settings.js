// A catalog's settings (CatalogSettingsPage.swift): what changed goes as a JSON merge patch
// (`PATCH /c/{id}/settings`, the API's own change, with the page's revision in If-Match): the
// title, the description, the locale, who may see it, and each label in the catalog's language (an
// emptied description or label is removed). A 422's problems are shown beside their controls.
// Delete is enabled only while the catalog's id is typed; after it, the home page says what was
// deleted.

import { encode, text } from "./page.js";
import { clearProblems, control, headers, problemsOf, showProblems } from "./owner-form.js";

let form = null;

export function startCatalogSettings() {
  form = control("catalog-settings");
  if (form) form.addEventListener("submit", (event) => { event.preventDefault(); save(); });
  const confirm = control("delete-confirm");
  if (!confirm) return;
  const zone = control("danger-zone");
  const button = control("delete-catalog");
  const match = () => { button.disabled = confirm.value !== zone.dataset.catalog; };
  confirm.addEventListener("input", match);
  match();
  button.addEventListener("click", () => remove(zone.dataset.catalog));
}

const path = () => "/c/" + encode(form.dataset.catalog) + "/settings";

// The merge patch of what differs from the page as the server drew it.
function patch() {
  const changes = {};
  const title = control("s-title");
  if (title.value !== title.defaultValue) changes.title = title.value;
  // An emptied description is removed.
  const description = control("s-description");
  if (description.value !== description.defaultValue) {
    changes.description = description.value.trim() === "" ? null : description.value;
  }
  const locale = control("s-locale");
  const drawn = Array.from(locale.options).find((option) => option.defaultSelected);
  if (drawn && locale.value !== drawn.value) changes.locale = locale.value;
  const visibility = form.querySelector("input[name=visibility]:checked");
  if (visibility && !visibility.defaultChecked) changes.visibility = visibility.value;
  const language = form.dataset.language;
  for (const input of form.querySelectorAll("input[data-field]")) {
    if (input.value === input.defaultValue) continue;
    changes.labels = changes.labels || {};
    changes.labels[input.dataset.field] = { [language]: input.value.trim() === "" ? null : input.value };
  }
  return changes;
}

async function save() {
  clearProblems(form);
  const changes = patch();
  if (Object.keys(changes).length === 0) {
    location.assign(form.dataset.done);
    return;
  }
  control("save-settings").disabled = true;
  let response;
  try {
    response = await fetch(path(), {
      method: "PATCH", credentials: "same-origin", body: JSON.stringify(changes),
      headers: headers({ "Content-Type": "application/merge-patch+json", "If-Match": form.dataset.revision }),
    });
  } catch (_) {
    showProblems(form, [{ pointer: "", message: text("unreachable") }]);
    return;
  } finally {
    control("save-settings").disabled = false;
  }
  if (response.ok) {
    location.assign(form.dataset.done);
  } else if (response.status === 412) {
    showProblems(form, [{ pointer: "", message: text("conflict") }]);
  } else {
    showProblems(form, await problemsOf(response, text("notSaved")));
  }
}

async function remove(id) {
  const button = control("delete-catalog");
  button.disabled = true;
  let response;
  try {
    response = await fetch("/c/" + encode(id) + "/settings", { method: "DELETE", credentials: "same-origin", headers: headers({}) });
  } catch (_) {
    button.disabled = false;
    return;
  }
  if (response.status === 204 || response.status === 404) {
    location.assign("/?deleted=" + encode(id));
    return;
  }
  button.disabled = false;
  const problems = await problemsOf(response, text("notSaved"));
  control("owner-error").replaceChildren();
  for (const problem of problems) control("owner-error").append(problem.message);
  control("owner-error").hidden = false;
  control("owner-error").focus();
}
