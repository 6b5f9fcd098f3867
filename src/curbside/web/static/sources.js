// A cited source: the popover a marker opens (what it is) and the side panel (the exact passage,
// the cited words highlighted, and the whole document on request), from GET /v1/passages.

import { get } from "./api.js";
import { sourceKind } from "./answer.js";
import { $, clear, h, highlighted } from "./dom.js";

const STOP = new Set(
  ("a an and are as at be been but by can could do does for from has have how if in into is it its may " +
    "more most must no not of on or per should such than that the their them then there these they this " +
    "those to was were what when where which while who will with would you your").split(" "),
);
const passages = new Map(); // chunk id -> Promise of the passage (one request per source)
let returnFocus = null;

function chunkParts(chunkId) {
  const m = /^(.*):v(\d+):(\d+)$/.exec(chunkId || "");
  return m ? { doc: m[1], version: Number(m[2]), ordinal: Number(m[3]) } : null;
}

export function citedTerms(sentence) {
  const words = (sentence.toLowerCase().match(/[a-z][a-z0-9-]{3,}/g) || []).filter((w) => !STOP.has(w));
  return [...new Set(words)].slice(0, 8);
}

function loadPassage(chunkId, terms = []) {
  const key = chunkId + "|" + terms.join(",");
  if (!passages.has(key)) {
    const q = new URLSearchParams({ chunk_ids: chunkId });
    if (terms.length) q.set("highlight_terms", terms.join(","));
    passages.set(key, get(`/v1/passages?${q}`).then((r) => ({ ...r.passages[0], total: r.total_chunks })));
  }
  return passages.get(key);
}

function meta(rows) {
  return h("dl", { class: "meta" }, rows.filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function cleanSentence(sentence) {
  return sentence.replace(/\[[\d,\s–-]*\]/g, "").replace(/[.!?]\s*$/, "").trim();
}

export function closePopover() {
  const pop = $("#popover");
  if (pop.hidden) return;
  pop.hidden = true;
  if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
  returnFocus = null;
}

// the calibrated relevance a reader understands: its label, with the probability beside it
function relevanceText(citation) {
  if (citation.relevance == null) return citation.relevance_label || null;
  const share = `${Math.round(citation.relevance * 100)} %`;
  return citation.relevance_label ? `${citation.relevance_label} (${share})` : share;
}

export function openPopover(citation, anchor, sentence) {
  const pop = $("#popover");
  returnFocus = anchor;
  const details = h("div", { testid: "popover-details" }, meta([
    ["Type", sourceKind(citation)],
    ["Detail", citation.detail],
    ["Year", citation.year],
    ["Relevance", relevanceText(citation)],
    ["Reference", citation.reference],
  ]));
  const open = h("button", { type: "button", class: "primary", testid: "popover-open" }, citation.kind === "passage" ? "Show the passage" : "Show the source");
  open.addEventListener("click", () => { closePopover(); openPanel(citation, sentence); });
  const close = h("button", { type: "button", testid: "popover-close" }, "Close");
  close.addEventListener("click", closePopover);
  pop.replaceChildren(
    h("h3", { id: "popover-title" }, `[${citation.n}] ${citation.title}`),
    details,
    h("div", { class: "actions" }, open, citation.url ? h("a", { href: citation.url, target: "_blank", rel: "noopener noreferrer" }, "Open the original") : null, close),
  );
  if (citation.kind === "passage" && citation.id) {
    loadPassage(citation.id).then((p) => {
      const parts = chunkParts(p.chunk_id);
      details.replaceChildren(meta([
        ["Type", sourceKind(citation)],
        ["Document", p.source],
        ["Section", p.section],
        ["Page", p.page ? (p.page_end && p.page_end !== p.page ? `${p.page}–${p.page_end}` : p.page) : null],
        ["Version", parts ? `v${parts.version}` : null],
        ["Passage", parts ? `${parts.ordinal + 1} of ${p.total}` : null],
        ["Relevance", relevanceText(citation)],
        ["Reference", citation.reference],
      ]));
    }).catch((e) => details.append(h("p", { class: "error" }, e.message)));
  }
  const box = anchor.getBoundingClientRect();
  pop.hidden = false;
  const left = Math.max(8, Math.min(box.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8));
  pop.style.left = `${left}px`;
  pop.style.top = `${box.bottom + window.scrollY + 6}px`;
  pop.focus();
}

export function closePanel() {
  $("#source-panel").hidden = true;
}

export async function openPanel(citation, sentence = "") {
  const panel = $("#source-panel");
  const body = clear($("#source-body"));
  panel.hidden = false;
  panel.dataset.n = citation.n;
  $("#source-title").textContent = `[${citation.n}] ${citation.title}`;
  if (citation.kind !== "passage" || !citation.id) {
    body.append(meta([["Type", sourceKind(citation)], ["Detail", citation.detail], ["Reference", citation.reference], ["Id", citation.id]]));
    if (citation.url) body.append(h("a", { href: citation.url, target: "_blank", rel: "noopener noreferrer" }, "Open the original"));
    panel.focus();
    return;
  }
  const terms = citedTerms(sentence);
  body.append(h("p", { class: "muted" }, "Loading the passage…"));
  panel.focus();
  try {
    const p = await loadPassage(citation.id, terms);
    const parts = chunkParts(p.chunk_id);
    const whole = h("button", { type: "button", testid: "whole-document" }, "Show the whole document");
    whole.addEventListener("click", () => openDocument(p, parts, sentence, terms, body));
    body.replaceChildren(
      meta([["Document", p.source], ["Section", p.section], ["Page", p.page], ["Reference", citation.reference], ["Chunk", p.chunk_id]]),
      h("div", { class: "passage cited", testid: "passage-text" }, highlighted(p.text, { span: cleanSentence(sentence), terms })),
      parts && p.total > 1 ? whole : null,
    );
  } catch (e) {
    body.replaceChildren(h("p", { class: "error", role: "alert" }, `The passage could not be opened: ${e.message}`));
  }
}

async function openDocument(p, parts, sentence, terms, body) {
  const ids = Array.from({ length: p.total }, (_, i) => `${parts.doc}:v${parts.version}:${i}`);
  const all = [];
  for (let i = 0; i < ids.length; i += 100) {
    const q = new URLSearchParams({ chunk_ids: ids.slice(i, i + 100).join(",") });
    all.push(...(await get(`/v1/passages?${q}`)).passages);
  }
  const nodes = all.map((x) =>
    x.chunk_id === p.chunk_id
      ? h("div", { class: "passage cited", testid: "document-cited" }, highlighted(x.text, { span: cleanSentence(sentence), terms }))
      : h("div", { class: "passage" }, x.text),
  );
  body.replaceChildren(h("p", { class: "muted" }, `${p.source}: ${all.length} passages; the cited one is marked.`), ...nodes);
  body.querySelector("[data-testid=document-cited]")?.scrollIntoView({ block: "center" });
}

export function installSourceKeys() {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closePopover();
  });
  document.addEventListener("mousedown", (e) => {
    const pop = $("#popover");
    if (!pop.hidden && !pop.contains(e.target) && !e.target.closest(".marker")) closePopover();
  });
  $("#close-source").addEventListener("click", closePanel);
}
