"""Whether a model's reply addresses the question at all: not a restatement of it, nor a copy of a passage about
something else. Such replies are set aside for the closest passages (`grounding.reply_problems`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kgrag.answering.asks import asks_overview
from kgrag.answering.blocks import GRAPH_FACTS
from kgrag.answering.names import name_found
from kgrag.answering.refusal import CITE
from kgrag.answering.terms import analyse
from kgrag.answering.values import NUMBER_UNIT, dimension_of_unit, without_values_of
from kgrag.answering.words import content_terms, fold, words_found

OFF_TOPIC_WORDS = 8  # content words from which a reply is more than a name: one answering nothing asked is off topic
_LABEL_WORDS = content_terms(GRAPH_FACTS)  # the prompt's scaffolding: no content a reply can give
_OWN_NUMBER = re.compile(r"(?<![\w.\[-])\d+(?:[.,]\d+)*(?![\w-])")  # "is 7", "has 2 ports"; not "AS-200", "v3", "2D"


def echoes(question: str, reply: str, titles: str = "") -> bool:
    """A reply that only restates an open question ("The products that embed another product are [2] [3]", "The
    temperature sensor is on the Arduino DIN Celsius"): no content word beyond the question's, the sources' document
    titles and the prompt's own label of the graph's facts ("The Opta certified for ATEX zone is [1] (knowledge graph
    facts, each line citing its source)"). A yes/no question restated is its "yes", so it never echoes; a value the
    question does not write is said ("The maximum suction lift is 2 m", "The factory Modbus address is 7")."""
    plain = CITE.sub("", reply)
    said = content_terms(plain) - content_terms(question) - content_terms(titles) - _LABEL_WORDS
    said |= {m.group(0) for m in NUMBER_UNIT.finditer(without_values_of(plain, question))}
    said |= set(_OWN_NUMBER.findall(plain)) - set(_OWN_NUMBER.findall(f"{question}\n{titles}"))  # "… address is 7"
    return not analyse(question).yes_no and not said


def off_topic(question: str, reply: str, sources: Sequence[tuple[str, str]]) -> bool:
    """A reply of several clauses that writes fewer than half the words the question asks about (beyond its names
    and the sources' titles) while one source writes them all: "How do I reset the gateway to factory defaults?"
    answered with the configuration file's keys above the "Factory reset" passage, a small model copying the wrong
    passage. A short reply may name the answer alone ("The HS3003 [1]."); a value of the asked quantity answers, an
    overview sums up in words of its own, and a reply naming what the question names is about it when it writes an
    asked word too ("The AS-200 supports functions 03, 04 and 06" for its "Modbus function codes"; not "The Nano RP2040
    Connect can be powered … via VIN" for how to put it into bootloader mode)."""
    q = analyse(question)
    asked = q.attributes - content_terms(" ".join(title for title, _ in sources)) - {fold(n) for n in q.names}
    said = content_terms(CITE.sub("", reply))
    answered = words_found(asked, said)
    if (q.yes_no or asks_overview(question) or not asked or len(said) < OFF_TOPIC_WORDS or len(answered) * 2 >= len(asked)
            or answered and any(name_found(" ".join(p), reply.lower()) for p in q.phrases)):
        return False
    if q.dimensions and any(dimension_of_unit(m.group(2)) & q.dimensions for m in NUMBER_UNIT.finditer(reply)):
        return False
    written = [content_terms(text) for _, text in sources]  # a word no source writes ("put" of "put … into") asks
    attested = words_found(asked, set().union(*written))  # nothing a source could answer
    return 2 * len(attested) > len(asked) and any(words_found(attested, words) == attested for words in written)
