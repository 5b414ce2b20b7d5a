// The record editor (EditPage.swift): categories as chips, the country's flag, and saving. A save
// sends the record as the API's JSON (`PUT /c/{id}/i/{item}`, EditHandler.swift) with the page's
// ETag in If-Match (a new record: If-None-Match: *), the session's CSRF token in a header. The
// answer decides what the page says: 412, someone changed the record meanwhile (Reload shows
// theirs, Overwrite saves this one over it); 422, each problem beside its field (the server's
// words in the catalog's language, linked with aria-describedby, and a summary that leads to
// each field). Delete goes to the list, whose toast can undo it (toast.js).
//
// Values are sent exactly: the body is written here member by member, numbers as their literals,
// and a field whose text was not changed goes back as the server's own JSON of it (`data-json`).
//
// A picture chosen from a file is shown at once and stored after the record's save, with the
// record's new ETag (`PUT /c/{id}/i/{item}/image`); the server decodes it and names it in the
// record's image field. Remove clears the field: a record that no longer names its stored image
// lets it go when it is saved.

import { body, doc, element, encode, text } from "./page.js";
import { handOver } from "./toast.js";

let form = null;
let etag = null;
let imageFile = null;

// The largest picture the server stores (ImageReader.maxBytes).
const maxImageBytes = 16 * 1024 * 1024;

const control = (id) => doc.getElementById(id);
const value = (id) => control(id)?.value ?? "";
const json = (text) => JSON.stringify(text);
const optional = (text) => (text.trim() === "" ? "null" : json(text));

export function startEditor() {
  form = doc.getElementById("editor");
  if (!form) return;
  etag = form.dataset.etag || null;
  startChips();
  startCountry();
  startImage();
  form.addEventListener("submit", (event) => { event.preventDefault(); save(false); });
  control("delete")?.addEventListener("click", remove);
  control("conflict-reload")?.addEventListener("click", () => location.reload());
  control("conflict-overwrite")?.addEventListener("click", () => save(true));
  control("problems")?.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-control]");
    if (!link) return;
    event.preventDefault();
    control(link.dataset.control)?.focus();
  });
}

const isNew = () => !form.dataset.item;
const itemID = () => (isNew() ? value("f-id") : form.dataset.item);
const itemURL = () => "/c/" + encode(form.dataset.catalog) + "/i/" + encode(itemID());

// ---- The record as JSON ---------------------------------------------------------------------------

