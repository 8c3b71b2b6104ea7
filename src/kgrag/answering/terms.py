"""Question terms: content words (folded), the names and part numbers a question is about, and what it asks.

Names are found by their shape (capitalised words after the first, letter-digit mixes such as part
numbers), never from a list of products, so the same rules hold for any technical corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgrag.answering import asks
from kgrag.answering.asked_words import as_labelled
from kgrag.answering.sizes import shape_words
from kgrag.answering.values import (
    NUMBER_UNIT,
    PART,
    RANGE_ENDS,
    RATING_CODES,
    asked_dimensions,
    dimension_of_unit,
    written_dimensions,
)
from kgrag.answering.words import QUESTION_WORDS, STOP_WORDS, content_terms, fold, singular_codes, words_found
from kgrag.graph.datasheet.vocab import TYPE_WORDS

# "How often should it be calibrated?", "How long should I wait …": an interval or amount asked, not advice
_HOW_MUCH_SHOULD = re.compile(r"^\s*how\s+(?:often|long|frequently|many|much)\b[^?]*?\bshould\b", re.IGNORECASE)
# Question shapes that need reasoning or prose, not one stated value.
_PROSE = re.compile(
    r"\b(why|explain|summar\w*|overview|describe|compared?|comparison|differences?|equivalent|differ|versus|vs\.?|better|best|"
    r"suitable|recommend\w*|should|advantages?|disadvantages?|pros|cons|steps?|how (do|does|can|should|to)|"
    # a consequence or a meaning asked: "What happens if both switches are at 00?", "What is the LED telling me?"
    r"what (?:would |will )?happens?|what does [\w\s-]{1,50} mean|telling (?:me|us))\b",
    re.IGNORECASE,
)
REVISION = re.compile(r"(?i:rev)\.?\d+[a-z]?")  # "Rev2" tells two products apart; it names no part
_WHICH = re.compile(r"^\s*(which|who)\b", re.IGNORECASE)
# "What camera sensor does …", "How much SRAM does …", "How much RAM and flash storage is …", "How much Flash, SRAM and
# EEPROM does …": the words between the question word and its verb name what is asked, never the product asked about.
_ASKED_HEAD = re.compile(r"^\s*(?:what|which|how\s+(?:much|many))\s+((?:[\w\-/+]+\s+){1,3}?|(?:[\w\-/+]+\s+){1,2}"
                         r"(?:and|or)\s+(?:[\w\-/+]+\s+){1,2}?|(?:[\w\-/+]+,\s+)+[\w\-/+]+,?\s+(?:and|or)\s+[\w\-/+]+\s+)"
                         r"(?:is|are|was|were|does|do|did|can|could|has|have|will|would|should)\b", re.IGNORECASE)
_LISTED = re.compile(r"\b(?:and|or)\b", re.IGNORECASE)  # an asked head naming several things
# "How many Modulino nodes come with …" has no auxiliary verb for _ASKED_HEAD: the counted thing is the first plural
# within three words of "how many" (the words before it may be a name, so they stay out of the asked head).
_HOW_MANY = re.compile(r"^\s*how\s+many\s+(?:[\w\-/+]+\s+){0,2}?([A-Za-z][\w\-/+]*s)\b", re.IGNORECASE)
# "the (maximum) number of Modbus devices": a count asked without "how many" (not a part or serial number "of" a thing)
_NUMBER_OF = re.compile(r"\b(\w+)\s+number\s+of\s+(?:[\w\-/+]+\s+){0,2}([A-Za-z][\w\-/+]*s)\b", re.IGNORECASE)
_ASKS_OTHER = re.compile(r"\s*(?:which|who|whose|where|when|why|how)\b", re.IGNORECASE)
_NAMED_NUMBERS = frozenset({"part", "serial", "order", "model", "article", "catalog", "catalogue", "version",
                            "register", "phone", "ticket", "case", "item", "reference", "lot", "batch"})
# "We switch a pump many times a day. How many cycles …", "For the volume control, how many pulses per turn …": a
# how-many question after the user's situation (a sentence or a clause before it, a hedge such as "roughly")
_LATER_HOW_MANY = re.compile(r"(?:[.?!]|,(?! and\b))\s+(?:(?:roughly|about|approximately|exactly)\s+)?(?=how\s+many\b)",
                             re.IGNORECASE)


CLASS_WORDS = frozenset(fold(w) for t, words in TYPE_WORDS.items() if t != "Product" for w in words)  # kinds of part
PRODUCT_WORDS = frozenset(fold(w) for w in TYPE_WORDS["Product"])  # "board", "kit", "carrier" …


def question_coverage(question: str, context_text: str) -> float:
    """Share of the question's content terms found in the context (or a word of the same stem); low values mean the
    documents miss the topic. A value the question writes ("from a 9 V battery", "at -35 °C") is the user's, not a
    topic word: the documents rate the quantity, they need not write that number."""
    asked = content_terms(_USER_VALUE.sub(" ", question)) - _INSTRUCTIONS
    if not asked:
        return 1.0
    words = content_terms(context_text)
    words |= {m.group(1) for m in map(_CODED.fullmatch, words) if m}  # "IP rating" is found where "IP30" is
    words |= shape_words(context_text, words)  # "How wide …" is found where "Dimensions | 45 × 110 × 120 mm" is
    found = words_found(asked, words)  # "motion-sensing" is found where "motion" and "sensing" are
    found |= {a for a in asked - found if "-" in a and len(words_found(a.split("-"), words)) == len(a.split("-"))}
    return len(found) / len(asked)


_CODED = re.compile(r"([a-z]{2,4})\d+[a-z]?")  # a rating or class written as its code: "ip30", "ik08", "cat4"
# what a question asks to be done ("explain", "camera specs?", "A vs B", "please"), not what it is about
_INSTRUCTIONS = asks.OVERVIEW_WORDS | {"explain", "spec", "specification", "vs", "versus", "please"}
_USER_VALUE = re.compile(NUMBER_UNIT.pattern, re.IGNORECASE)  # "2gb", "12v": a value however the user cases it

_LETTER_PAIR = re.compile(r"[A-Za-z](?:/[A-Za-z])+")  # "I/O", "A/D": an abbreviated term, not a name
_CURRENT_KINDS = frozenset({"ac", "dc", "rms"})  # "24 V DC": a qualifier of the value, like its unit
# written in capitals, but words ("Is that OK?", "a DC supply"), no names
_CAPITAL_WORDS = frozenset({"OK"}) | {k.upper() for k in _CURRENT_KINDS}


# words a single capital letter follows to name a revision or variant: "Rev A", "Type B", "hardware version C"
_DESIGNATORS = frozenset({"rev", "revision", "version", "type", "variant", "model", "series", "option", "gen", "mk"})


def _designated_letter(tokens: list[str], i: int) -> bool:
    """Token i is one capital letter naming a revision or variant ("Rev A"); "a" is otherwise an article."""
    return i > 0 and len(tokens[i]) == 1 and tokens[i].isupper() and tokens[i - 1].lower().rstrip(".") in _DESIGNATORS


def _is_name(token: str, first: bool) -> bool:
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    if has_digit and has_alpha:
        return True
    if first or not token[:1].isupper() or _LETTER_PAIR.fullmatch(token):
        return False
    if len(token) > 1 and token.isupper():
        return token not in _CAPITAL_WORDS  # an acronym, even one spelled like a stop word: "Nicla Sense ME", "IT"
    return token.lower() not in QUESTION_WORDS and token.lower() not in STOP_WORDS


@dataclass
class QuestionTerms:
    """What a question is about (`names`: products, parts, acronyms) and asks for (`attributes`)."""

    text: str
    terms: set[str] = field(default_factory=set)
    names: list[str] = field(default_factory=list)  # original spelling, e.g. ["HS3003", "Nano", "33"]
    phrases: list[list[str]] = field(default_factory=list)  # names adjacent in the question: one thing each
    parts: list[str] = field(default_factory=list)  # letter-digit mixes, the most specific names (not "Rev2")
    attributes: set[str] = field(default_factory=set)  # folded content terms that are not names
    wants_value: bool = False  # a factual "what is the X of Y" question
    wants_name: bool = False  # "which/who ...": the answer names a part or product, not a number
    count_of: str = ""  # "how many relays ...": the folded thing counted; the answer is a count of it
    yes_no: bool = False
    dimensions: set[str] = field(default_factory=set)  # quantities asked: by a word ("voltage") or a unit ("in dBm")
    compares: list[list[str]] = field(default_factory=list)  # "which has more X, A or B": the two names set apart
    together: list[list[str]] = field(default_factory=list)  # asked words joined by "and" / a list ("Flash, SRAM and
    # EEPROM", "the dimensions and the weight"): a quote must give each of a group


def asked_head(question: str) -> list[str]:
    """The words naming what a what/which/how-much question asks, before its verb ("camera sensor", "SRAM")."""
    m = _ASKED_HEAD.match(question)
    return asks.TOKEN.findall(m.group(1)) if m else []


def names_a_class(question: str, head: list[str]) -> bool:
    """What/which asks for a kind of part ("What camera sensor", "What FPGA"; `head` from asked_head): the answer
    is a name, not a number."""
    return bool(head) and not question.lstrip().lower().startswith("how") and any(fold(w) in CLASS_WORDS for w in head)


KIND_WORDS = frozenset({"type", "kind", "model"})


def asks_kind(attributes: set[str]) -> bool:
    """"What is the USB connector type / the kind of battery …" asks for a name ("USB-C", a part), not a measured
    quantity: a voltage row that names the connector is no answer. A quantity word keeps it a value question."""
    return bool(attributes & KIND_WORDS) and not asked_dimensions(attributes)


def asks_product(q: QuestionTerms) -> bool:
    """True when the answer is a product ("Which carrier board offers an FD-CAN port?"), not a part or a value."""
    return q.wants_name and bool(q.attributes & PRODUCT_WORDS)


def counted_thing(question: str, head: list[str]) -> str:
    """What a how-many question counts ("relays", "nodes"), folded; '' for other questions."""
    later = _LATER_HOW_MANY.search(question)
    if later:
        m = _HOW_MANY.match(question[later.end():])
        return fold(m.group(1)) if m else ""
    if not re.match(r"\s*how\s+many\b", question, re.IGNORECASE):
        m = _NUMBER_OF.search(question)  # "what is the max number of Modbus devices on the GW-500?" (not "Which
        return fold(m.group(2)) if m and m.group(1).lower() not in _NAMED_NUMBERS and not _ASKS_OTHER.match(
            question) else ""  # interface is used by the largest number of products?")
    if head:
        return fold(head[-1])
    m = _HOW_MANY.match(question)
    return fold(m.group(1)) if m else ""


# A gas or compound written as its formula (two or more element symbols, each with at most one digit): "CO2", "NO2",
# "H2S", "CH4". Short designators ("H7", "X8", "C33") and part numbers ("HS3003") do not fit.
CHEMICAL = re.compile(r"(?=\w*\d)(?:(?:Cl|C|H|N|O|S|F)\d?){2,4}")


_NUMBER_OR_SPAN = re.compile(r"\d+(?:[-–]\d+)?")  # "60" of "60 V", "863-870" of "863-870 MHz" (decimals are split)


def value_unit(tokens: list[str], i: int) -> bool:
    """The token is the unit of a number the question writes ("60 V", "2.5 A", "24 V DC"), not a name."""
    if i == 0:
        return False
    before, tok = tokens[i - 1], tokens[i]
    if _NUMBER_OR_SPAN.fullmatch(before) and dimension_of_unit(tok):
        return True
    return tok.lower() in _CURRENT_KINDS and i > 1 and tokens[i - 2].isdigit() and bool(dimension_of_unit(before))


_RAIL_WORDS = frozenset({"pin", "rail", "net", "bus", "header", "domain"})  # "the 3.3V pin": a name, not a value


def _glued_value(token: str) -> bool:
    """A value typed glued to its unit, "12V", "20mA", "4-20mA": no name (but "the 3.3V pin" is, `_RAIL_WORDS`). A
    one-letter unit other than V reads as a name's letter ("4G", "2A", "3D")."""
    m = NUMBER_UNIT.fullmatch(token) or RANGE_ENDS.fullmatch(token)
    return m is not None and (len(m.group(m.lastindex or 0)) > 1 or m.group(m.lastindex or 0) == "V")


