"""Predicting an LLM graph build before spending anything: tokens, calls, time and USD.

tokens per chunk = prompt template tokens + chunk tokens + expected output; output and speed come from
this index's recorded `extract` usage when there is some, else from defaults measured on our machines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgrag.errors import KgragError
from kgrag.graph.build import STAGE, select_chunks
from kgrag.graph.extract_llm import MAX_OUTPUT_TOKENS, LLMExtractor, load_schema
from kgrag.graph.prompts import GLEANING_PROMPT
from kgrag.models.usage import UsageLedger
from kgrag.tokens import count_tokens

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

MODES = {"llm": "triples", "llm-typed": "typed", "llm-paths": "paths"}
# Defaults until this index has its own history (tokens per second; local = Qwen2.5-0.5B, 1 thread).
DEFAULT_SPEED = {"local": (120.0, 12.0), "openai": (2000.0, 60.0), "fake": (1e6, 1e6)}
OUTPUT_BASE, OUTPUT_PER_INPUT = 60, 0.9  # expected answer tokens = base + ratio * chunk tokens (capped)
MIN_HISTORY_CALLS = 3


def _history(index: Workspace) -> dict[str, float] | None:
    """Recorded extraction usage of this index: output tokens per call and speeds, if there is enough."""
    rows = [r for r in index.store.usage() if r["stage"] == "extract"]
    calls = sum(r["calls"] for r in rows)
    if calls < MIN_HISTORY_CALLS:
        return None
    prompt = sum(r["prompt_tokens"] for r in rows)
    completion = sum(r["completion_tokens"] for r in rows)
    seconds = sum(r["seconds"] for r in rows) or 1e-9
    return {"output_per_call": completion / calls, "tokens_per_second": (prompt + completion) / seconds}


def estimate_build(index: Workspace, extractor: str = "llm", *, budget: float | None = None,
                   types: str | None = None) -> dict[str, Any]:
    """The predicted cost of `graph build` with `extractor` over the chunks not yet extracted."""
    if extractor not in MODES:
        if extractor == "rules":
            return {"extractor": extractor, "chunks": 0, "calls": 0, "total_tokens": 0, "seconds": 0.0, "usd": 0.0,
                    "note": "the rules extractor uses no LLM"}
        raise KgragError(f"cannot estimate extractor {extractor!r}; choose one of {sorted(MODES)}")
    schema = load_schema(index.store) or {}
    entity_types = [t.strip() for t in types.split(",")] if types else schema.get("entity_types") or []
    template = LLMExtractor(None, MODES[extractor], entity_types=entity_types,  # type: ignore[arg-type]
                            relation_types=schema.get("relation_types") or [])
    overhead = template.prompt_overhead_tokens()
    prefix = f"{extractor}:"
    done = {k[len(prefix):] for k in index.store.done_keys(STAGE) if k.startswith(prefix)}
    todo = [cid for cid in select_chunks(index, budget) if cid not in done]
    history = _history(index)
    rounds = 1 + index.settings.graph.gleaning_rounds
    prompt_tokens = completion_tokens = calls = 0
    for chunk in index.store.get_chunks(todo):
        if not chunk.text.strip():
            continue
        chunk_tokens = chunk.tokens or count_tokens(chunk.text)
        output = (history["output_per_call"] if history else
                  min(MAX_OUTPUT_TOKENS, OUTPUT_BASE + OUTPUT_PER_INPUT * chunk_tokens))
        prompt = overhead + chunk_tokens
        for r in range(rounds):  # a gleaning round re-sends the conversation so far
            prompt_tokens += int(prompt)
            completion_tokens += int(output if r == 0 else output / 3)
            prompt += output + count_tokens(GLEANING_PROMPT) + 8
            calls += 1
    if extractor == "llm-typed" and not entity_types:
        calls += 1  # schema induction, once
        prompt_tokens += 900
        completion_tokens += 150
    settings = index.settings.llm
    model = settings.model
    if history:
        seconds = (prompt_tokens + completion_tokens) / history["tokens_per_second"]
    else:
        pps, gps = DEFAULT_SPEED.get(settings.provider, DEFAULT_SPEED["openai"])
        seconds = prompt_tokens / pps + completion_tokens / gps
    usd = UsageLedger(index.settings.prices).price(model, prompt_tokens, completion_tokens)
    n = len(todo)
    return {
        "extractor": extractor,
        "model": f"{settings.provider}:{model}",
        "chunks": n,
        "already_done": len(done),
        "calls": calls,
        "prompt_template_tokens": overhead,
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        "tokens_per_chunk": round((prompt_tokens + completion_tokens) / n, 1) if n else 0.0,
        "seconds": round(seconds, 1),
        "usd": round(usd, 4),
        "basis": "this index's extraction history" if history else "defaults (no extraction history yet)",
    }