// A number as the locale writes it ("1.234,50", "12.5") as a JSON literal, or null.
function literal(text, decimals) {
  let plain = text.trim().replace(/[\s\u00a0\u202f']/g, "");
  const separator = form.dataset.decimal || ".";
  if (separator !== ".") plain = plain.split(".").join("").replace(separator, ".");
  else plain = plain.split(",").join("");
  const pattern = decimals ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/;
  return pattern.test(plain) ? plain.replace(/^(-?)0+(?=\d)/, "$1") : null;
}

// A number field: its literal, null when empty, else the text itself (the server says what is wrong).
function number(id, decimals) {
  const text = value(id);
  if (text.trim() === "") return "null";
  return literal(text, decimals) ?? json(text);
}

function fieldsJSON() {
  const members = [];
  for (const input of form.querySelectorAll("[data-field]")) {
    const name = input.dataset.field;
    if (input.value === input.defaultValue && input.dataset.json !== undefined) {
      members.push(json(name) + ":" + input.dataset.json);
      continue;
    }
    if (input.value.trim() === "") continue;
    let raw = json(input.value);
    if (input.dataset.kind === "number") raw = literal(input.value, true) ?? raw;
    else if (input.dataset.kind === "bool" && /^(true|false)$/.test(input.value.trim())) raw = input.value.trim();
    members.push(json(name) + ":" + raw);
  }
  return "{" + members.join(",") + "}";
}

function recordJSON() {
  const categories = Array.from(form.querySelectorAll("#chips .chip"), (chip) => chip.dataset.value);
  const members = [
    ["id", json(itemID())], ["title", json(value("f-title"))], ["subtitle", optional(value("f-subtitle"))],
    ["description", optional(value("f-description"))], ["categories", JSON.stringify(categories)],
    ["price", number("f-price", true)], ["currency", optional(value("f-currency"))],
    ["quantity", number("f-quantity", false)], ["country", optional(value("f-country"))],
    ["image", optional(value("f-image"))], ["featured", form.dataset.featured || "null"], ["fields", fieldsJSON()],
  ];
  return "{" + members.map(([name, raw]) => json(name) + ":" + raw).join(",") + "}";
}

// ---- Saving and deleting --------------------------------------------------------------------------

function headers(extra) {
  return {
    Accept: "application/json", "Content-Type": "application/json", "X-CSRF-Token": body.dataset.csrf || "",
    ...extra,
  };
}

function busy(on, words = "") {
  control("save").disabled = on;
  if (control("delete")) control("delete").disabled = on;
  control("form-status").textContent = words;
}

async function save(overwrite) {
  clearProblems();
  if (isNew() && value("f-id") === "") {
    showProblems([{ pointer: "/id", message: text("problemID") }]);
    return;
  }
  let precondition = { "If-Match": etag || "*" };
  if (isNew() || (overwrite && !etag)) precondition = { "If-None-Match": "*" };
  if (overwrite && etag) precondition = { "If-Match": etag };
  busy(true, text("saving"));
  let response;
  try {
    response = await fetch(itemURL(), {
      method: "PUT", body: recordJSON(), headers: headers(precondition), credentials: "same-origin",
    });
  } catch (_) {
    busy(false, text("notSaved"));
    return;
  }
  if (response.ok) {
    const created = isNew();
    if (created) form.dataset.item = value("f-id");
    etag = response.headers.get("ETag") || etag;
    if (imageFile && !(await saveImage())) return;
    handOver({ kind: "saved" });
    location.assign(created ? itemURL() + (form.dataset.origin || "") : form.dataset.done);
    return;
  }
  busy(false);
  if (response.status === 412 && isNew()) {
    showProblems([{ pointer: "/id", message: text("recordExists") }]);
  } else if (response.status === 412) {
    // The record as it is now: Overwrite replaces that one (a deleted record is made again).
    etag = response.headers.get("ETag");
    showConflict();
  } else if (response.status === 422) {
    const answer = await response.json().catch(() => null);
    showProblems(answer?.error?.problems || [{ pointer: "", message: text("problemRecord") }]);
  } else {
    control("form-status").textContent = text("notSaved");
  }
}

// Stores the chosen picture after the record was saved; false (the page says why) when it was not.
async function saveImage() {
  busy(true, text("uploadingImage"));
  let response = null;
  try {
    response = await fetch(itemURL() + "/image", {
      method: "PUT", body: imageFile, credentials: "same-origin",
      headers: headers({ "Content-Type": imageFile.type || "image/jpeg", "If-Match": etag || "*" }),
    });
  } catch (_) {
    response = null;
  }
  if (response?.ok) {
    imageFile = null;
    return true;
  }
  busy(false, text("imageNotStored"));
  return false;
}

async function remove() {
  clearProblems();
  busy(true);
  let response;
  try {
    response = await fetch(itemURL(), {
      method: "DELETE", headers: headers({ "If-Match": etag || "*" }), credentials: "same-origin",
    });
  } catch (_) {
    busy(false, text("notSaved"));
    return;
  }
  if (response.status === 204 || response.status === 404) {
    const stored = form.querySelector('script[type="application/json"]')?.textContent;
    if (response.status === 204 && stored) {
      handOver({
        kind: "deleted", catalog: form.dataset.catalog, id: itemID(), json: stored,
        title: control("f-title")?.defaultValue || itemID(),
      });
    }
    location.assign(form.dataset.list);
    return;
  }
  busy(false);
  if (response.status === 412) {
    etag = response.headers.get("ETag");
    showConflict();
  } else {
    control("form-status").textContent = text("notSaved");
  }
}

// ---- What the page says ---------------------------------------------------------------------------

function showConflict() {
  const box = control("conflict");
  box.hidden = false;
  box.setAttribute("role", "alert");
  box.focus();
}

function clearProblems() {
  control("problems").hidden = true;
  control("problems-list").replaceChildren();
  control("conflict").hidden = true;
  for (const error of form.querySelectorAll(".field-error")) { error.hidden = true; error.textContent = ""; }
  for (const node of form.querySelectorAll("[aria-invalid]")) {
    node.removeAttribute("aria-invalid");
    node.removeAttribute("aria-describedby");
  }
}

// The control a pointer names, or the nearest one above it (`/categories/2` → the categories).
function controlFor(pointer) {
  let path = pointer;
  while (path) {
    const found = Array.from(form.querySelectorAll("[data-pointer]")).find((node) => node.dataset.pointer === path);
    if (found && found.dataset.error) return found;
    path = path.slice(0, Math.max(0, path.lastIndexOf("/")));
  }
  return null;
}

function labelOf(node) {
  if (node.tagName === "FIELDSET") return node.querySelector("legend")?.textContent || "";
  return form.querySelector('label[for="' + node.id + '"]')?.textContent || "";
}

function showProblems(problems) {
  const list = control("problems-list");
  for (const problem of problems) {
    const node = controlFor(problem.pointer || "");
    const item = element("li");
    if (node) {
      const error = control(node.dataset.error);
      error.textContent = error.textContent ? error.textContent + " " + problem.message : problem.message;
      error.hidden = false;
      const target = node.tagName === "FIELDSET" ? control("f-category") : node;
      for (const invalid of new Set([node, target])) {
        invalid.setAttribute("aria-invalid", "true");
        invalid.setAttribute("aria-describedby", error.id);
      }
      const link = element("a", "", labelOf(node) + ": " + problem.message);
      link.href = "#" + target.id;
      link.dataset.control = target.id;
      item.append(link);
    } else {
      item.textContent = problem.message;
    }
    list.append(item);
  }
  control("problems").hidden = false;
  control("problems").focus();
}

// ---- Categories as chips, the country's flag ------------------------------------------------------

function chip(value) {
  const item = element("li", "chip");
  item.dataset.value = value;
  const remove = element("button", "chip-remove");
  remove.type = "button";
  remove.setAttribute("aria-label", text("removeCategory").replace("{name}", value));
  const cross = element("span", "", "×");
  cross.setAttribute("aria-hidden", "true");
  remove.append(cross);
  item.append(element("span", "chip-label", value), remove);
  return item;
}

function startChips() {
  const chips = control("chips");
  const input = control("f-category");
  if (!chips || !input) return;
  const add = () => {
    const value = input.value.trim();
    if (!value) return;
    const known = Array.from(chips.children).some((node) => node.dataset.value === value);
    if (!known) chips.append(chip(value));
    input.value = "";
    input.focus();
  };
  control("category-add")?.addEventListener("click", add);
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    add();
  });
  chips.addEventListener("click", (event) => {
    const button = event.target.closest(".chip-remove");
    if (!button) return;
    const item = button.closest(".chip");
    const next = item.nextElementSibling || item.previousElementSibling;
    item.remove();
    (next?.querySelector(".chip-remove") || input).focus();
  });
}

