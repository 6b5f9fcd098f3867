// The page's entry: sign in with an API key, ask GET /v1/me who that is, show the views its role may use.

import { startAdmin, stopAdmin, installAdmin } from "./admin.js";
import { auth, get } from "./api.js";
import { installAudit } from "./audit.js";
import { installConfirmations } from "./confirm.js";
import { installConsult, restoreConversation, sessionId } from "./consult.js";
import { $ } from "./dom.js";
import { setupPatient } from "./patient.js";
import { installSourceKeys } from "./sources.js";

const VIEWS = { consult: "#view-consult", admin: "#view-admin", audit: "#view-audit" };
let me = null;

function show(view, { focus = true } = {}) {
  if (!me) view = "signin";
  else if (!allowed().includes(view)) view = allowed()[0];
  for (const [name, selector] of Object.entries(VIEWS)) $(selector).hidden = name !== view;
  $("#view-signin").hidden = view !== "signin";
  for (const button of document.querySelectorAll("#nav button")) {
    button.hidden = !me || !allowed().includes(button.dataset.view);
    if (button.dataset.view === view) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  document.body.dataset.view = view;
  if (view === "admin") startAdmin(); else stopAdmin();
  if (view !== "signin" && location.hash !== `#${view}`) history.replaceState(null, "", `#${view}`);
  if (focus && view === "consult") $("#message").focus();
  else if (focus && view !== "signin") $("main").focus();
}

function allowed() {
  if (!me) return [];
  const views = [];
  if (me.views.includes("consult")) views.push("consult");
  if (me.views.includes("admin")) views.push("admin");
  if (me.views.includes("audit")) views.push("audit");
  return views;
}

async function signedIn() {
  me = await get("/v1/me");
  $("#who").hidden = false;
  $("#nav").hidden = false;
  $("[data-testid=who]").textContent = `${me.user} · ${me.role}`;
  document.body.dataset.role = me.role;
  if (me.views.includes("consult")) {
    setupPatient(me.ehr, sessionId);
    await restoreConversation();
  }
  show(location.hash.slice(1) || allowed()[0]);
}

function signOut(message = "") {
  auth.clear();
  sessionStorage.clear();
  me = null;
  $("#who").hidden = true;
  $("#nav").hidden = true;
  $("#conversation").replaceChildren();
  delete document.body.dataset.role;
  history.replaceState(null, "", location.pathname);
  show("signin");
  $("#signin-error").textContent = message;
  $("#api-key").focus();
}

function install() {
  installSourceKeys();
  installConfirmations();
  installConsult();
  installAdmin();
  installAudit();
  $("#signin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const key = $("#api-key").value.trim();
    $("#api-key").value = "";
    auth.set(key);
    try {
      await signedIn();
      $("#signin-error").textContent = "";
    } catch (err) {
      auth.clear();
      me = null;
      $("#signin-error").textContent = err.status === 401 ? "That key was not accepted (unknown or revoked)." : err.message;
    }
  });
  $("#sign-out").addEventListener("click", () => signOut());
  for (const button of document.querySelectorAll("#nav button")) button.addEventListener("click", () => show(button.dataset.view));
  window.addEventListener("hashchange", () => show(location.hash.slice(1), { focus: false }));
  window.addEventListener("curbside:unauthenticated", () => { if (me) signOut("Your key is no longer accepted; sign in again."); });
  if (auth.key) signedIn().catch(() => signOut("Sign in again."));
  else show("signin");
}

install();
