"""Which versions a question asks: "Which Python versions does the SDK support?" asks versions written after "Python"
(another thing the product works with), not the SDK's own release in a heading."""

from __future__ import annotations

import re

from kgrag.answering.terms import QuestionTerms
from kgrag.answering.values import ASKS_VERSION
from kgrag.answering.words import fold

_QUALIFIED_VERSION = re.compile(r"\b([\w-]+)\s+versions?\b", re.IGNORECASE)  # "Python versions", "kernel version"
_VERSION_ADJECTIVES = frozenset({"latest", "current", "newest", "oldest", "minimum", "maximum", "recommended",
                                 "required", "supported", "earliest", "last", "first", "new", "old", "which", "what"})


def _version_qualifier(q: QuestionTerms) -> str:
    """The word qualifying the asked "version(s)" ("Python" of "Which Python versions …?"), or ""."""
    m = _QUALIFIED_VERSION.search(q.text) if ASKS_VERSION.search(q.text) else None
    qualifier = m.group(1).lower() if m else ""
    return qualifier if qualifier not in _VERSION_ADJECTIVES and fold(qualifier) in q.attributes else ""


_OWN_RELEASES = frozenset({"firmware", "software", "release", "hardware", "document", "fw", "sw", "hw"})


def qualified_version(q: QuestionTerms) -> bool:
    """The question asks the versions of another thing the product works with ("Which Python versions …", "What
    kernel version …"), not one of its own releases ("Which firmware version fixed …", read from release notes)."""
    return _version_qualifier(q) not in ("", *_OWN_RELEASES)


def version_words(q: QuestionTerms) -> set[str]:
    """The words a version must follow to be the one asked: the word qualifying "versions" ("Which Python versions
    …?" wants "Python 3.9–3.12", not the "SDK 3.1" of a heading), else any asked word or name."""
    qualifier = _version_qualifier(q)
    return {qualifier} if qualifier else q.attributes | {n.lower() for n in q.names}

