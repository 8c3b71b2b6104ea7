// The question box: streams the answer, turns [n] markers into buttons that open the cited passage.
import { api, esc, stream } from "./api.js";
import { showSubgraph } from "./graph.js";

const CITE = /\[(\d+(?:\s*[,;]\s*\d+)*)\]/g;
const state = { blocks: [], citations: [], text: "" };
const $ = (id) => document.getElementById(id);

export async function loadStrategies() {
  const select = $("strategy");
  const list = await api("/strategies");
  select.innerHTML = list
    .map((s) => `<option value="${esc(s.name)}" ${s.default ? "selected" : ""} title="${esc(s.description)}">${esc(s.name)}</option>`)
    .join("");
  const describe = () => { $("strategy-doc").textContent = list.find((s) => s.name === select.value)?.description || ""; };
  select.onchange = describe;
  describe();
}

function renderAnswer() {
  const html = esc(state.text).replace(CITE, (_, group) =>
    group.split(/\s*[,;]\s*/).map((n) => `<button type="button" class="cite" data-n="${n}">[${n}]</button>`).join(""));
  $("answer").innerHTML = html.replace(/\n/g, "<br>");
}

function renderSources() {
  $("sources-card").hidden = !state.blocks.length;
  $("sources").innerHTML = state.blocks
    .map((b) => `<li id="source-${b.n}"><button type="button" class="cite" data-n="${b.n}">[${b.n}]</button>
      <span class="src-head">${esc(b.header)}</span><div class="src-text">${esc(b.text)}</div></li>`)
    .join("");
}

// Mark the quoted sentence inside the passage (the quote's whitespace may differ from the passage's).
function highlight(text, quote) {
  const words = (quote || "").trim().split(/\s+/).filter(Boolean).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const match = words.length ? new RegExp(words.join("\\s+")).exec(text) : null;
  if (!match) return esc(text);
  const end = match.index + match[0].length;
  return `${esc(text.slice(0, match.index))}<mark>${esc(match[0])}</mark>${esc(text.slice(end))}`;
}

export function openPassage(n) {
  const block = state.blocks.find((b) => b.n === n);
  const cite = state.citations.find((c) => c.n === n);
  const box = $("passage");
  if (!block && !cite) return;
  const where = cite
    ? [cite.title || cite.document, cite.page ? `p. ${cite.page}` : "", cite.section].filter(Boolean).join(" · ")
    : block.header;
  box.innerHTML = `
    <div class="passage-head"><b>[${n}]</b> ${esc(where)}
      <button type="button" class="close" aria-label="Close">×</button></div>
    ${cite ? `<div class="muted small">${esc(cite.document)}${cite.version ? ` · version ${esc(cite.version)}` : ""}</div>` : ""}
    ${cite && cite.quote ? `<blockquote class="quote">${esc(cite.quote)}</blockquote>` : ""}
    <div class="passage-text">${highlight(block ? block.text : "", cite?.quote)}</div>`;
  box.hidden = false;
  box.querySelector(".close").onclick = () => { box.hidden = true; };
  document.querySelectorAll("#sources li").forEach((li) => li.classList.toggle("active", li.id === `source-${n}`));
}

function meta(done) {
  const t = done.timings || {};
  const tok = done.tokens || {};
  const parts = [`strategy ${done.context?.strategy ?? ""}`, `context ${tok.context ?? "?"}/${tok.budget ?? "?"} tokens`];
  if (t.retrieve_s !== undefined) parts.push(`retrieval ${(t.retrieve_s * 1000).toFixed(0)} ms`);
  if (t.generate_s !== undefined) parts.push(`generation ${(t.generate_s * 1000).toFixed(0)} ms`);
  if (t.first_token_s) parts.push(`first token ${(t.first_token_s * 1000).toFixed(0)} ms`);
  const path = done.context?.info?.answer_path;
  if (path) parts.push({ extractive: "quoted from the documents", quotes: "best passages", focused: "LLM over the focused context", full: "LLM over the full context" }[path] || path);
  if (!done.grounded) parts.push("not found in the documents");
  return parts.join(" · ");
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  const button = $("ask-btn");
  button.disabled = true;
  Object.assign(state, { blocks: [], citations: [], text: "" });
  $("answer-card").hidden = false;
  $("passage").hidden = true;
  $("answer").innerHTML = "";
  $("answer-meta").textContent = "";
  $("answer-status").textContent = "retrieving…";
  const body = { question, strategy: $("strategy").value || null };
  const budget = parseInt($("budget").value, 10);
  if (budget) body.budget = budget;
  try {
    await stream("/ask/stream", body, (name, data) => {
      if (name === "sources") {
        state.blocks = data.blocks;
        renderSources();
        showSubgraph(data.subgraph);
        $("answer-status").textContent = "answering…";
      } else if (name === "token") {
        state.text += data;
        renderAnswer();
      } else if (name === "done") {
        state.text = data.answer; // the final text: inline [n] markers added where the model left them out
        state.citations = data.citations;
        renderAnswer();
        $("answer-meta").textContent = meta(data);
        $("answer-status").textContent = `${data.citations.length} citation${data.citations.length === 1 ? "" : "s"}`;
        $("answer").dataset.done = "1";
      } else if (name === "error") {
        throw new Error(data.detail);
      }
    });
  } catch (err) {
    $("answer-status").textContent = "";
    $("answer").innerHTML = `<span class="error">${esc(err.message)}</span>`;
  } finally {
    button.disabled = false;
  }
}

export function initAsk() {
  $("ask-form").addEventListener("submit", ask);
  $("question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("ask-form").requestSubmit(); }
  });
  document.addEventListener("click", (e) => {
    const cite = e.target.closest("button.cite");
    if (cite) openPassage(parseInt(cite.dataset.n, 10));
  });
}
