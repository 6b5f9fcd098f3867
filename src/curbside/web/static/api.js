// The page's only door to the server: the public HTTP API, with the key from sessionStorage.
// The key travels in the Authorization header, never in a URL.

const KEY = "curbside.key";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const auth = {
  get key() { return sessionStorage.getItem(KEY); },
  set(key) { sessionStorage.setItem(KEY, key); },
  clear() { sessionStorage.removeItem(KEY); },
};

function headers(extra = {}) {
  const h = { ...extra };
  if (auth.key) h.Authorization = `Bearer ${auth.key}`;
  return h;
}

async function failure(response) {
  let code = "HTTP_" + response.status;
  let message = `The server answered ${response.status}.`;
  try {
    const body = await response.json();
    if (body && body.error) ({ code, message } = body.error);
    else if (body && body.status && body.error === undefined && body.tool) message = `${body.tool}: ${body.status}`;
  } catch { /* not JSON */ }
  if (response.status === 401) window.dispatchEvent(new CustomEvent("curbside:unauthenticated", { detail: message }));
  return new ApiError(response.status, code, message);
}

// A JSON request; `ok` lists statuses (beyond 2xx) whose JSON body is an answer, not an error.
export async function request(method, path, { json, form, ok = [] } = {}) {
  const init = { method, headers: headers({ Accept: "application/json" }) };
  if (json !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (form !== undefined) {
    init.body = form;
  }
  const response = await fetch(path, init);
  if (!response.ok && !ok.includes(response.status)) throw await failure(response);
  if (response.status === 204) return null;
  return response.json();
}

export const get = (path) => request("GET", path);
export const post = (path, json, opts = {}) => request("POST", path, { json, ...opts });
export const del = (path) => request("DELETE", path);

// The raw response (an export to save as a file).
export async function raw(path) {
  const response = await fetch(path, { headers: headers() });
  if (!response.ok) throw await failure(response);
  return response;
}

// POST with Accept: text/event-stream; calls onEvent(name, data) for each server-sent event.
// A server that answers JSON instead (no streaming) is read as one `final` event.
export async function stream(path, body, onEvent, { signal } = {}) {
  const response = await fetch(path, {
    method: "POST",
    headers: headers({ Accept: "text/event-stream", "Content-Type": "application/json" }),
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await failure(response);
  const type = response.headers.get("content-type") || "";
  if (!type.includes("text/event-stream")) {
    onEvent("final", await response.json());
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      dispatch(block, onEvent);
    }
  }
  if (buffer.trim()) dispatch(buffer, onEvent);
}

function dispatch(block, onEvent) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return;
  let parsed;
  try { parsed = JSON.parse(data.join("\n")); } catch { parsed = data.join("\n"); }
  onEvent(name, parsed);
}
