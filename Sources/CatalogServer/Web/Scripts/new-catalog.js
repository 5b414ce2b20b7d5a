// A new catalog (NewCatalogPage.swift): the source goes to the server's preview (`POST
// /c/{id}/import/preview`, the importer's own reading of the first records) with the mapping
// chosen so far (`field=ROLE=NAME`); the preview fills each role's control with the source's
// fields and draws the records as they will be stored. Import sends the same request as a job
// (`POST /c/{id}/import`, 202) and the progress bar follows it (`GET /imports/{job}`) until the
// catalog is there, then goes to it.

import { element, encode, text } from "./page.js";
import { clearProblems, control, headers, plural, problemsOf, showProblems } from "./owner-form.js";

let form = null;
let fields = [];

export function startNewCatalog() {
  form = control("new-catalog");
  if (!form) return;
  form.addEventListener("submit", (event) => { event.preventDefault(); preview(); });
  for (const select of form.querySelectorAll("#mapping select")) select.addEventListener("change", preview);
  control("import-button").addEventListener("click", startImport);
}

const catalogID = () => control("n-id").value.trim();
const file = () => control("n-file").files[0] || null;
const url = () => control("n-url").value.trim();

// The format a file's name says; the server finds it from the first bytes otherwise.
function format(name) {
  const extension = (name.split(".").pop() || "").toLowerCase();
  return { csv: "csv", tsv: "csv", json: "json", xml: "xml", sqlite: "sqlite", db: "sqlite" }[extension] || null;
}

// The query of the preview and of the import: the source's format or URL, and the mapping.
function query(extra) {
  const parameters = new URLSearchParams(extra);
  parameters.set("locale", control("n-locale").value);
  if (file() && format(file().name)) parameters.set("format", format(file().name));
  if (!file() && url()) parameters.set("url", url());
  for (const select of form.querySelectorAll("#mapping select")) {
    if (select.value) parameters.append("field", select.dataset.role + "=" + select.value);
  }
  return parameters.toString();
}

// The problems the page finds itself, before asking the server.
function checked() {
  clearProblems(form);
  const problems = [];
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(catalogID())) problems.push({ pointer: "/id", message: text("problemCatalogID") });
  if (!file() && !/^https?:\/\/./i.test(url())) problems.push({ pointer: "/source", message: text("problemSource") });
  if (problems.length) showProblems(form, problems);
  return problems.length === 0;
}

async function send(path, extra) {
  const init = { method: "POST", credentials: "same-origin", headers: headers({}) };
  if (file()) {
    init.body = file();
    init.headers["Content-Type"] = "application/octet-stream";
  }
  return fetch("/c/" + encode(catalogID()) + path + "?" + query(extra), init);
}

async function preview() {
  if (!checked()) return;
  control("preview-button").disabled = true;
  let response;
  try {
    response = await send("/import/preview", {});
  } catch (_) {
    showProblems(form, [{ pointer: "", message: text("unreachable") }]);
    return;
  } finally {
    control("preview-button").disabled = false;
  }
  if (!response.ok) {
    showProblems(form, await problemsOf(response, text("importFailed")));
    return;
  }
  draw(await response.json());
}

// ---- The preview --------------------------------------------------------------------------------

function draw(result) {
  fields = result.fields;
  for (const select of form.querySelectorAll("#mapping select")) {
    const role = select.dataset.role;
    const chosen = result.mapping[role] || "";
    const options = [];
    // A field named like the role always feeds it: there is no "nothing" then.
    if (!fields.includes(role)) options.push(new Option(text("mappingDetected"), ""));
    for (const name of fields) options.push(new Option(name, name));
    select.replaceChildren(...options);
    select.value = chosen;
  }
  control("preview-summary").textContent = plural("previewShown", result.records.length);
  control("preview-problems").replaceChildren(...result.problems.map((problem) => element("li", "", problem)));
  drawTable(result);
  control("preview").hidden = false;
  control("import-button").disabled = result.records.length === 0;
}

function label(role) {
  return form.querySelector('label[for="map-' + role + '"]')?.textContent || role;
}

function cell(value) {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) return value.map(cell).join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function drawTable(result) {
  const roleColumns = Array.from(form.querySelectorAll("#mapping select"))
    .map((select) => select.dataset.role)
    .filter((role) => result.records.some((record) => record[role] !== undefined && record[role] !== null));
  const extras = [];
  for (const record of result.records) {
    for (const name of Object.keys(record.fields || {})) if (!extras.includes(name)) extras.push(name);
  }
  const head = element("tr");
  for (const role of roleColumns) head.append(Object.assign(element("th", "", label(role)), { scope: "col" }));
  for (const name of extras) head.append(Object.assign(element("th", "extra", name), { scope: "col" }));
  const rows = result.records.map((record) => {
    const row = element("tr");
    for (const role of roleColumns) row.append(element("td", "", cell(record[role])));
    for (const name of extras) row.append(element("td", "", cell(record.fields?.[name])));
    return row;
  });
  const thead = element("thead");
  thead.append(head);
  const tbody = element("tbody");
  tbody.append(...rows);
  control("preview-table").replaceChildren(thead, tbody);
}

// ---- The import and its progress ----------------------------------------------------------------

async function startImport() {
  if (!checked()) return;
  control("import-button").disabled = true;
  let response;
  try {
    response = await send("/import", { title: control("n-title").value.trim() });
  } catch (_) {
    control("import-button").disabled = false;
    showProblems(form, [{ pointer: "", message: text("unreachable") }]);
    return;
  }
  if (response.status !== 202) {
    control("import-button").disabled = false;
    showProblems(form, await problemsOf(response, text("importFailed")));
    return;
  }
  const job = await response.json();
  control("preview").hidden = true;
  control("import-progress").hidden = false;
  control("progress").focus?.();
  follow(response.headers.get("Location") || "/imports/" + encode(job.id), job);
}

// Where the bar stands: reading fills it to 90 % by the bytes read, writing to 95 %, the end 100 %.
function percent(job) {
  if (job.state === "done") return 100;
  if (job.phase === "writing") return 95;
  if (!job.totalBytes) return 0;
  return Math.min(90, Math.floor((job.bytesRead * 90) / job.totalBytes));
}

function show(job) {
  const bar = control("progress");
  const value = percent(job);
  bar.setAttribute("aria-valuenow", String(value));
  control("progress-fill").style.width = value + "%";
  control("progress-text").textContent = plural("importRead", job.recordsRead);
}

async function follow(where, job) {
  show(job);
  while (job.state === "running") {
    await new Promise((resolve) => setTimeout(resolve, 250));
    try {
      const response = await fetch(where, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error("HTTP " + response.status);
      job = await response.json();
    } catch (_) {
      continue;
    }
    show(job);
  }
  if (job.state === "done") {
    // The full bar for a moment, then the new catalog.
    setTimeout(() => location.assign("/c/" + encode(job.catalog)), 400);
    return;
  }
  control("import-progress").hidden = true;
  control("preview").hidden = false;
  control("import-button").disabled = false;
  showProblems(form, [{ pointer: "", message: text("importFailed") + " " + (job.error?.message || "") }]);
}
