// Small DOM helpers: elements are built with text nodes only (never innerHTML with server text).

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "testid") node.dataset.testid = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

export function toast(text) {
  const node = $("#toast");
  node.textContent = text;
  node.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => node.classList.remove("show"), 3500);
}

// "name: value" pairs in words: {weight_kg: 80, height_cm: 180} -> "weight kg 80, height cm 180".
export function inWords(values) {
  if (!values || typeof values !== "object") return "";
  return Object.entries(values)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
}

export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
}

// Mark `terms` (or one exact `span`) in `text` with <mark>, as DOM nodes.
export function highlighted(text, { span = null, terms = [] } = {}) {
  const ranges = [];
  if (span) {
    const at = findLoose(text, span);
    if (at) ranges.push(at);
  }
  if (!ranges.length) {
    for (const term of terms) {
      const re = new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "gi");
      for (const m of text.matchAll(re)) ranges.push([m.index, m.index + m[0].length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const out = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at) continue;
    out.push(text.slice(at, start), h("mark", {}, text.slice(start, end)));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

// Where `needle` occurs in `text` ignoring differences of whitespace and case: [start, end] or null.
function findLoose(text, needle) {
  const words = needle.trim().split(/\s+/).filter(Boolean).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (words.length < 3) return null;
  const m = new RegExp(words.join("\\s+"), "i").exec(text);
  return m ? [m.index, m.index + m[0].length] : null;
}
