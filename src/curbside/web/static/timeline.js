// "What happened": the turn's steps as they arrive, the tool results as cards, where the model ran.

import { $, h, inWords } from "./dom.js";

const PLUMBING = new Set(["use_llm"]);

const GOOD = new Set(["ok", "rules", "approved"]);

export function resetTimeline() {
  $("#timeline").replaceChildren();
  $("#cards").replaceChildren();
  $("#badges").replaceChildren();
}

function outcomeBadge(outcome) {
  if (!outcome) return null;
  const cls = GOOD.has(outcome) ? "ok" : /^[A-Z_]+$/.test(outcome) || outcome === "denied" || outcome === "failed" ? "bad" : "";
  return h("span", { class: `outcome ${cls}`, testid: "step-outcome" }, outcome.replace(/_/g, " "));
}

export function addStep(step) {
  // the arguments a clinician would recognise; plumbing such as use_llm stays in the JSON result
  const shown = Object.fromEntries(Object.entries(step.arguments || {}).filter(([k]) => !PLUMBING.has(k)));
  const args = Object.keys(shown).length ? inWords(shown) : "";
  $("#timeline").append(
    h(
      "li",
      { testid: "timeline-step", "data-step": step.step },
      h("div", {}, h("span", { class: "step-kind" }, step.step), " ", step.what, " ", outcomeBadge(step.outcome),
        step.ms ? h("span", { class: "muted" }, ` · ${Math.round(step.ms)} ms`) : null),
      step.tool ? h("div", { class: "args" }, `${step.tool}${args ? ": " + args : ""}`) : null,
      step.why ? h("div", { class: "why" }, step.why) : null,
    ),
  );
}

// A line the page adds itself (a confirmation's outcome), in the same list.
export function addNote(kind, what, outcome) {
  $("#timeline").append(
    h("li", { testid: "timeline-step", "data-step": kind }, h("span", { class: "step-kind" }, kind), " ", what, " ", outcomeBadge(outcome)),
  );
}

export function setBadges(result) {
  const model = result.model || "none";
  const where = { none: "No model: the tools' own words", local: "Model ran locally", cloud: "Model ran in the cloud" }[model] || `Model: ${model}`;
  const phi =
    result.phi_detected === true ? ["PHI detected", "phi"] : result.phi_detected === false ? ["No PHI detected", "ok"] : ["PHI not checked (no model)", ""];
  $("#badges").replaceChildren(
    h("span", { class: "badge", testid: "badge-model", "data-model": model }, where),
    h("span", { class: `badge ${phi[1]}`, testid: "badge-phi" }, phi[0]),
    h("span", { class: "badge", testid: "badge-route" }, `Route: ${result.route}`),
    h("span", { class: `badge ${result.confidence_level === "low" ? "phi" : ""}`, testid: "badge-confidence" }, `Confidence: ${result.confidence_level}`),
  );
}

function valueText(values) {
  if (values.value === undefined) return null;
  return `${values.value}${values.unit ? " " + values.unit : ""}`;
}

function rows(values) {
  return Object.entries(values)
    .filter(([k, v]) => !["value", "unit"].includes(k) && v !== null && v !== undefined && v !== "")
    .map(([k, v]) => [
      h("dt", {}, k.replace(/_/g, " ")),
      h("dd", {}, Array.isArray(v) ? v.map((x) => (typeof x === "object" ? inWords(x) : x)).join("; ") : typeof v === "object" ? inWords(v) : String(v)),
    ]);
}

export function setCards(result) {
  const cards = (result.facts || []).filter((f) => f.intent !== "knowledge").map((fact) => {
    const values = fact.values || {};
    const cite = (result.sources_used || []).find((c) => c.tool === fact.tool && c.kind === "tool");
    const value = valueText(values);
    return h(
      "article",
      { class: "tool-card", testid: "tool-card", "data-tool": fact.tool },
      h("h4", {}, cite ? cite.title : fact.tool),
      h("div", { class: "muted" }, `${fact.tool} · ${fact.intent || "tool"}`),
      value ? h("div", { class: "value", testid: "tool-card-value" }, value) : null,
      h("dl", {}, rows(values)),
      cite && cite.detail ? h("p", { class: "muted" }, `Source: ${cite.detail}`) : null,
    );
  });
  $("#cards").replaceChildren(...cards);
}