// ---- The picture --------------------------------------------------------------------------------

function startImage() {
  const input = control("f-image-file");
  const preview = control("f-image-preview");
  const field = control("f-image");
  const removeButton = control("f-image-remove");
  if (!input || !preview || !field) return;
  const show = (source) => {
    delete preview.dataset.failed;
    preview.hidden = !source;
    if (source) preview.src = source;
    else preview.removeAttribute("src");
    if (removeButton) removeButton.hidden = !source;
  };
  input.addEventListener("change", () => {
    const file = input.files?.[0] || null;
    control("form-status").textContent = "";
    if (file && file.size > maxImageBytes) {
      input.value = "";
      control("form-status").textContent = text("imageNotStored");
      return;
    }
    imageFile = file;
    if (!file) return;
    // The preview before saving: the file as a data URL (the page's policy loads no blob: URLs).
    const reader = new FileReader();
    reader.addEventListener("load", () => show(String(reader.result)));
    reader.readAsDataURL(file);
  });
  removeButton?.addEventListener("click", () => {
    imageFile = null;
    input.value = "";
    field.value = "";
    show(null);
    input.focus();
  });
  field.addEventListener("change", () => {
    const url = field.value.trim();
    if (!imageFile) show(url.startsWith("/images/") ? url + "?size=240" : url.startsWith("https:") ? url : null);
  });
}

function startCountry() {
  const select = control("f-country");
  const flag = control("f-country-flag");
  if (!select || !flag) return;
  select.addEventListener("change", () => {
    const path = select.selectedOptions[0]?.dataset.flag;
    flag.hidden = !path;
    if (path) flag.src = path;
  });
}
