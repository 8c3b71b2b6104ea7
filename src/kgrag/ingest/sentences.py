"""Sentence splitting with blingfire (fast, model inside the wheel); shared by chunking, answers and KET-RAG."""

from __future__ import annotations

import re

import blingfire

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def split_sentences(text: str) -> list[str]:
    """Sentences of `text` in order; blank lines always end a sentence, other whitespace is collapsed."""
    out: list[str] = []
    for paragraph in _PARAGRAPH_BREAK.split(text):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        out.extend(s for s in blingfire.text_to_sentences(paragraph).split("\n") if s.strip())
    return out
