"""Words of a text as the answering layer compares them: folded (lower case, simple plurals and British spellings),
stop and question words dropped, and stems of longer words, so "boards'" meets "board" and "measured" "measurement"."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-_/]*")
_STOP_TEXT = ("the a an of to in on for and or is are was were be by with as at from that this it its what which if but "
              "off roughly approximately around just really actually exactly even ever get gets got going go goes")
STOP_WORDS = frozenset(_STOP_TEXT.split())
# Words that say what is asked, not what about: ignored when checking that the context covers a question.
_QUESTION_TEXT = """what which who whom whose when where why how is are was were be been does do did can could should would will
    there than then into about between more most less least any all each other such only same so very also use used
    using uses have has had your you i we our they them he she his her my me these those their much many
    few several some"""  # quantifiers say how a user sees it ("rebooting every few weeks"), not what it is
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split())


def fold(raw: str) -> str:
    """A word lower-cased with possessives and simple plurals folded (`boards'`, `Nano's` -> `board`, `nano`); "-ss"
    and "-us" are no plurals ("class", "luminous", "status"); a voltage in the letter-for-point notation of schematics
    and pin tables is the value a user writes ("3V3" -> "3.3v")."""
    word = raw.lower().strip(".-_/")
    if _POINT_LETTER.match(word):
        return word.replace("v", ".", 1) + "v"
    if word.endswith("'s"):
        word = word[:-2]
    if word.endswith("s") and len(word) > 3 and not any(ch.isdigit() for ch in word) and not word.endswith(("ss", "us")):
        word = word[:-1]
    return _AMERICAN.get(word, _ABBREVIATED.get(word, word))


_POINT_LETTER = re.compile(r"^\d{1,2}v\d$")  # "3v3", "1v8"; "5v" and "v3" are no such notation

# British spellings a question may use where a datasheet writes the American one ("colours" ~ "colors").
_AMERICAN = {"colour": "color", "behaviour": "behavior", "favour": "favor", "metre": "meter", "centre": "center",
             "fibre": "fiber", "litre": "liter", "aluminium": "aluminum", "grey": "gray", "analogue": "analog",
             "catalogue": "catalog", "programme": "program", "licence": "license", "defence": "defense",
             "mould": "mold", "tyre": "tire", "modelling": "modeling", "travelling": "traveling", "labelled": "labeled"}


# Abbreviations tables write for a word a question writes in full ("Power consumption (max.)", "hardware rev A/B").
_ABBREVIATED = {"rev": "revision", "max": "maximum", "typ": "typical", "hw": "hardware", "fw": "firmware"}


def words_of(text: str) -> list[str]:
    """The raw words of `text`; a slash-joined pair is also its two words ("Timer/Counter" answers "timers"), and an
    identifier of software documents also its words ("bacnet.apdu_timeout_ms" answers "apdu timeout")."""
    out = []
    for raw in _WORD.findall(text):
        out.append(raw)
        if "_" in raw or "." in raw and _DOTTED.search(raw):
            out.extend(part for part in _JOINS.split(raw) if len(part) > 1)
        elif "/" in raw:
            out.extend(part for part in raw.split("/") if len(part) > 1)
    return out


_DOTTED = re.compile(r"[A-Za-z]\.[A-Za-z]")  # "Session.read_points", "cloud.endpoint"; "3.3V" is no identifier
_JOINS = re.compile(r"[._/]")


def content_terms(text: str) -> set[str]:
    """Lower-cased, folded content words of `text` (stop words and question words dropped)."""
    out = set()
    for raw in words_of(text):
        word = fold(raw)
        low = raw.lower()
        if len(word) < 2 or word in STOP_WORDS or word in QUESTION_WORDS or low in STOP_WORDS or low in QUESTION_WORDS:
            continue
        out.add(word)
    return out


def term_list(text: str) -> list[str]:
    """Folded words of `text` in order, stop words kept out (the token stream BM25 scores)."""
    return [w for w in (fold(r) for r in words_of(text)) if len(w) > 1 and w not in STOP_WORDS]


# "three UNO R4s", "Nano ESP32s", "MKR WAN 1310s": a model code made plural with a lower-case "s"
_PLURAL_CODE = re.compile(r"\b([A-Za-z][A-Za-z0-9.\-]*\d|\d+)s\b")
_NAME_BEFORE = re.compile(r"\b[A-Z][A-Z0-9][A-Za-z0-9]*\s$")  # "WAN 1310s"; not "Wait 10s"


def singular_codes(text: str) -> str:
    """`text` with the plural "s" a user adds to model codes dropped ("two UNO R4s" -> "two UNO R4"): a code with a
    capital letter, or a number after a word in capitals; a bare number's "s" is a time or a decade ("Wait 10s", "1990s")."""
    def singular(m: re.Match[str]) -> str:
        code = m[1]
        named = any(c.isupper() for c in code) or code.isdigit() and _NAME_BEFORE.search(text, 0, m.start())
        return code if named else m[0]
    return _PLURAL_CODE.sub(singular, text)