_SUFFIXED = re.compile(r"(.+)-([a-z]{3,})")  # a name with a word joined by a hyphen: "nRF52840-based"
_ABOUT_NAME = frozenset({"based", "capable", "enabled", "powered", "compatible", "equipped", "ready", "driven",
                         "controlled", "certified", "style", "format", "sized"})  # words a hyphen joins to any name ("BLE-enabled")
SENTENCE_END = re.compile(r"[.?!]\s")  # "… or the Zephyr Mini? Give both values.": "Give" opens a sentence
_LIST_MARK = re.compile(r"[,;:]")  # "each UART, SPI and CAN header": names in a list, not one name of three words
_NEGATIONS = frozenset({"not", "except", "unlike", "excluding"})


def _rating_code(tokens: list[str], i: int) -> bool:
    """"IP" in "What IP rating …" / "the IP (ingress protection) class": the kind of rating asked, not a name; and a
    rating itself ("Is the DPX IP68?", "SIL2"): a value asked of the product, not a word of its name."""
    return (tokens[i] in RATING_CODES and any(fold(t) in _RATING_WORDS for t in tokens[i + 1:i + 4])
            or _RATING_TOKEN.fullmatch(tokens[i]) is not None)


_RATING_WORDS = frozenset({"rating", "code", "class", "level", "protection"})
_RATING_TOKEN = re.compile(rf"(?:{'|'.join(sorted(RATING_CODES))})-?\d{{1,2}}[A-Z]?")  # "IP68", "IP69K", "IK08", "SIL2"


