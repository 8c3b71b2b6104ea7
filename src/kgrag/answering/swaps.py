"""A reply sentence copied from a source with another product's name put in its subject's place: a small model asked
about two products rewrites "The GIGA R1 WiFi brings the power of the STM32H7 to the Mega form factor" as "The Mega
2560 Rev3 brings the power of the STM32H7 …", the other product's facts under the asked one's name. Such a reply is
set aside for the closest passages (`grounding.reply_problems`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from kgrag.answering.refusal import CITE
from kgrag.answering.words import content_terms
from kgrag.ingest.sentences import split_sentences

MIN_SHARED = 6  # content words a reply sentence and a source sentence share before one counts as a copy of the other
COPY_SHARE = 0.75  # … and the share of the reply sentence's words that the source sentence writes


def swapped_subjects(reply: str, sources: Sequence[tuple[str, str]]) -> list[str]:
    """The reply sentences that copy a source sentence with one product's name put for another's: the words only the
    reply writes all belong to one document title (and not all to the source's), the words only the source writes
    all to another title. `sources` are (title, text) of the blocks the model read."""
    titles = {title: content_terms(title) for title, _ in sources if title}
    if len(titles) < 2:
        return []
    source_sentences = [content_terms(s) for _, text in sources for line in text.splitlines()
                        for s in split_sentences(line)]
    found = []
    for sentence in split_sentences(CITE.sub(" ", reply)):
        said = content_terms(sentence)
        copied = [written for written in source_sentences
                  if len(said & written) >= max(MIN_SHARED, COPY_SHARE * len(said))]
        if any(said <= written for written in copied):  # a source writes it under this name too
            continue
        if any(_renamed(said - written, written - said, titles.values()) for written in copied):
            found.append(sentence.strip())
    return found


def _renamed(added: set[str], dropped: set[str], titles: Collection[set[str]]) -> bool:
    """True when the words a copy adds name one product and the words it drops name another."""
    if not added or not dropped:
        return False
    return any(added <= own and not dropped <= own and any(dropped <= other and not added <= other for other in titles)
               for own in titles)
