"""Deterministic, numeric-safe name keys and stable ids for entities and relations.

`entity_key` folds case, punctuation, spacing, plurals and generic words, but never touches
numbers or model suffixes: `Nano 33 BLE` != `Nano 33 BLE Rev2`, `BMI270` != `BMI160`, `5 V` != `3.3 V`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

# Words that never identify anything ("the Nano" is "Nano").
ARTICLES = frozenset(["a", "an", "the", "this", "that", "these", "those", "its", "their", "our", "your"])
# Class nouns dropped only next to an identifier ("BMM150 sensor" is "BMM150", "temperature sensor" stays).
GENERIC_WORDS = frozenset(
    ["board", "module", "chip", "device", "unit", "component", "part", "product", "element", "sensor", "ic", "kit"]
)
# Types that say nothing specific: an entity with such a type may merge with any type (resolution).
GENERIC_TYPES = frozenset({"", "entity", "concept", "thing", "other", "misc", "unknown", "object", "noun"})

_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_RANGE = re.compile(r"(?<=\d)\s*(?:-|–|—|~|\.\.|to)\s*(?=[+-]?\d)")
_SIGN = re.compile(r"(?<![\w.])(\+/-|[-−±+])\s*(?=\d)")  # a sign right before a number is part of it
_SIGN_WORDS = {"-": " minus ", "−": " minus ", "±": " plusminus ", "+/-": " plusminus ", "+": " "}
_KEEP = re.compile(r"[^\w.%°+#]+")  # everything else becomes a space
_LOOSE_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")  # a dot not between two digits
_ALNUM_BOUNDARY = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_.])")
_UNDERSCORE = re.compile(r"_+")


def _singular(word: str) -> str:
    """English plural to singular for plain alphabetic words; units, acronyms and numbers are kept."""
    if not word.isalpha() or len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    return word


def name_tokens(text: str) -> list[str]:
    """Normalised tokens of a name or text: lower case, punctuation-free, digits split from letters, singular."""
    text = unicodedata.normalize("NFKC", text).replace("µ", "u").replace("μ", "u")
    text = _POSSESSIVE.sub("", text)
    text = _THOUSANDS.sub("", text)
    text = _RANGE.sub(" to ", text)
    text = _SIGN.sub(lambda m: _SIGN_WORDS[m.group(1)], text)
    text = _KEEP.sub(" ", text.lower())
    text = _UNDERSCORE.sub(" ", text)
    text = _LOOSE_DOT.sub(" ", text)
    text = _ALNUM_BOUNDARY.sub(" ", text)
    return [_singular(w) for w in text.split()]


def _identifier(word: str) -> bool:
    """A word that names one specific thing: has a digit, is an acronym, or is mixed case (nRF, MaxLinear)."""
    letters = [c for c in word if c.isalpha()]
    return any(c.isdigit() for c in word) or (len(letters) >= 2 and (word.isupper() or any(c.isupper() for c in word[1:])))


def entity_key(name: str) -> str:
    """The resolution/blocking key of an entity name; equal keys mean "the same name"."""
    tokens = name_tokens(name)
    if not name.strip()[:1].isdigit():  # a value's "A" is amperes: "2A" is not "2"
        tokens = [t for t in tokens if t not in ARTICLES] or tokens
    if any(_identifier(w) for w in name.split() if _singular(w.lower()) not in GENERIC_WORDS):
        tokens = [t for t in tokens if t not in GENERIC_WORDS] or tokens
    return " ".join(tokens)


def type_key(entity_type: str) -> str:
    """A canonical type label: `sensors`, `SENSOR`, ` Sensor ` -> `Sensor`; `power_supply` -> `PowerSupply`."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", entity_type.strip())
    parts = [_singular(w.lower()) for w in re.split(r"[\s_\-/]+", words) if w]
    return "".join(p[:1].upper() + p[1:] for p in parts)


def is_generic_type(entity_type: str) -> bool:
    """True for types that carry no information (empty, Entity, Concept, Other ...)."""
    return type_key(entity_type).lower() in GENERIC_TYPES


def relation_key(relation_type: str) -> str:
    """A canonical relation label in plain words: `CONNECTS_TO`, `connects-to` -> `connects to`."""
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", unicodedata.normalize("NFKC", relation_type))
    return " ".join(re.sub(r"[^\w]+|_", " ", words.lower()).split()) or "related to"


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


def entity_id(name: str, entity_type: str = "") -> str:
    """Stable entity id from the type and the resolution key, so re-extraction is idempotent."""
    return "e" + _digest(f"{type_key(entity_type)}|{entity_key(name)}")


def relation_id(source_id: str, relation_type: str, target_id: str) -> str:
    """Stable relation id from its two ends and its canonical label."""
    return "r" + _digest(f"{source_id}|{relation_key(relation_type)}|{target_id}")


def mentioned_in(name: str, text_tokens: str) -> bool:
    """True if the name's tokens occur as a contiguous run in `text_tokens` (a space-joined `name_tokens`)."""
    needle = " ".join(name_tokens(name))
    return bool(needle) and f" {needle} " in f" {text_tokens} "