def _negated(tokens: list[str], i: int) -> bool:
    """Token i belongs to a name right after "not (the)", "except", "unlike": the question sets that thing aside."""
    j = i
    while j > 0 and _is_name(tokens[j - 1], first=False) and tokens[j - 1].lower() not in STOP_WORDS:
        j -= 1  # back to the start of the name
    before = [t.lower() for t in tokens[max(0, j - 2):j]]
    return bool(before) and (before[-1] in _NEGATIONS or (before[-1] in ("the", "a", "an") and len(before) > 1
                                                        and before[-2] in _NEGATIONS))


_CONDITIONS = frozenset({"when", "where"})  # "…, when it is cold": the circumstances of a yes/no question
_NOT_ASKED_AFTER_COMMA = _CONDITIONS | {"who"}


# what a product is, after its model code: "the VM-5 vibration monitor", "the KX-410 gateway", "the TS-30 node"
_PRODUCT_KINDS = (PRODUCT_WORDS | {"monitor", "node", "gateway", "transmitter", "controller", "probe", "unit"}) - CLASS_WORDS
# (not a kind of part: "the TMP117 sensor" names the kind a list question asks for)
_KIND_SPAN = 3  # words from the code to its kind


def _described(tokens: list[str]) -> set[int]:
    """Indices of the lower-case words between a model code and the kind word they end on ("VM-5 vibration
    monitor"): they say what the named product is, which every passage of its document repeats."""
    out: set[int] = set()
    for j, tok in enumerate(tokens):
        if not PART.fullmatch(tok) or CHEMICAL.fullmatch(tok.upper()):  # "the h2s unit" measures H2S: no model
            continue
        for k in range(j + 1, min(len(tokens), j + 1 + _KIND_SPAN)):
            if not tokens[k].islower() or tokens[k] in STOP_WORDS:
                break
            if fold(tokens[k]) in _PRODUCT_KINDS:
                out |= set(range(j + 1, k + 1))
                break
    return out


