// API access: adds the X-API-Key header (kept in sessionStorage), asks for the key on 401, parses SSE.
const KEY = "kgrag.apiKey";

export function apiKey() {
  return sessionStorage.getItem(KEY) || "";
}

export function askForKey() {
  const dialog = document.getElementById("key-dialog");
  const input = document.getElementById("key-input");
  input.value = apiKey();
  return new Promise((resolve) => {
    dialog.onclose = () => {
      if (dialog.returnValue === "ok") sessionStorage.setItem(KEY, input.value.trim());
      resolve(dialog.returnValue === "ok");
    };
    dialog.showModal();
  });
}

function headers(extra = {}) {
  const key = apiKey();
  return key ? { ...extra, "X-API-Key": key } : extra;
}

async function send(path, options) {
  let response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (response.status === 401 && (await askForKey())) {
    response = await fetch(path, { ...options, headers: headers(options.headers) });
  }
  return response;
}

export class ApiError extends Error {}

async function detail(response) {
  try {
    const body = await response.json();
    return typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
  } catch {
    return response.statusText;
  }
}

export async function api(path, { method = "GET", json, form } = {}) {
  const options = { method, headers: {} };
  if (json !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(json);
  } else if (form) {
    options.body = form;
  }
  const response = await send(path, options);
  if (!response.ok) throw new ApiError(`${response.status}: ${await detail(response)}`);
  return response.json();
}

// POST a JSON body and call onEvent(name, data) for each server-sent event of the response.
export async function stream(path, json, onEvent) {
  const response = await send(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(json),
  });
  if (!response.ok) throw new ApiError(`${response.status}: ${await detail(response)}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const raw = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message";
      const data = [];
      for (const line of raw.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
