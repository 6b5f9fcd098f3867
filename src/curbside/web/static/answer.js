// One answer as it is written: text appended as it streams, each [n] marker a button once its
// source is known. A marker whose source never arrives is never shown as a link (and is dropped at
// the end); the numbers are the server's, so they do not move while the text streams.

import { h } from "./dom.js";

const MARKER = /\[(\d+(?:\s*[,–-]\s*\d+)*)\]/;
const OPEN_TAIL = /\[[\d,\s–-]*$/;

export function markerNumbers(group) {
  const numbers = [];
  for (const part of group.split(",")) {
    const range = part.split(/[–-]/).map((x) => parseInt(x.trim(), 10));
    if (range.length === 2 && range[0] <= range[1] && range[1] - range[0] < 50) {
      for (let n = range[0]; n <= range[1]; n++) numbers.push(n);
    } else if (!Number.isNaN(range[0])) numbers.push(range[0]);
  }
  return numbers;
}

export function sourceKind(citation) {
  if (citation.kind === "passage") return "Passage from the knowledge base";
  return citation.tool ? `Tool result (${citation.tool})` : "Tool result";
}

export class AnswerView {
  constructor({ onMarker }) {
    this.onMarker = onMarker;
    this.sources = new Map();
    this.held = "";
    this.plain = "";
    this.streamed = "";
    this.waiting = new Map(); // n -> placeholder spans for a marker whose source has not arrived
    this.cited = new Set();
    this.text = h("div", { class: "answer", testid: "answer" });
    this.notes = h("ul", { class: "warnings", testid: "answer-warnings" });
    this.list = h("ol", { class: "sources", testid: "sources", hidden: true, "aria-label": "Sources cited" });
    this.node = h("div", {}, this.text, this.notes, this.list);
  }

  addSource(citation) {
    this.sources.set(citation.n, citation);
    for (const span of this.waiting.get(citation.n) || []) span.replaceWith(this.marker(citation, span.dataset.cited));
    this.waiting.delete(citation.n);
  }

  addText(text, { streaming = true } = {}) {
    if (streaming && text) this.node.dataset.streamed = "true";
    this.streamed += text;
    let rest = this.held + text;
    const tail = OPEN_TAIL.exec(rest);
    this.held = tail ? tail[0] : "";
    if (tail) rest = rest.slice(0, tail.index);
    this.render(rest);
  }

  render(text) {
    let rest = text;
    while (rest) {
      const m = MARKER.exec(rest);
      if (!m) { this.plainText(rest); break; }
      this.plainText(rest.slice(0, m.index));
      const sentence = this.currentSentence();
      for (const n of markerNumbers(m[1])) {
        const citation = this.sources.get(n);
        if (citation) this.text.append(this.marker(citation, sentence));
        else {
          const span = h("span", { hidden: true, "data-n": n, "data-cited": sentence });
          this.waiting.set(n, [...(this.waiting.get(n) || []), span]);
          this.text.append(span);
        }
      }
      rest = rest.slice(m.index + m[0].length);
    }
  }

  plainText(text) {
    if (!text) return;
    this.plain += text;
    this.text.append(text);
  }

  currentSentence() {
    const parts = this.plain.split(/(?<=[.!?])\s+/);
    return parts[parts.length - 1] || this.plain;
  }

  marker(citation, cited) {
    this.cited.add(citation.n);
    const button = h(
      "button",
      {
        type: "button",
        class: "marker",
        testid: `marker-${citation.n}`,
        "data-n": citation.n,
        "aria-label": `Source ${citation.n}: ${citation.title}`,
        "aria-haspopup": "dialog",
      },
      `[${citation.n}]`,
    );
    button.addEventListener("click", () => this.onMarker(citation, button, cited || ""));
    return button;
  }

  // The model's text was taken back (it cited what it may not): start over with what follows.
  retract() {
    this.text.replaceChildren();
    this.plain = this.streamed = this.held = "";
    this.waiting.clear();
    this.cited.clear();
  }

  // The whole result: what was not streamed is rendered from it; only cited sources are listed.
  finish(result) {
    for (const citation of result.sources_used || []) if (!this.sources.has(citation.n)) this.addSource(citation);
    const final = result.final_response || "";
    if (this.held) { this.render(this.held); this.held = ""; }
    if (final && this.streamed.trim() !== final.trim()) {
      this.retract();
      this.addText(final, { streaming: false });
      this.render(this.held);
      this.held = "";
      this.streamed = final;
    }
    for (const spans of this.waiting.values()) spans.forEach((span) => span.remove());
    this.waiting.clear();
    const cited = [...this.cited].sort((a, b) => a - b).map((n) => this.sources.get(n));
    this.list.replaceChildren(
      ...cited.map((c) =>
        h(
          "li",
          { value: c.n, testid: `source-item-${c.n}` },
          h("button", { type: "button", class: "plain", onclick: (e) => this.onMarker(c, e.currentTarget, "") }, c.title),
          h("span", { class: "muted" }, ` — ${sourceKind(c)}${c.detail ? `; ${c.detail}` : ""}`),
        ),
      ),
    );
    this.list.hidden = cited.length === 0;
  }

  warn(texts) {
    for (const text of texts) this.notes.append(h("li", { class: "warning", testid: "warning" }, text));
  }
}