def analyse(question: str) -> QuestionTerms:
    """Split a question into names (what it is about) and attributes (what it asks), and classify its shape.

    A word is judged where it stands: "distance" asked of the "Modulino Distance" stays an attribute, and the
    asked head ("How much SRAM", "Which IMU") is never a name, part letter-digit mixes aside."""
    written, question = question, asks.as_which(singular_codes(question))  # "List the sensors on the A": "Which …"
    matches = list(asks.TOKEN.finditer(question))
    tokens = [m.group(0) for m in matches]
    head = asked_head(question)
    names: list[str] = []
    phrases: list[list[str]] = []
    asked: list[str] = []
    described = _described(tokens)
    for i, tok in enumerate(tokens):
        if i in described:  # "the VM-5 vibration monitor": what the named model is, not what is asked of it
            continue
        based = _SUFFIXED.fullmatch(tok)  # "an STM32H747-based board", "UWB-capable": the name, and a word about it
        if based and (PART.fullmatch(based[1]) or based[2] in _ABOUT_NAME and _is_name(based[1], first=False)):
            tok = tokens[i] = based[1]
            asked.append(based[2])
        if 0 < i <= len(head) + (1 if tokens[0].lower() == "how" else 0) and not PART.fullmatch(tok):
            asked.append(tok)
            continue
        first = i == 0 or bool(SENTENCE_END.search(question, matches[i - 1].end(), matches[i].start()))
        if (CHEMICAL.fullmatch(tok) or value_unit(tokens, i) or _rating_code(tokens, i)  # "CO2": what a sensor
                or _glued_value(tok) and fold(tokens[i + 1] if i + 1 < len(tokens) else "") not in _RAIL_WORDS
                or i > 0 and tokens[i - 1].lower() in ("degree", "degrees")  # measures, not a part it has; "60 V":
                or tok.isalpha() and tok.isupper() and tokens[i - 1:i] == ["the"] and tokens[i + 1:i + 2] == ["of"]):
            asked.append(tok)  # a value's unit, and so is "degrees Celsius"; "IP rating": what is asked
            continue
        if _is_name(tok, first=first) or _designated_letter(tokens, i) or (  # "Rev A"
                tok.isdigit() and i > 0 and names and names[-1] == tokens[i - 1]  # "Nano 33",
                and not NUMBER_UNIT.match(question, matches[i].start())):  # not "Minima 48 MHz"
            if _negated(tokens, i):  # "the original Nano 33 BLE, not the Rev2": a name set aside, not asked about
                continue
            if i > 0 and names and names[-1] == tokens[i - 1] and _CODE_AFTER.match(question, matches[i - 1].end()):
                names.append(tok)  # "the Arduino Nano (A000005)": the code is another name of the same thing,
                continue  # not a word of its name (a unit naming the product without its code still names it)
            if i > 0 and names and names[-1] == tokens[i - 1] and not _LIST_MARK.search(question, matches[i - 1].end(),
                                                                                           matches[i].start()):
                phrases[-1].append(tok)  # "Nano 33 BLE Sense Rev2", "Nicla Voice": one name of several words
            else:
                phrases.append([tok])
            names.append(tok)
        else:
            asked.append(tok)
    parts = [n for n in names if PART.fullmatch(n) and not REVISION.fullmatch(n)]
    terms = content_terms(question)
    attributes = as_labelled(question, content_terms(" ".join(asked)) | asks.numbered_codes(tokens))  # "how wide"
    # "Can I power it from 24 V, and what input range does it accept?": a second clause asks for more than yes or no;
    # "Will it work outdoors, when it gets down to -10 °C?" only says when (a "when" or "where" after a bare comma)
    yes_no = (asks.yes_no_wording(question)  # not "Can you list …?", which asks for the facts
              and not asks.second_question(question, words=asks.ASK_WORDS - _NOT_ASKED_AFTER_COMMA)
              and not asks.second_question(question, conjunctions=frozenset({"and", "or"}), words=_CONDITIONS))
    attributes = asks.without_document_words(question, attributes - asks.HAS_VERBS if yes_no else attributes)
    return QuestionTerms(
        text=written,
        terms=terms,
        names=list(dict.fromkeys(names)),
        phrases=phrases,
        parts=list(dict.fromkeys(parts)),
        attributes=attributes,
        wants_value=not yes_no and not _PROSE.search(_HOW_MUCH_SHOULD.sub(" ", question)),
        wants_name=bool(_WHICH.match(question)) or names_a_class(question, head) or asks_kind(attributes),
        count_of=counted_thing(question, head),
        yes_no=yes_no,
        dimensions=asked_quantities(question, attributes) | written_dimensions(question) | checked_quantities(question),
        compares=asks.compared_names(question, phrases),
        together=asked_together(question, matches, head, attributes),
    )


