// The consult: the message box, the streamed answer, and the conversation kept across reloads
// (its id in sessionStorage, its messages from GET /v1/sessions/{id}).

import { ApiError, del, get, stream } from "./api.js";
import { AnswerView } from "./answer.js";
import { propose } from "./confirm.js";
import { $, h, toast } from "./dom.js";
import { patient, renderPatient } from "./patient.js";
import { closePanel, openPopover } from "./sources.js";
import { addStep, resetTimeline, setBadges, setCards } from "./timeline.js";

const SESSION = "curbside.session";
let busy = false;

export function sessionId() {
  let id = sessionStorage.getItem(SESSION);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = "s_" + btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    sessionStorage.setItem(SESSION, id);
  }
  return id;
}

function addMessage(role, content) {
  const item = h("li", { class: `msg ${role}`, testid: `msg-${role}` }, h("div", { class: "who-said" }, role === "user" ? "You" : "Curbside"), content);
  $("#conversation").append(item);
  return item;
}

function answerView() {
  return new AnswerView({ onMarker: (citation, button, sentence) => openPopover(citation, button, sentence) });
}

export function warningsOf(result) {
  const out = [...(result.warnings || [])];
  if (result.confidence_level === "low") out.push("Low confidence: the sources found were weak; check the passages before acting on this.");
  const kb = (result.facts || []).find((f) => f.tool === "kb.ask");
  const status = kb?.values?.status;
  if (status === "no_source") out.push("No source in the knowledge base was relevant enough; nothing was guessed.");
  if (status === "degraded") out.push("Degraded: a part failed and the answer is extractive (the sources' own sentences).");
  if (result.status === "partial") out.push("Partial answer: some parts failed (see the warnings and the timeline).");
  if (result.status === "cannot") out.push("Curbside cannot answer this.");
  return out;
}

async function ask(message) {
  busy = true;
  $("#send").disabled = true;
  $("#turn-state").textContent = "Working…";
  resetTimeline();
  closePanel();
  addMessage("user", h("div", { class: "answer" }, message));
  const view = answerView();
  const item = addMessage("assistant", view.node);
  item.setAttribute("aria-busy", "true");
  let final = null;
  const body = { message, session_id: sessionId() };
  if (patient.current) body.patient_id = patient.current.id;
  // marks a benchmark (or the browser's performance panel) reads: the first event and token of the turn
  performance.clearMarks();
  performance.mark("turn-sent");
  let first = true;
  try {
    await stream("/v1/turns", body, (event, data) => {
      if (first) { performance.mark("turn-first-event"); first = false; }
      if (event === "token" && !performance.getEntriesByName("turn-first-token").length) performance.mark("turn-first-token");
      if (event === "step") addStep(data);
      else if (event === "source") view.addSource(data);
      else if (event === "token") view.addText(data.text || "");
      else if (event === "retract") view.retract();
      else if (event === "confirmation") propose(data);
      else if (event === "final") final = data;
      else if (event === "error") throw new ApiError(500, data.code, data.message);
    });
    if (!final) throw new ApiError(0, "NO_RESULT", "The turn ended without a result; try again.");
    performance.mark("turn-final");
    view.finish(final);
    if (final.clarifying_question && !final.final_response) view.addText(final.clarifying_question);
    view.warn(warningsOf(final));
    setBadges(final);
    setCards(final);
    for (const write of final.proposed_writes || []) if (write.outcome === "waiting") propose(write.confirmation);
    $("#turn-state").textContent = `Answered (${final.status}).`;
  } catch (e) {
    view.warn([`${e.code ? e.code + ": " : ""}${e.message}`]);
    $("#turn-state").textContent = "The turn failed.";
  } finally {
    item.removeAttribute("aria-busy");
    busy = false;
    $("#send").disabled = false;
  }
}

export async function restoreConversation() {
  $("#conversation").replaceChildren();
  resetTimeline();
  const id = sessionStorage.getItem(SESSION);
  if (!id) return;
  try {
    const session = await get(`/v1/sessions/${encodeURIComponent(id)}`);
    for (const m of session.messages) {
      if (m.role === "user") addMessage("user", h("div", { class: "answer" }, m.text));
      else {
        const view = answerView();
        for (const c of m.payload?.sources || []) view.addSource(c);
        addMessage("assistant", view.node);
        view.addText(m.text, { streaming: false });
        view.finish({ final_response: m.text, sources_used: m.payload?.sources || [] });
      }
    }
    if (session.patient_id && (!patient.current || patient.current.id !== session.patient_id)) {
      patient.current = { id: session.patient_id };
      renderPatient();
    }
  } catch (e) {
    if (e.status !== 404) toast(`The conversation could not be loaded: ${e.message}`);
  }
}

function newConversation() {
  sessionStorage.removeItem(SESSION);
  patient.current = null;
  renderPatient();
  $("#conversation").replaceChildren();
  resetTimeline();
  closePanel();
  $("#turn-state").textContent = "New conversation.";
  $("#message").focus();
}

export function installConsult() {
  $("#composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("#message").value.trim();
    if (!text || busy) return;
    $("#message").value = "";
    ask(text);
  });
  $("#message").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) $("#composer").requestSubmit();
  });
  $("#new-conversation").addEventListener("click", newConversation);
  $("#purge-conversation").addEventListener("click", async () => {
    const id = sessionStorage.getItem(SESSION);
    try {
      if (id) await del(`/v1/sessions/${encodeURIComponent(id)}`);
      newConversation();
      toast("The conversation was purged from the server.");
    } catch (e) {
      toast(`Not purged: ${e.message}`);
    }
  });
}
