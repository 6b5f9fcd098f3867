// Patient context: find a patient in the configured EHR (ehr.search_patient, by name and birth
// date), make them the conversation's patient (PUT /v1/sessions/{id}/patient), or clear it.
// Without an EHR the control says why it is absent.

import { post, request } from "./api.js";
import { $, h, toast } from "./dom.js";

const KEY = "curbside.patient";
export const patient = {
  ehr: null,
  get current() { return JSON.parse(sessionStorage.getItem(KEY) || "null"); },
  set current(row) { if (row) sessionStorage.setItem(KEY, JSON.stringify(row)); else sessionStorage.removeItem(KEY); },
};

let sessionIdOf = () => null;

export function setupPatient(ehr, sessionId) {
  patient.ehr = ehr;
  sessionIdOf = sessionId;
  renderPatient();
}

function describe(row) {
  return [row.name || `Patient ${row.id}`, row.birth_date ? `born ${row.birth_date}` : null, row.sex, row.mrn ? `MRN ${row.mrn}` : null]
    .filter(Boolean).join(" · ");
}

async function choose(row) {
  await request("PUT", `/v1/sessions/${encodeURIComponent(sessionIdOf())}/patient`, { json: { patient_id: row ? row.id : null } });
  patient.current = row;
  renderPatient();
  toast(row ? `Patient: ${describe(row)}` : "No patient: answers are general.");
}

// a list of the chart, in a few words: "a, b, c (+2 more)"; a part the chart has no list for says why, in
// the chart's words ("none recorded", "could not be read", "left out to fit")
function listed(items, name, none) {
  if (typeof items === "string") return `${name}: ${items}`;
  if (!Array.isArray(items)) return `${name}: not available`;
  if (!items.length) return `${name}: ${none}`;
  const shown = items.slice(0, 3).join(", ");
  return `${name}: ${shown}${items.length > 3 ? ` (+${items.length - 3} more)` : ""}`;
}

async function loadChart(id, into) {
  const answer = await post("/v1/tools/ehr.get_patient_chart", { patient_id: id }, { ok: [403, 404, 422, 429, 500, 503, 504] })
    .catch((err) => ({ error: err }));
  if (answer.status !== "ok") {
    into.textContent = `Chart not read: ${answer.error?.message || "the EHR did not answer"}.`;
    return;
  }
  const chart = answer.result;
  const display = (coded) => (coded && (coded.display || coded.code)) || "?";
  into.replaceChildren(...[
    chart.patient?.age != null ? `Age ${chart.patient.age} (as of ${chart.as_of})` : null,
    listed(Array.isArray(chart.problems) ? chart.problems.map((p) => display(p.problem)) : chart.problems, "Problems", "none active"),
    listed(Array.isArray(chart.medications) ? chart.medications.map((m) => display(m.medication)) : chart.medications, "Medications", "none active"),
    listed(Array.isArray(chart.allergies) ? chart.allergies.map((a) => display(a.substance)) : chart.allergies, "Allergies", "none recorded"),
  ].filter(Boolean).map((text) => h("div", {}, text)));
}

export function renderPatient() {
  const box = $("#patient");
  if (!patient.ehr) return;
  if (!patient.ehr.configured) {
    box.replaceChildren(h("p", { class: "muted", testid: "patient-absent" }, `No patient context. ${patient.ehr.message}`));
    return;
  }
  const row = patient.current;
  if (row) {
    const clearButton = h("button", { type: "button", testid: "patient-clear" }, "Clear patient");
    clearButton.addEventListener("click", () => choose(null).catch((e) => toast(e.message)));
    const summary = h("div", { class: "muted", testid: "chart-summary", "aria-live": "polite" }, "Reading the chart…");
    box.replaceChildren(h("div", { class: "chart-header", testid: "patient-header" }, h("strong", {}, "Patient: "), describe(row), summary), clearButton);
    loadChart(row.id, summary);
    return;
  }
  const results = h("ul", { class: "plain-list", testid: "patient-results", "aria-live": "polite" });
  const form = h(
    "form",
    { testid: "patient-search", "aria-label": "Find a patient" },
    h("div", {}, h("label", { for: "patient-name" }, "Patient name"), h("input", { id: "patient-name", testid: "patient-name", autocomplete: "off" })),
    h("div", {}, h("label", { for: "patient-birth" }, "Birth date"), h("input", { id: "patient-birth", type: "date", testid: "patient-birth" })),
    h("button", { type: "submit", testid: "patient-find" }, "Find patient"),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const args = {};
    const name = $("#patient-name").value.trim();
    const birth = $("#patient-birth").value;
    if (name) args.name = name;
    if (birth) args.birth_date = birth;
    if (!name && !birth) { results.replaceChildren(h("li", { class: "error" }, "Give a name, a birth date, or both.")); return; }
    const answer = await post("/v1/tools/ehr.search_patient", args, { ok: [403, 422, 429, 500, 503, 504] }).catch((err) => ({ error: err }));
    if (answer.status !== "ok") {
      results.replaceChildren(h("li", { class: "error" }, answer.error?.message || "The search failed."));
      return;
    }
    const matches = answer.result.matches || [];
    results.replaceChildren(
      ...(matches.length ? matches.map((m) => h("li", {}, h("button", { type: "button", testid: "patient-pick", onclick: () => choose(m).catch((err) => toast(err.message)) }, describe(m))))
        : [h("li", { class: "muted" }, "No patient matches.")]),
    );
  });
  box.replaceChildren(form, results);
}