def last_sentence(text: str) -> str:
    """The last sentence of a question ("My board sits at -35 °C. Is that OK?": "Is that OK?"), or all of it."""
    return SENTENCE_END.split(text.strip())[-1]


def asks_yes_no(q: QuestionTerms) -> bool:
    """A yes/no question, also when the asking sentence comes last ("My UNO R3 will live outdoors where nights reach
    -35 °C. Is that OK?"), but not a choice between two named options ("…. Should I use the A or the B?")."""
    last = last_sentence(q.text)
    return q.yes_no or (last != q.text.strip() and analyse(last).yes_no and not asks.alternative_names(q.text, q.phrases))


def checked_quantities(question: str) -> set[str]:
    """Quantities of the values a yes/no question asks about ("… off the 12 V car battery via VIN. Is that within what
    the board can take?" checks a voltage, whatever "battery" asks): the ratings to read are of the same quantity."""
    if not asks.yes_no_wording(last_sentence(question)):  # not "…. Can you tell me the max current?"
        return set()
    return {d for m in NUMBER_UNIT.finditer(question) for d in dimension_of_unit(m.group(2))}


def asked_quantities(question: str, attributes: set[str]) -> set[str]:
    """Quantities the asked words name; a word naming the kind of a part ("the *temperature* sensor") is left out when
    another word asks a quantity ("What supply voltage does the temperature sensor accept?" asks a voltage), not
    only how exact one is. A question asking only a version asks none: the words around it say what changed ("Which
    firmware version fixed the memory leak?"), unlike "… which Bluetooth version, and how much output power?"."""
    if _WHICH_VERSION.search(question) and not asks.second_question(question, bare_and=True):
        return set()
    every = asked_dimensions(attributes)
    kinds = {fold(m.group(1)) for m in _BEFORE_WORD.finditer(question) if fold(m.group(2)) in CLASS_WORDS}
    rest = asked_dimensions(attributes - kinds)
    return rest if rest - {"ratio"} else every  # "the accuracy of the temperature sensor" is a temperature accuracy


