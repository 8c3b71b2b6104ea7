"""Wordings that say what shape of question this is: where a second question starts ("…, and what …"), whether it
asks how two things differ, and which two names it sets side by side ("the A or the B?"). Kept apart from `terms` so
retrieval and answering read them the same way."""

from __future__ import annotations

import itertools
import re

from kgrag.answering.words import fold
from kgrag.graph.datasheet.vocab import TYPE_WORDS

# Where a second question starts: "…, and what …", "…; which …", "… and how …" (the one pattern behind `second_question`).
_SECOND_QUESTION = re.compile(r"(?:(?P<comma>[,;])\s*(?:(?P<conj>and|or)\s+)?|\s+(?P<bare>and)\s+)"
                              r"(?P<word>what|which|how|where|when|why|who)\b", re.IGNORECASE)
ASK_WORDS = frozenset({"what", "which", "how", "where", "when", "why", "who"})
_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017fµμ"  # Latin letters with accents ("Oplà"), the micro sign
# A question word, part number, name or unit ("μT"); a decimal point stays inside a value glued to its unit ("3.3V",
# "2.5mA"), while versions and spaced values split at it ("3.1.2", "2.5 A").
TOKEN = re.compile(rf"[{_LETTER}0-9](?:[{_LETTER}0-9\-_/+]|(?<=[0-9])\.(?=[0-9]+[{_LETTER}]))*")


def second_question(question: str, *, bare_and: bool = False, conjunctions: frozenset[str] = frozenset({"", "and", "or"}),
                    words: frozenset[str] = ASK_WORDS) -> re.Match[str] | None:
    """The first place a second question starts: after a comma (with one of `conjunctions`: "" for none) or, with
    `bare_and`, after a plain "and"; its question word one of `words` (the match's "word" group)."""
    for m in _SECOND_QUESTION.finditer(question):
        if m["bare"] and not bare_and or not m["bare"] and (m["conj"] or "").lower() not in conjunctions:
            continue
        if m["word"].lower() in words:
            return m
    return None


# A request worded as a question ("Can you give me the key specs of …?", "Could you summarize …?") asks for the facts,
# not for a yes or a no; "Can you tell me whether …" still asks yes or no.
_REQUEST = re.compile(r"^\s*(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:give|tell|list|summari[sz]e|describe|"
                      r"explain|show|provide|outline|share|walk|name|break\s+down)\b(?!(?:\s+(?:me|us))?\s+(?:if|whether)\b)",
                      re.IGNORECASE)


# also after a leading phrase: "With the A, can I …?", "When powered from USB, does the B …?"
_YES_NO = re.compile(r"^\s*(?:(?:with|on|for|in|at|using|from|if|when)\b[^,?]{1,80},\s*)?"
                     r"(is|are|does|do|did|can|could|has|have|will|would|was|were|should|shall|may|might|must)\b", re.I)


def yes_no_wording(sentence: str) -> bool:
    """The sentence opens as a yes/no question does ("Is …", "Can I …"), and is no polite request for the facts
    ("Can you list the interfaces of the X?")."""
    return bool(_YES_NO.match(sentence)) and not _REQUEST.match(sentence)


# "What is the difference between the A and the B?", "Do the A and the B have the same sensors?", "Is the A just a
# renamed B, or did its components change?"
_DIFFERENCE = re.compile(r"\b(?:differ\w*|difference|same(?!\s+time)|renamed|changed|equivalent|identical|versus|vs\.?)\b"
                         r"|\b(?:did|has|have)\b[^?,]{0,30}\bchange\b", re.IGNORECASE)  # "did its parts change"; not "what do I change"


_WHICH_CLAUSE = re.compile(r"(?:^|[,;]|\band\b)\s*(?:which|what)\b[^,;]*$", re.IGNORECASE)


def asks_difference(question: str) -> bool:
    """The question asks how two things differ, or whether they are the same; "which member … has the same chip?"
    asks for a product that shares a part, not how two differ."""
    return any(not (m.group(0).lower() == "same" and _WHICH_CLAUSE.search(question[:m.start()]))
               for m in _DIFFERENCE.finditer(question))


# "Summarize the sensing capabilities of the A", "Give an overview of …", "Describe the …", "Outline …"
# Words asking for an overview ("Summarize the power tree …"): an instruction, not what the question is about
OVERVIEW_WORDS = frozenset({"summarize", "summarise", "summary", "overview", "describe", "outline"})


# "What are the main features of the A?", "its key specifications": the whole list asked, not one fact
_MAIN_FEATURES = re.compile(r"\b(?:main|key|major|headline)\s+(?:hardware\s+)?(?:features|specs|specifications|capabilities|"
                            r"characteristics)\b", re.IGNORECASE)


# "Give me a rundown of …", "the short version", "in a nutshell": a user's words for an overview
_OVERVIEW_PHRASES = re.compile(r"\b(?:run-?downs?|recap|in a nutshell|at a glance|(?:the )?short version|big picture|"
                               r"quick tour)\b", re.IGNORECASE)


