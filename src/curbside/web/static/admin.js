// Administration (admin role): upload documents (drag and drop, several at once), watch the jobs,
// retry failed ones, remove documents, and see the index, the models and the coverage editions.

import { del, get, request } from "./api.js";
import { $, h, toast, when } from "./dom.js";

let timer = null;

export function startAdmin() {
  refresh();
  clearInterval(timer);
  timer = setInterval(() => { if (!$("#view-admin").hidden) refreshJobs(); }, 1500);
}

export function stopAdmin() {
  clearInterval(timer);
  timer = null;
}

async function refresh() {
  await Promise.all([refreshJobs(), refreshDocuments(), refreshStatus()]).catch((e) => toast(e.message));
}

async function refreshStatus() {
  const s = await get("/v1/status");
  const jobs = Object.entries(s.jobs).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ") || "none";
  const rows = [
    ["Documents", s.documents], ["Chunks", s.chunks], ["Search model", s.embedder],
    ["Index built with", s.indexed_model || "(nothing indexed yet)"], ["Answers", s.llm], ["Jobs", jobs],
  ];
  $("#index-status").replaceChildren(...rows.map(([k, v]) => [h("dt", {}, k), h("dd", { testid: `status-${k.toLowerCase().replace(/\s+/g, "-")}` }, String(v))]).flat());
  $("#coverage-status").replaceChildren(
    ...s.coverage.map((c) => h("li", { testid: `coverage-${c.source}` },
      h("strong", {}, c.source.toUpperCase()), ": ",
      c.loaded ? coverageText(c) : `not loaded — ${c.hint || ""}`)),
  );
}

function coverageText(c) {
  const date = c.formulary_date || c.effective || c.published;
  return `edition ${c.edition}${date ? ` (${date})` : ""}${c.loaded_at ? `, loaded ${when(c.loaded_at)}` : ""}`;
}

let lastStates = "";

async function refreshJobs() {
  const { jobs } = await get("/v1/jobs?limit=50");
  const states = jobs.map((j) => `${j.id}:${j.state}:${j.processed_chunks}:${j.retry_count}:${j.updated_at}`).join("|");
  if (states === lastStates) return;
  const finished = lastStates && jobs.some((j) => j.state === "completed" && !lastStates.includes(`${j.id}:completed`));
  lastStates = states;
  $("#jobs-body").replaceChildren(...jobs.map(jobRow));
  if (finished) { refreshDocuments(); refreshStatus(); }
}

function jobRow(job) {
  const total = job.total_chunks || 0;
  const progress = job.state === "completed" ? h("span", {}, `${job.processed_chunks} chunks`)
    : total ? h("progress", { max: total, value: job.processed_chunks, "aria-label": `Job ${job.id} progress` }, `${job.processed_chunks}/${total}`)
    : h("span", { class: "muted" }, job.state === "running" ? "reading…" : "—");
  let action = null;
  if (job.state === "failed") {
    action = h("button", { type: "button", testid: `retry-${job.id}` }, "Retry");
    action.addEventListener("click", async () => {
      try { await request("POST", `/v1/jobs/${job.id}/retry`); toast(`Job ${job.id} queued again.`); refreshJobs(); }
      catch (e) { toast(`Not retried: ${e.message}`); }
    });
  } else if (job.state === "pending" || job.state === "running") {
    // a pending job fails at once (CANCELLED); a running one stops at its next step: either can be retried
    action = h("button", { type: "button", testid: `cancel-${job.id}` }, "Cancel");
    action.addEventListener("click", async () => {
      try { await request("POST", `/v1/jobs/${job.id}/cancel`); toast(`Job ${job.id} cancelled.`); refreshJobs(); }
      catch (e) { toast(`Not cancelled: ${e.message}`); }
    });
  }
  return h("tr", { testid: `job-${job.id}`, "data-state": job.state, "data-doc": job.doc_key },
    h("td", {}, `#${job.id}`), h("td", {}, job.doc_key, h("div", { class: "muted" }, job.original_name)),
    h("td", { class: `state-${job.state}`, testid: "job-state" }, job.state + (job.retry_count ? ` (retry ${job.retry_count}/${job.max_retries})` : "")),
    h("td", {}, progress), h("td", { class: "error-cell" }, job.error_message || ""), h("td", {}, action));
}

async function refreshDocuments() {
  const { documents } = await get("/v1/documents");
  $("#documents-body").replaceChildren(...documents.map((d) => {
    const remove = h("button", { type: "button", class: "danger", testid: `remove-${d.doc_key}`, "aria-label": `Remove ${d.title}` }, "Remove");
    remove.addEventListener("click", async () => {
      try { await del(`/v1/documents/${encodeURIComponent(d.doc_key)}`); toast(`${d.doc_key} removed from search.`); refresh(); }
      catch (e) { toast(`Not removed: ${e.message}`); }
    });
    return h("tr", { testid: `document-${d.doc_key}` }, h("td", {}, d.doc_key), h("td", {}, d.title), h("td", {}, `v${d.version}`), h("td", {}, d.chunks), h("td", {}, remove));
  }));
}

async function upload(files) {
  for (const file of files) {
    const line = h("li", { testid: "upload-item" }, `${file.name}: sending…`);
    $("#uploads").prepend(line);
    const form = new FormData();
    form.append("file", file, file.name);
    try {
      const r = await request("POST", "/v1/documents", { form });
      line.textContent = `${file.name}: ${r.status === "queued" ? `queued as job #${r.job_id}` : r.message}`;
    } catch (e) {
      line.textContent = `${file.name}: refused — ${e.message}`;
      line.classList.add("error");
    }
  }
  refreshJobs();
}

export function installAdmin() {
  const zone = $("#dropzone");
  const input = $("#files");
  input.addEventListener("change", () => { upload([...input.files]); input.value = ""; });
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => { e.preventDefault(); zone.classList.remove("over"); upload([...e.dataTransfer.files]); });
  $("#refresh-jobs").addEventListener("click", () => { lastStates = ""; refresh(); });
}
