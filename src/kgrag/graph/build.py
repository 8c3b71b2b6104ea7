"""Building the graph: pick chunks (all, or a core share beta), extract, merge, embed entities; resumable.

Progress is recorded per chunk under stage `graph` as `<extractor>:<chunk_id>`; failed chunks are recorded
with their reason and retried on the next run. A token cap stops the run cleanly with a usable partial graph.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.errors import BudgetExceeded, KgragError, LLMOutputError, ModelError
from kgrag.graph.extract import Extractor
from kgrag.graph.extractors import make_extractor
from kgrag.graph.merge import active_redirects, summarize_long_descriptions, write_extraction
from kgrag.progress import NullProgress, Progress, note

if TYPE_CHECKING:
    from kgrag.store.base import Store
    from kgrag.workspace import Workspace

STAGE = "graph"
BATCH = 64
VERSION_KEY = "graph:version:{}"  # the version of the rule-based extractor that built the graph
MAX_CONSECUTIVE_MODEL_ERRORS = 3  # an LLM server that is down: stop instead of failing every chunk


@dataclass
class BuildReport:
    """What one `graph build` run did."""

    extractor: str
    chunks_total: int = 0
    selected: int = 0
    already_done: int = 0
    processed: int = 0
    failed: int = 0
    empty: int = 0
    entities: int = 0
    relations: int = 0
    dropped: int = 0  # LLM items rejected by validation
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    stopped: str = ""  # "budget" or "llm-unavailable" when the run ended early
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def select_chunks(index: Workspace, budget: float | None, method: str | None = None, seed: int | None = None) -> list[str]:
    """All chunk ids, or the core share `budget` of them chosen by KET-RAG's core selection."""
    ids = index.store.chunk_ids()
    if budget is None or budget >= 1.0:
        return ids
    from kgrag.graph.core import select_core_chunks

    settings = index.settings.graph
    return select_core_chunks(index, budget, method=method or settings.core_selection,
                              seed=settings.seed if seed is None else seed)


def _run_llm(extractor: Extractor, cap: int | None) -> Any:
    """Wrap the extractor's LLM in a per-run accounting layer that counts this run and enforces `cap`."""
    from kgrag.models.layers import AccountingLLM
    from kgrag.models.usage import UsageLedger

    ledger = UsageLedger()
    extractor.llm = AccountingLLM(extractor.llm, ledger, max_tokens_total=int(cap or 0))  # type: ignore[attr-defined]
    return ledger


def build_graph(
    index: Workspace,
    extractor: str | None = None,
    *,
    budget: float | None = None,
    max_llm_tokens: float | None = None,
    types: str | None = None,
    llm: Any = None,
    method: str | None = None,
    embed: bool = True,
    progress: Progress | None = None,
) -> BuildReport:
    """Extract and merge the graph from the index's chunks; raises BudgetExceeded after saving partial work."""
    name = extractor or index.settings.graph.extractor
    store = index.store
    ex = make_extractor(name, index, llm=llm, types=types)
    report = BuildReport(name)
    extractor_note = getattr(ex, "note", "")
    if extractor_note:
        report.notes.append(extractor_note)
    selected = select_chunks(index, budget, method)
    report.chunks_total, report.selected = len(store.chunk_ids()), len(selected)
    prefix = f"{name}:"
    reread = reread_if_changed(store, ex, prefix)
    if reread:  # `kgrag index` says why its graph stage reads every chunk again
        report.notes.append(reread)
        note(progress, reread)
    done = {k[len(prefix):] for k in store.done_keys(STAGE) if k.startswith(prefix)}
    todo = [cid for cid in selected if cid not in done]
    report.already_done = len(selected) - len(todo)
    ledger = _run_llm(ex, int(max_llm_tokens) if max_llm_tokens else None) if ex.uses_llm else None
    if ex.uses_llm:
        ex.previous_failures = {  # type: ignore[attr-defined]
            f["item"][len(prefix):]: f["reason"] for f in store.failures(STAGE) if f["item"].startswith(prefix)
        }
    redirects = active_redirects(store)
    touched: set[str] = set()
    task = (progress or NullProgress()).task(f"graph ({name})", len(todo))
    start = time.perf_counter()
    try:
        _extract_all(store, ex, todo, prefix, redirects, touched, report, task)
    except BudgetExceeded as exc:
        report.stopped = "budget"
        report.notes.append(str(exc))
    finally:
        report.seconds = time.perf_counter() - start
        if ledger is not None:
            totals = ledger.totals()
            report.llm_calls = totals.calls
            report.prompt_tokens, report.completion_tokens = totals.prompt_tokens, totals.completion_tokens
    _finalize(index, ex, touched, report, embed)
    if report.stopped == "budget":
        exc = BudgetExceeded(
            f"graph build stopped at the LLM token cap after {report.processed} of {len(todo)} chunks "
            f"({report.prompt_tokens + report.completion_tokens} tokens); the partial graph is saved, "
            "run the same command again (with a higher --max-llm-tokens) to continue"
        )
        exc.report = report  # type: ignore[attr-defined]
        raise exc
    return report