def code_words(text: str) -> set[str]:
    """The folded words of `text` with the letter groups of its codes ("RMA-24-0873" also writes "rma")."""
    words = set(term_list(text))
    return words | {part for word in words if "-" in word for part in word.split("-") if part.isalpha()}


def foreign_share(text: str) -> float:
    """Share of letters outside Latin scripts (a Chinese or Japanese passage for an English question)."""
    letters = [c for c in text if c.isalpha()]
    return sum(1 for c in letters if ord(c) > 0x2FF) / len(letters) if letters else 0.0


def words_found(asked: Iterable[str], words: set[str]) -> set[str]:
    """The asked words that `words` holds, as written or as a word of the same stem ("measured" ~ "measurement")."""
    stems = {stem(w) for w in words}
    return {a for a in asked if a in words or stem(a) in stems}


def all_written(terms: Iterable[str], words: set[str]) -> bool:
    """Every one of `terms` is in `words`, a hyphen-joined one also when its words of three letters or more are
    ("pan-tilt" in "pan tilt mount"; a row label a user types without its hyphen)."""
    return all(t in words or _parts_written(t, words) for t in terms)


def _parts_written(term: str, words: set[str]) -> bool:
    """A hyphen-joined term whose words of three letters or more are all in `words` ("pan-tilt"; not "wi-fi")."""
    parts = [p for p in term.split("-") if len(p) > 2] if "-" in term else []
    return bool(parts) and all(p in words for p in parts)


def stem(word: str) -> str:
    """The first five letters of a longer word: "diagonally" meets "diagonal", "measured" meets "measurement"; a model
    code without its hyphens, as users type it: "dpx260" meets "dpx-260"."""
    if word.isalpha():
        return word[:5] if len(word) > 5 else word
    return _CODE_HYPHEN.sub("", word)


_CODE_HYPHEN = re.compile(r"(?<=[a-z])-(?=\d)")  # "dpx-260", "rs-485": a code's hyphen between letters and digits


# Qualifiers that name different ratings of one quantity: a storage temperature is no operating temperature, an output
# voltage no input voltage (stems, so "operation" counts as "operating")
_OPPOSED = tuple(frozenset(stem(w) for w in group.split()) for group in (
    "operating operation operational storage", "input output", "indoor outdoor", "charging discharging",
    "transmit transmitting receive receiving"))
_QUALIFIERS = frozenset().union(*_OPPOSED)


def asks_rating(asked: Iterable[str]) -> bool:
    """The asked words name one rating of a pair ("storage" of "storage temperature")."""
    stems = {stem(w) for w in asked}
    return any(group & stems for group in _OPPOSED)


# One item's rating against the sum over all of them: "How much current can each output drive?" asks the per-channel
# rating, not "the total output current is limited to 3 A"; "the total output current" not "0.5 A per channel"
_PER_ITEM = re.compile(r"\b(?:each|every|single|individual|per[-\s](?:channel|output|input|port|pin|relay|contact|"
                       r"point|line|lane|slot|cell|led|string|zone|circuit))\b", re.IGNORECASE)
_TOTAL = re.compile(r"\b(?:total|combined|aggregate|summed|overall|per[-\s](?:module|device|board|unit|group|bank))\b",
                    re.IGNORECASE)


def opposed_scope(question: str, text: str) -> bool:
    """The question asks one item's value and `text` gives only a total, or the reverse (`_PER_ITEM`, `_TOTAL`)."""
    per_item, total = bool(_PER_ITEM.search(question)), bool(_TOTAL.search(question))
    if per_item == total:
        return False
    return bool(_TOTAL.search(text)) and not _PER_ITEM.search(text) if per_item else (
        bool(_PER_ITEM.search(text)) and not _TOTAL.search(text))


def opposed_qualifier(asked: Iterable[str], text: str) -> bool:
    """`text` qualifies the asked quantity otherwise than the question does: asked "storage temperature", it writes
    "operating temperature" and no "storage" (not "the board's operation in full temperature range")."""
    asked_stems = {stem(w) for w in asked}
    heads = asked_stems - _QUALIFIERS
    written = [stem(w) for w in term_list(text)]
    for group in _OPPOSED:
        wanted = group & asked_stems
        if wanted and not wanted & set(written) and any(
                w in group and nxt in heads for w, nxt in zip(written, written[1:], strict=False)):
            return True
    return False
