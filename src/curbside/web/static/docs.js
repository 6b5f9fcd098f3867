// A small API explorer built from /openapi.json: every operation, its parameters, body and
// responses, and a form to try it with your key (kept in sessionStorage, as on the page).

import { auth } from "./api.js";
import { $, h } from "./dom.js";

let spec = null;

function resolve(schema, depth = 0) {
  if (!schema || depth > 6) return schema;
  if (schema.$ref) return resolve(spec.components.schemas[schema.$ref.split("/").pop()], depth + 1);
  if (Array.isArray(schema)) return schema.map((s) => resolve(s, depth + 1));
  if (typeof schema !== "object") return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) out[k] = typeof v === "object" && v !== null ? resolve(v, depth + 1) : v;
  return out;
}

function refName(schema) {
  return schema?.$ref ? schema.$ref.split("/").pop() : schema?.type || "";
}

function schemaBlock(schema) {
  return h("details", {}, h("summary", {}, `Schema: ${refName(schema)}`), h("pre", { class: "schema" }, JSON.stringify(resolve(schema), null, 2)));
}

function example(schema) {
  const s = resolve(schema) || {};
  if (s.example !== undefined) return s.example;
  if (s.type !== "object" || !s.properties) return {};
  const out = {};
  for (const name of s.required || []) {
    const p = s.properties[name] || {};
    out[name] = p.default ?? (p.type === "integer" || p.type === "number" ? 0 : p.type === "boolean" ? false : p.type === "array" ? [] : "");
  }
  return out;
}

function operation(path, method, op) {
  const params = op.parameters || [];
  const jsonBody = op.requestBody?.content?.["application/json"];
  const inputs = params.filter((p) => p.in === "path" || p.in === "query").map((p) =>
    h("div", {}, h("label", { for: `${op.operationId}-${p.name}` }, `${p.name} (${p.in}${p.required ? ", required" : ""})`),
      h("input", { id: `${op.operationId}-${p.name}`, name: p.name, "data-in": p.in, placeholder: p.schema?.default ?? "" }),
      p.description ? h("div", { class: "muted" }, p.description) : null));
  const body = jsonBody ? h("textarea", { id: `${op.operationId}-body`, rows: 6, "aria-label": "Request body (JSON)" }, JSON.stringify(example(jsonBody.schema), null, 2)) : null;
  const out = h("pre", { class: "schema response", "aria-live": "polite", testid: "try-response" });
  const form = h("form", { class: "try" }, inputs, body ? [h("label", { for: `${op.operationId}-body` }, "Request body (JSON)"), body] : null,
    h("button", { type: "submit", testid: "try-send" }, "Send"), out);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    let url = path;
    const query = new URLSearchParams();
    for (const input of form.querySelectorAll("input[data-in]")) {
      if (!input.value) continue;
      if (input.dataset.in === "path") url = url.replace(`{${input.name}}`, encodeURIComponent(input.value));
      else query.set(input.name, input.value);
    }
    const headers = { Accept: "application/json" };
    if (auth.key) headers.Authorization = `Bearer ${auth.key}`;
    if (body) headers["Content-Type"] = "application/json";
    out.textContent = "…";
    try {
      const r = await fetch(url + (query.size ? `?${query}` : ""), { method: method.toUpperCase(), headers, body: body ? body.value : undefined });
      const text = await r.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON */ }
      out.textContent = `${r.status} ${r.statusText}\n\n${shown}`;
    } catch (err) {
      out.textContent = String(err);
    }
  });
  const responses = Object.entries(op.responses || {}).map(([code, r]) =>
    h("li", {}, h("strong", {}, code), ` ${r.description || ""}`, r.content?.["application/json"]?.schema ? schemaBlock(r.content["application/json"].schema) : null));
  return h("details", { class: "op", testid: "operation", "data-path": path, "data-method": method },
    h("summary", {}, h("span", { class: `method ${method}` }, method), h("span", { class: "path" }, path), h("span", { class: "muted" }, op.summary || "")),
    h("div", { class: "body" }, op.description ? h("p", { class: "description" }, op.description) : null,
      jsonBody ? [h("h4", {}, "Request body"), schemaBlock(jsonBody.schema)] : null,
      h("h4", {}, "Responses"), h("ul", {}, responses), h("h4", {}, "Try it"), form));
}

async function main() {
  $("#key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    auth.set($("#docs-key").value.trim());
    $("#docs-key").value = "";
    $("#docs-key").placeholder = "key set for this tab";
  });
  if (auth.key) $("#docs-key").placeholder = "key set for this tab";
  spec = await (await fetch("/openapi.json")).json();
  $("#docs-intro").textContent = `${spec.info.title} ${spec.info.version}: ${spec.info.description || ""} Send your key as "Authorization: Bearer KEY" (or X-API-Key).`;
  const byTag = new Map();
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags || ["other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operation(path, method, op));
    }
  }
  for (const [tag, nodes] of byTag) $("#operations").append(h("h2", { class: "tag" }, tag), ...nodes);
}

main().catch((e) => { $("#docs-intro").textContent = `The OpenAPI document could not be read: ${e.message}`; });
