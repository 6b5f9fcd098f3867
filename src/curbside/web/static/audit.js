// Audit (auditor role): verify the trail, browse a window of rows a page at a time (GET /v1/audit/rows),
// export them as JSON Lines.

import { get, raw } from "./api.js";
import { $, h, toast, when } from "./dom.js";

const PAGE = 100;
let offset = 0;

function windowQuery() {
  const since = $("#audit-since").value;
  const until = $("#audit-until").value;
  const q = new URLSearchParams({ since });
  if (until) q.set("until", until);
  return q;
}

async function verify() {
  const out = $("#verify-result");
  out.textContent = "Checking every row…";
  try {
    const r = await get("/v1/audit/verify");
    out.textContent = r.ok
      ? `Intact: ${r.rows} rows, every MAC and chain link checks out.`
      : `BROKEN at row ${r.first_bad_row}: ${r.problem || "see the export"}`;
    out.dataset.ok = String(r.ok);
  } catch (e) {
    out.textContent = `Not verified: ${e.message}`;
  }
}

async function fetchRows() {
  const response = await raw(`/v1/audit/export?${windowQuery()}`);
  const text = await response.text();
  return { text, verified: response.headers.get("X-Audit-Verified"), rows: text.split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

async function browse(at = 0) {
  try {
    const q = windowQuery();
    q.set("offset", String(at));
    q.set("limit", String(PAGE));
    const page = await get(`/v1/audit/rows?${q}`);
    offset = page.offset;
    const first = page.rows.length ? offset + 1 : 0;
    $("#audit-summary").textContent = `Rows ${first}–${offset + page.rows.length}${page.more ? " (more follow)" : ""}; trail ${page.verified ? "verified" : "NOT verified"}.`;
    $("#audit-body").replaceChildren(...page.rows.map((r) =>
      h("tr", { testid: "audit-row" }, h("td", {}, r.seq ?? r.id ?? ""), h("td", {}, when(r.at)), h("td", {}, r.action),
        h("td", {}, r.user ?? ""), h("td", {}, r.role ?? ""), h("td", {}, r.channel ?? ""), h("td", {}, r.outcome ?? ""))));
    $("#audit-prev").disabled = offset === 0;
    $("#audit-next").disabled = !page.more;
  } catch (e) {
    $("#audit-summary").textContent = `Not loaded: ${e.message}`;
  }
}

async function exportRows() {
  try {
    const { text, rows } = await fetchRows();
    const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })), download: `curbside-audit-${$("#audit-since").value}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
    toast(`Exported ${rows.length} rows.`);
  } catch (e) {
    toast(`Not exported: ${e.message}`);
  }
}

export function installAudit() {
  const today = new Date();
  const weekAgo = new Date(today.getTime() - 7 * 86400e3);
  $("#audit-since").value = weekAgo.toISOString().slice(0, 10);
  $("#verify").addEventListener("click", verify);
  $("#audit-form").addEventListener("submit", (e) => { e.preventDefault(); browse(0); });
  $("#audit-prev").addEventListener("click", () => browse(Math.max(0, offset - PAGE)));
  $("#audit-next").addEventListener("click", () => browse(offset + PAGE));
  $("#audit-export").addEventListener("click", () => { if ($("#audit-form").reportValidity()) exportRows(); });
}