_WHICH_VERSION = re.compile(r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}versions?\b(?!\s+of\b)", re.IGNORECASE)  # asked
_BEFORE_WORD = re.compile(r"(?=\b([A-Za-z]+)\s+([A-Za-z]+)\b)")  # every pair of adjacent words
_JOINED_FILLERS = frozenset({"the", "its", "their", "a", "an"})


def asked_together(question: str, matches: list[re.Match[str]], head: list[str], attributes: set[str]) -> list[list[str]]:
    """Groups of asked words (folded) the question wants each of: a listed head ("How much Flash, SRAM and EEPROM")
    and asked words joined by "and" ("the dimensions and the weight", "current and voltage ratings", with the words
    listed before them after commas: "in sleep, idle and active modes"; not a clause joined by ", and …")."""
    groups = [[fold(w) for w in head if fold(w) in attributes]] if _LISTED.search(" ".join(head)) else []
    tokens = [m.group(0) for m in matches]
    for i, tok in enumerate(tokens[1:-1], 1):
        right = next((t for t in tokens[i + 1:] if t.lower() not in _JOINED_FILLERS), "")
        pair = [fold(tokens[i - 1]), fold(right)]
        clause = "," in question[matches[i - 1].end():matches[i].start()]
        if tok.lower() == "and" and not clause and all(w in attributes for w in pair) and pair[0] != pair[1]:
            j = i - 1  # "the weight, length and width": the words listed before the pair, each after a comma
            while j > 0 and question[matches[j - 1].end():matches[j].start()].strip() == "," and fold(tokens[j - 1]) in attributes:
                j, pair = j - 1, [fold(tokens[j - 1]), *pair]
            groups.append(list(dict.fromkeys(pair)))
    return [g for g in groups if len(g) > 1]


# "Nano (A000005)", "Nano 33 BLE (ABX00030, not the Rev2)": a part code opening brackets right after a name.
_CODE_AFTER = re.compile(rf"\s*\(\s*{PART.pattern}\s*[),;]")