def reread_if_changed(store: Store, ex: Extractor, prefix: str) -> str:
    """A rule-based extractor that reads chunks differently since it built this graph reads them all again: the
    old graph is dropped when this extractor is its only source; an LLM extractor's paid work is never dropped.
    Returns what was done ("" when the graph is the extractor's current reading)."""
    if ex.uses_llm:
        return ""
    key = VERSION_KEY.format(ex.name)
    keys = store.done_keys(STAGE) | {f["item"] for f in store.failures(STAGE)}
    ours = {k for k in keys if k.startswith(prefix)}
    stored = store.get_meta(key)
    built = stored or "1"  # graphs built before extractors had versions
    message = ""
    if ours and built != ex.version:
        if ours != keys:
            return (f"the {ex.name} extractor changed (version {built} -> {ex.version}), but other extractors built "
                    "this graph too: build a new index to read every chunk again")
        with store.transaction():
            store.delete_entities([e.entity_id for e in store.iter_entities()])
            store.delete_relations([r.relation_id for r in store.iter_relations()])  # any left without entities
            store.clear_merges()
            store.clear_progress(STAGE, sorted(ours))
        message = f"every chunk read again: the {ex.name} extractor changed (version {built} -> {ex.version})"
    if stored != ex.version:
        store.set_meta(key, ex.version)
    return message


def _extract_all(store: Store, ex: Extractor, todo: list[str], prefix: str, redirects: dict[str, str],
                 touched: set[str], report: BuildReport, task: Any) -> None:
    """Extract batch by batch; each chunk's graph rows and its progress mark commit together."""
    consecutive_errors = 0
    for offset in range(0, len(todo), BATCH):
        chunks = store.get_chunks(todo[offset : offset + BATCH])
        for chunk, result in ex.extract_many(chunks):
            key = prefix + chunk.chunk_id
            if isinstance(result, Exception):
                if not isinstance(result, KgragError):
                    raise result
                report.failed += 1
                store.mark_failed(STAGE, key, str(result)[:500])
                consecutive_errors = 0 if isinstance(result, LLMOutputError) else consecutive_errors + 1
                if consecutive_errors >= MAX_CONSECUTIVE_MODEL_ERRORS and isinstance(result, ModelError):
                    report.stopped = "llm-unavailable"
                    raise ModelError(f"graph build stopped: the LLM failed {consecutive_errors} times in a row "
                                     f"({result}); finished chunks are saved, run again to continue")
                task.advance(1, failed=report.failed)
                continue
            consecutive_errors = 0
            with store.transaction():
                touched |= write_extraction(store, chunk.chunk_id, result, redirects)
                store.mark_done(STAGE, [key], "empty" if result.is_empty() else "")
            report.processed += 1
            report.empty += result.is_empty()
            report.entities += len(result.entities)
            report.relations += len(result.relations)
            report.dropped += result.dropped
            task.advance(1, entities=report.entities, failed=report.failed)


def _finalize(index: Workspace, ex: Extractor, touched: set[str], report: BuildReport, embed: bool) -> None:
    """Summarize over-long descriptions (LLM extractors) and embed the touched entities."""
    llm = getattr(ex, "llm", None) if report.stopped != "budget" else None
    long_ids = set(touched)
    if report.already_done:  # an interrupted run may have merged descriptions it never got to shorten
        long_ids |= {e.entity_id for e in index.store.iter_entities()}
    try:
        summarize_long_descriptions(index.store, llm, long_ids)
    except BudgetExceeded as exc:
        report.notes.append(f"description summaries skipped: {exc}")
        summarize_long_descriptions(index.store, None, long_ids)
    if embed:
        embed_entities(index, touched)


def entity_head(name: str, etype: str) -> str:
    """The short text embedded for an entity's name: "name (type)"."""
    return f"{name} ({etype})" if etype else name


def embed_entities(index: Workspace, entity_ids: set[str] | None = None, batch: int = 1024) -> int:
    """Store 'entity' vectors for `entity_ids` plus every entity that has none yet; returns how many.

    An entity's vector is its embedded short name ("name (type)") plus the mean of the already stored
    sentence vectors of the sentences that mention it (entity_context): no long new text is embedded.
    """
    from kgrag.graph.entity_vectors import combine, entity_context

    store = index.store
    all_ids = [e.entity_id for e in store.iter_entities()]
    if not all_ids:
        return 0
    have = store.get_vectors("entity", all_ids)
    missing = {eid for eid, row in zip(all_ids, have, strict=True) if not row.any()} if len(have) else set(all_ids)
    wanted = sorted((set(entity_ids or ()) & set(all_ids)) | missing)
    for start in range(0, len(wanted), batch):
        entities = store.get_entities(wanted[start : start + batch])
        names = index.embedder.embed([entity_head(e.name, e.type) for e in entities])
        context = entity_context(index, entities)
        store.put_vectors("entity", [e.entity_id for e in entities], combine(names, context))
    return len(wanted)
