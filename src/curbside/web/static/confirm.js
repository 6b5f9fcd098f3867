// A write the turn proposed waits for the clinician: a dialog with the change in words, approve or
// deny (POST /v1/confirmations/{id}), and its expiry; the outcome goes in the timeline.

import { post } from "./api.js";
import { $ } from "./dom.js";
import { addNote } from "./timeline.js";

const queue = [];
const seen = new Set();
let current = null;
let ticker = null;

export function propose(info) {
  if (!info || !info.id || seen.has(info.id)) return;
  seen.add(info.id);
  queue.push(info);
  if (!current) next();
}

function next() {
  const dialog = $("#confirm-dialog");
  current = queue.shift() || null;
  clearInterval(ticker);
  if (!current) {
    if (dialog.open) dialog.close();
    return;
  }
  $("#confirm-tool").textContent = `Tool: ${current.tool}`;
  $("#confirm-summary").textContent = current.summary;
  $("#confirm-error").textContent = "";
  setButtons(false);
  tick();
  ticker = setInterval(tick, 1000);
  if (!dialog.open) dialog.showModal();
  $("#confirm-deny").focus();
}

function tick() {
  if (!current) return;
  const left = Math.round((new Date(current.expires_at).getTime() - Date.now()) / 1000);
  if (left <= 0) {
    addNote("confirmation", `${current.summary}: not answered in time, so it was not done`, "expired");
    next();
    return;
  }
  $("#confirm-expiry").textContent = `Expires in ${left} s (at ${new Date(current.expires_at).toLocaleTimeString()}); unanswered means denied.`;
}

function setButtons(disabled) {
  $("#confirm-approve").disabled = disabled;
  $("#confirm-deny").disabled = disabled;
}

async function decide(decision) {
  if (!current) return;
  setButtons(true);
  try {
    const result = await post(`/v1/confirmations/${encodeURIComponent(current.id)}`, { decision }, { ok: [403, 409, 422, 500, 504] });
    const outcome = decision === "approve" ? (result.status === "ok" ? "approved" : result.error?.code || result.status) : "denied";
    const written = result.status === "ok" && result.result ? result.result.summary || result.result.reference : "";
    addNote("confirmation", written || current.summary, outcome);
    next();
  } catch (e) {
    $("#confirm-error").textContent = e.message;
    setButtons(false);
  }
}

export function installConfirmations() {
  $("#confirm-approve").addEventListener("click", () => decide("approve"));
  $("#confirm-deny").addEventListener("click", () => decide("deny"));
  // Escape must not drop a proposed write silently: it counts as "deny", said in the timeline
  $("#confirm-dialog").addEventListener("cancel", (e) => { e.preventDefault(); decide("deny"); });
}
