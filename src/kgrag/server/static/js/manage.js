// The documents view (upload with job progress, list, delete) and the stats view (counts, LLM cost).
import { api, esc } from "./api.js";

const $ = (id) => document.getElementById(id);

export async function loadDocuments() {
  const docs = await api("/documents");
  $("doc-count").textContent = `${docs.length} document${docs.length === 1 ? "" : "s"}`;
  $("documents").innerHTML = docs
    .map((d) => `<tr><td class="mono">${esc(d.path)}</td><td>${esc(d.title)}</td><td>${esc(d.product)}</td>
      <td>${esc(d.version)}</td>${detailCells(d.details || {})}
      <td><button class="danger small-btn" data-doc="${esc(d.doc_id)}" data-path="${esc(d.path)}">Delete</button></td></tr>`)
    .join("") || `<tr><td colspan="10" class="muted">No documents yet: upload some above.</td></tr>`;
}

// What a document yielded at ingest time: pages, chunks, OCR'd pages (mean confidence), tables, warnings.
function detailCells(x) {
  const n = (v) => (v === null || v === undefined ? "–" : esc(String(v)));
  const ocr = x.ocr_pages ? `${x.ocr_pages}${x.ocr_confidence != null ? ` <span class="muted small">(${Number(x.ocr_confidence).toFixed(2)})</span>` : ""}` : "0";
  const warnings = (x.warnings || []).map((w) => `<div class="small warn">${esc(w)}</div>`).join("");
  return `<td>${n(x.pages)}</td><td>${n(x.chunks)}</td><td class="ocr">${ocr}</td><td>${n(x.tables)}</td><td class="warnings">${warnings}</td>`;
}

function jobLine(job) {
  const pct = Math.round((job.progress || 0) * 100);
  const report = job.report && job.status === "done"
    ? ` · added ${job.report.added}, replaced ${job.report.replaced}, unchanged ${job.report.unchanged}, ${job.report.chunks} chunks`
      + (job.report.stages ? ` · stages: ${esc(job.report.stages.join(", "))}` : "")
      + (job.report.errors?.length ? ` · ${job.report.errors.map((e) => `${esc(e.path)}: ${esc(e.reason)}`).join("; ")}` : "")
    : "";
  return `<li class="job ${job.status}" id="job-${job.job_id}"><div><b>${esc(job.files.join(", "))}</b>
    <span class="muted small">${job.status}${job.step ? ` · ${esc(job.step)}` : ""}${report}${job.error ? ` · ${esc(job.error)}` : ""}</span></div>
    <progress max="100" value="${pct}"></progress></li>`;
}

async function follow(jobId) {
  for (;;) {
    const job = await api(`/jobs/${jobId}`);
    const line = $(`job-${jobId}`);
    if (line) line.outerHTML = jobLine(job);
    if (job.status === "done" || job.status === "failed") return loadDocuments();
    await new Promise((r) => setTimeout(r, 700));
  }
}

async function upload(event) {
  event.preventDefault();
  const files = $("files").files;
  if (!files.length) return;
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  form.append("replace", $("replace").checked ? "true" : "false");
  if ($("run-stages").checked) form.append("stages", "default");
  try {
    const result = await api("/documents", { method: "POST", form });
    $("jobs").insertAdjacentHTML("afterbegin", jobLine(result.job));
    for (const r of result.rejected) $("jobs").insertAdjacentHTML("afterbegin", `<li class="job failed">${esc(r)}</li>`);
    $("upload-form").reset();
    follow(result.job_id);
  } catch (err) {
    $("jobs").insertAdjacentHTML("afterbegin", `<li class="job failed">${esc(err.message)}</li>`);
  }
}

async function remove(button) {
  if (!confirm(`Delete ${button.dataset.path} and everything derived only from it?`)) return;
  button.disabled = true;
  try {
    await api(`/documents/${encodeURIComponent(button.dataset.doc)}`, { method: "DELETE" });
  } catch (err) {
    alert(err.message);
  }
  loadDocuments();
}

export async function loadStats() {
  const s = await api("/stats");
  $("counts").innerHTML = Object.entries(s.counts)
    .map(([name, n]) => `<div class="count card"><div class="n">${n.toLocaleString()}</div><div class="muted">${esc(name)}</div></div>`)
    .join("");
  const row = (u) => `<td>${u.calls}</td><td>${u.prompt_tokens.toLocaleString()}</td><td>${u.completion_tokens.toLocaleString()}</td>
    <td>${Number(u.seconds).toFixed(1)}</td><td>$${Number(u.usd).toFixed(4)}</td>`;
  $("usage").innerHTML = s.llm_usage.map((u) => `<tr><td>${esc(u.stage)}</td><td>${esc(u.model)}</td>${row(u)}</tr>`).join("")
    + `<tr class="total"><td>total</td><td></td>${row(s.llm_totals)}</tr>`;
  const notes = [`index ${s.index}`];
  if (s.failures) notes.push(`${s.failures} failed items (see \`kgrag status\`)`);
  if (s.derived_stale) notes.push("documents changed since the graph was built: run `kgrag index` to update it");
  $("stats-note").textContent = notes.join(" · ");
}

export function initManage() {
  $("upload-form").addEventListener("submit", upload);
  $("documents").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-doc]");
    if (button) remove(button);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    $("files").files = e.dataTransfer.files;
  });
}
