"""One typed Settings object, read from `<index>/kgrag.toml` and `KGRAG_<SECTION>__<KEY>` variables.

Nothing is read at import time: `load_settings(index_dir)` is called when an index is opened.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, get_type_hints

from kgrag.errors import ConfigError

CONFIG_FILE = "kgrag.toml"
ENV_PREFIX = "KGRAG_"


@dataclass
class ChunkingSettings:
    max_tokens: int = 300
    overlap_tokens: int = 30
    min_tokens: int = 12  # chunks with fewer content tokens are dropped as noise
    subchunk_tokens: int = 150  # KET-RAG sub-chunk target size


@dataclass
class IngestSettings:
    ocr_engine: str = "auto"  # PDF pages without text: auto (tesseract when installed, else rapidocr) | tesseract | rapidocr


@dataclass
class EmbedderSettings:
    provider: str = "minilm"  # minilm | hash | openai
    model: str = ""  # for openai-compatible endpoints
    base_url: str = ""
    api_key: str = ""
    batch_size: int = 32
    threads: int = 0  # 0 = the CPUs this process may use, at most 4 (an embedding batch splits across cores)
    cache_rows: int = 20_000  # embedding cache (embed_cache.sqlite) bound; 0 = no cache


@dataclass
class LLMSettings:
    provider: str = "local"  # local | openai | fake
    model: str = "qwen2.5-coder-0.5b"  # local: qwen2.5-coder-0.5b | qwen2.5-coder-1.5b | path to a .gguf
    quant: str = "auto"  # local registry models' weights: auto (the faster one measured per model) | q4_0 | q8_0 | packaged
    base_url: str = ""
    api_key: str = ""
    n_ctx: int = 4096
    threads: int = 1  # generation threads (token by token: 1 is fastest on small shared CPUs)
    batch_threads: int = 0  # threads reading the prompt; 0 = the CPUs this process may use, at most 4
    flash_attn: bool = True  # llama.cpp flash attention: the prompt is read ~15% faster on CPU, generation unchanged
    temperature: float = 0.0
    timeout_s: float = 120.0
    max_retries: int = 3
    max_answer_tokens: int = 256


@dataclass
class RetrievalSettings:
    strategy: str = "auto"  # kg-facts for product documentation, fused for other text (retrieve/strategies/auto.py)
    budget: int = 2000
    alpha: float = 0.6  # weight of the dense side in hybrid fusion
    top_k: int = 30
    theta: float = 0.4  # KET-RAG: share of the budget for the skeleton
    serialization: str = "text"  # text | turtle
    min_question_coverage: float = 0.45  # answer with a refusal when the context shares fewer of the question's terms


@dataclass
class AnswerSettings:
    mode: str = "auto"  # auto (quote explicit facts, else the LLM) | extractive (no LLM) | generative (always the LLM)
    focus: str = "auto"  # question-focused context for the LLM: auto (local models only) | on | off (full context)
    focus_tokens: int = 350  # size of the focused context (prompt processing dominates a local model's time)
    focus_max_tokens: int = 160  # answer length limit with the focused context
    passages: int = 4  # auto mode, focused model: passages in the documents' words after the answer (0 = none); a
    # "no direct answer" shows six (answering/quotes.py QUOTES): it has no answer of its own, so about as long
    min_relevance: float = -1.0  # best unit's cosine to the question below which only the closest passages are shown
    # (no LLM call); -1 = auto (0.40 with the bundled MiniLM embedder, off with others), 0 = off


@dataclass
class GraphSettings:
    extractor: str = "datasheet"  # datasheet | rules | llm | llm-typed | llm-paths
    beta: float = 0.8  # KET-RAG: share of chunks that get LLM extraction
    core_selection: str = "pagerank"  # pagerank | uniform
    knn_k: int = 2
    keyword_method: str = "vocab"  # KET-RAG keywords: vocab | tfidf | phrase
    max_llm_tokens: int = 0  # 0 = no cap
    max_minutes: float = 0.0  # `kgrag index`: no new LLM call after this many minutes (0 = no limit)
    llm_summaries: bool = False  # LLM community summaries with the local model (an openai endpoint: always)
    gleaning_rounds: int = 0
    seed: int = 42


@dataclass
class Settings:
    """Everything configurable, with defaults that work offline on a laptop."""

    chunking: ChunkingSettings = field(default_factory=ChunkingSettings)
    ingest: IngestSettings = field(default_factory=IngestSettings)
    embedder: EmbedderSettings = field(default_factory=EmbedderSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    graph: GraphSettings = field(default_factory=GraphSettings)
    answer: AnswerSettings = field(default_factory=AnswerSettings)
    prices: dict[str, list[float]] = field(default_factory=dict)  # model -> [USD per 1M in, per 1M out]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _coerce(value: Any, target: type, where: str) -> Any:
    try:
        if target is bool and isinstance(value, str):
            return value.strip().lower() in {"1", "true", "yes", "on"}
        if target in (int, float, str, bool):
            return target(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: cannot read {value!r} as {target.__name__}") from exc
    return value


def _apply(obj: Any, data: dict[str, Any], where: str) -> None:
    hints = get_type_hints(type(obj))
    names = {f.name for f in fields(obj)}
    for key, value in data.items():
        if key not in names:
            raise ConfigError(f"{where}: unknown setting {key!r}")
        current = getattr(obj, key)
        if is_dataclass(current):
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: [{key}] must be a table")
            _apply(current, value, f"{where}.{key}")
        else:
            target = hints.get(key)
            setattr(obj, key, _coerce(value, target, f"{where}.{key}") if isinstance(target, type) else value)


def _env_overrides(environ: dict[str, str]) -> dict[str, Any]:
    """KGRAG_LLM__BASE_URL=... -> {"llm": {"base_url": ...}}."""
    out: dict[str, Any] = {}
    for name, value in environ.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        section, key = name[len(ENV_PREFIX) :].lower().split("__", 1)
        out.setdefault(section, {})[key] = value
    return out


def load_settings(index_dir: str | Path | None = None, environ: dict[str, str] | None = None) -> Settings:
    """Defaults, then `<index_dir>/kgrag.toml`, then `KGRAG_<SECTION>__<KEY>` environment variables."""
    settings = Settings()
    if index_dir is not None:
        path = Path(index_dir) / CONFIG_FILE
        if path.exists():
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{path}: {exc}") from exc
            _apply(settings, data, str(path))
    env = os.environ if environ is None else environ
    _apply(settings, _env_overrides(dict(env)), "environment")
    if env.get("OPENAI_API_KEY") and not settings.llm.api_key:
        settings.llm.api_key = env["OPENAI_API_KEY"]
    return settings


def dump_settings_toml(settings: Settings) -> str:
    """A kgrag.toml text for `settings` (used by `kgrag init`)."""
    lines: list[str] = []
    for section, values in settings.to_dict().items():
        if not isinstance(values, dict) or not values and section == "prices":
            continue
        lines.append(f"[{section}]")
        for key, value in values.items():
            if key == "api_key":
                continue  # secrets stay in the environment
            if isinstance(value, str):
                lines.append(f'{key} = "{value}"')
            elif isinstance(value, bool):
                lines.append(f"{key} = {'true' if value else 'false'}")
            elif isinstance(value, list):
                lines.append(f"{key} = {value!r}")
            else:
                lines.append(f"{key} = {value}")
        lines.append("")
    return "\n".join(lines)