# "What sensors does the A have?", "What connectors and features does the A provide?": every part of a kind asked of a
# named product (a plural kind, then the verb, then the name), a list rather than one fact
_KIND_LIST = re.compile(r"^\s*(?i:what)\s+(?:[\w-]+\s+){0,2}?(?P<kind>[a-z]+s)\s+(?i:and\s+[a-z]+\s+)?"
                        r"(?i:does|do|is|are)\s+(?i:(?:on|in|inside)\s+)?(?:(?i:the|an?|its|this|our|my|your)\s+\w|[A-Z])")
# (a name after an article may be typed in lower case: "what sensors does the alvik robot have?")
_KIND_WORDS = frozenset(fold(w) for kind, words in TYPE_WORDS.items() if kind != "Product" for w in words)


def asks_kind_list(question: str) -> bool:
    """The question asks which parts of a kind a named product has ("What sensors does the A have onboard?")."""
    m = _KIND_LIST.search(question)
    return bool(m) and fold(m["kind"]) in _KIND_WORDS


# "What does the A give me for prototyping?", "What's on the A that would help …?", "what's inside the A": what a named
# product offers as a whole
_OFFERS = re.compile(r"(?:^|[.?!]\s+)(?i:what)\s+(?i:does|do|can|will)\s+(?i:(?:the|an?|my|our|this)\s+)?[A-Z][^?]{0,60}?"
                     r"\s(?i:give|offer|provide|bring)s?\s+(?i:me|us|you)\b|"
                     r"\b(?i:what(?:'s|’s|\s+is|\s+are)\s+(?:actually\s+)?(?:on|inside|in)\s+(?:(?:the|an?|my|our|this)\s+)?)[A-Z]")


def asks_overview(question: str) -> bool:
    """The question asks for an overview of something rather than one fact (or every part of a kind it has)."""
    words = re.findall(r"[a-z]+", question.lower())
    return (any(w in OVERVIEW_WORDS or w.startswith("summar") for w in words) or bool(_MAIN_FEATURES.search(question))
            or bool(_OVERVIEW_PHRASES.search(question)) or asks_kind_list(question) or bool(_OFFERS.search(question)))


# "Which has more flash, A or B?": a comparative word and an alternative between two names.
GREATER = frozenset(["more", "higher", "longer", "larger", "bigger", "faster", "greater", "wider", "heavier"])
COMPARATIVES = GREATER | frozenset(["less", "fewer", "lower", "shorter", "smaller", "slower", "narrower", "lighter"])
_ALTERNATIVE = re.compile(r"\b(?:or|vs\.?|versus)\b", re.IGNORECASE)
_EACH = re.compile(r"\b(?:each|respectively)\b", re.IGNORECASE)  # "do the A and the B each have": both sides asked
_AND = re.compile(r"\band\b", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\b", re.IGNORECASE)
_COMPARE = re.compile(r"^\s*(?:please\s+)?compare\b", re.IGNORECASE)  # a request to compare the A and the B
_COMPARED = re.compile(r"\b(?:compared\s+(?:with|to)|as\s+opposed\s+to|relative\s+to)\b", re.IGNORECASE)


def compared_names(question: str, phrases: list[list[str]]) -> list[list[str]]:
    """The two names a comparison question sets against each other ("Which has more flash, the Nano Every or the
    Nano?"; "How much EEPROM do the UNO and the Mega each have?"; "Do the A and the B take the same supply
    voltage?"; "What is the power consumption of the A compared with the B?"), or [] for any other question."""
    if {w.lower() for w in TOKEN.findall(question)} & COMPARATIVES:
        joints = list(_ALTERNATIVE.finditer(question))[:1]
        between = _BETWEEN.search(question)  # "Between the A and the B, which one is rated for the wider …?"
        if not joints and between:
            joints = list(_AND.finditer(question, between.end()))[:1]
    elif _EACH.search(question) or asks_difference(question) or _COMPARE.match(question):  # "Do the A and the B
        # take the same supply voltage?", "Compare the clock speed of the A and the B'
        joints = list(_AND.finditer(question))
    elif _COMPARED.search(question):  # "the power consumption of the A compared with the B"
        joints = list(_COMPARED.finditer(question))
    else:
        return []
    return names_around(question, phrases, joints)


def alternative_names(question: str, phrases: list[list[str]]) -> list[list[str]]:
    """The two names a question offers as alternatives ("Should I use a Portenta X8 or a Portenta H7?"), or []."""
    return names_around(question, phrases, list(_ALTERNATIVE.finditer(question))[:1])


def names_around(question: str, phrases: list[list[str]], joints: list[re.Match[str]]) -> list[list[str]]:
    """The last name before and the first name after the first joint ("or", "and") that has a name on each side."""
    at: list[tuple[int, list[str]]] = []  # where each name starts; the two around "or" / "and" are compared
    for p in phrases:
        m = re.search(r"(?<![\w-])" + r"\W+".join(re.escape(w) for w in p) + r"(?![\w-])", question)
        if m and not all(w.isdigit() for w in p):
            at.append((m.start(), p))
    for joint in joints:
        before = [p for start, p in at if start < joint.start()]
        after = [p for start, p in at if start > joint.start()]
        if before and after:
            return [before[-1], after[0]]
    return []


_FIXING = r"(?:fix|solve|resolve|correct|cure|repair|clear|stop|prevent|avoid|recover|get\s+rid\s+of)"
# "What should I do?", "what now", "How do I fix …?", "how to stop …", "what's the fix", "is there a workaround",
# "how can this be fixed": wherever it stands, after the problem as users describe it
_ASKS_REMEDY = re.compile(
    rf"\bwhat\s+(?:should|do|must|can|could)\s+(?:i|we|you)\s+do\b|\bwhat\s+(?:can|should)\s+be\s+done\b|"
    rf"\b(?:what|now)\s+(?:now|what)\s*[?.!]*\s*$|"
    rf"\bhow\s+(?:do|can|could|should|would)\s+(?:i|we|you)\s+{_FIXING}\b|\bhow\s+to\s+{_FIXING}\b|"
    rf"\bhow\s+(?:can|could|should|do)\s+(?:this|it|that|they)\s+be\s+(?:fixed|solved|resolved|corrected|cleared)\b|"
    rf"\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:fix|fixes|remedy|remedies|solution|solutions|resolution|workaround|cure)\b|"
    rf"\b(?:any|is\s+there\s+a|is\s+there\s+any)\s+(?:fix|solution|workaround|remedy)\b", re.IGNORECASE)


def asks_remedy(question: str) -> bool:
    """The question asks what to do about a problem (it may describe the problem first, in the user's words)."""
    return bool(_ASKS_REMEDY.search(question))


def asked_acronyms(question: str, attributes: set[str]) -> set[str]:
    """The acronyms a question asks about ("What MTBF …", "Which ADC resolution …"), folded: a term of the trade
    typed in capitals, which a passage answering it writes too (`attributes`: the question's asked words, folded)."""
    return {fold(w) for w in TOKEN.findall(question) if len(w) > 2 and w.isalpha() and w.isupper() and fold(w) in attributes}


# Numbered items a user spells out where documents write a letter and the number ("erratum 3" for "E3", "alarm 2"
# for "A2", "error 17" for "E17")
_NUMBERED_ITEMS = frozenset({"erratum", "error", "alarm", "fault", "warning", "event"})


def numbered_codes(tokens: list[str]) -> set[str]:
    """The letter codes of the numbered items a question spells out ("erratum 3" -> "e3"), as folded words: a passage
    writing the code is about that item (one writing neither tells nothing, so the code is only one more asked word)."""
    return {f"{word[0].lower()}{number}" for word, number in itertools.pairwise(tokens)
            if word.lower() in _NUMBERED_ITEMS and number.isdigit() and len(number) <= 3}


# "List the sensors on the A", "Name all boards with CAN": a request for a list, asked as "Which sensors …"
_KIND_WORDS = frozenset(w for words in TYPE_WORDS.values() for w in words)
_LIST_REQUEST = re.compile(r"^\s*(?:please\s+)?(?:list|name|enumerate)\s+(?=(?:all|the|its|every)\b)"
                           r"(?:all\s+)?(?:of\s+)?(?:the\s+|its\s+|every\s+)?", re.IGNORECASE)


def as_which(question: str) -> str:
    """A request for a list of a kind of thing as the which-question it is ("List the sensors on the A" -> "Which
    sensors on the A"); any other question as written ("List the steps to update it" asks a procedure)."""
    m = _LIST_REQUEST.match(question)
    rest = question[m.end():] if m else ""
    first = rest.split(maxsplit=1)[:1]
    return f"Which {rest}" if first and first[0].lower() in _KIND_WORDS else question


# Words naming the documents themselves ("in the A documentation", "what does the datasheet give for …", "the manual
# says"): where a fact is written, not what is asked; matched they pick out notices about the document ("this document
# is provided as is") and pointers to it ("see the Documentation section") over the asked fact (folded words)
DOCUMENT_WORDS = frozenset({"datasheet", "documentation", "document", "doc", "manual"})
# … unless the document is what is asked for: "Where can I find the datasheet?", "Is there a manual for the A?"
ASKS_DOCUMENT = re.compile(r"\b(?:where|find|download|link|get|there|which|what)\b(?:\W+\w+){0,6}?\W+(?:datasheets?|"
                           r"documentation|documents?|docs|manuals?)\b(?!\W+(?:says?|gives?|lists?|calls?|mentions?|"
                           r"quotes?|writes?|recommends?|states?|specifies|claims?))", re.IGNORECASE)


def without_document_words(question: str, attributes: set[str]) -> set[str]:
    """The asked words without those naming the documents, unless the document is what is asked or nothing else is."""
    rest = attributes - DOCUMENT_WORDS
    return rest if rest and not ASKS_DOCUMENT.search(question) else attributes


# The verb of "Does the A support / offer / provide X?": what a yes/no question asks is X, not the verb
HAS_VERBS = frozenset({"support", "supports", "offer", "offers", "provide", "provides"})
