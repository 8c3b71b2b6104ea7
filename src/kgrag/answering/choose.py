"""Choice questions: two named products offered for one need ("Should I use the A or the B for always-on keyword
spotting?", "The node must run at -20 °C: the A or the B?"). Each option's evidence is read from the units about
it: how many of the need's words its best unit holds, whether a value the question writes fits the option's rated
value or range, and whether the option's units say it does *not* do it. Answered only when one option clearly wins,
with the quotes of both, so the user sees why; otherwise the question goes the usual way (a small model picks the
wrong side of such questions about as often as the right one)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgrag.answering.about import unit_about
from kgrag.answering.asks import alternative_names
from kgrag.answering.numbers import number_value
from kgrag.answering.ratings import fit, missed_how, scaled_value
from kgrag.answering.select import Scored
from kgrag.answering.terms import PRODUCT_WORDS, QuestionTerms
from kgrag.answering.values import NUMBER_UNIT, dimension_of_unit, dimension_words
from kgrag.answering.words import content_terms, words_found
from kgrag.graph.rules_patterns import INTERFACE
from kgrag.ingest.clean import squash

# The words of a question that offer a choice; without one, "A or B" is no request to pick ("Does the A or the B
# have a CAN bus?" is two yes/no questions).
_CHOICE = re.compile(r"\b(?:better|best|suited|suitable|choice|choose|pick|prefer\w*|recommend\w*|fits?|go with|"
                     r"should\s+(?:I|we)\s+(?:use|get|buy|take))\b", re.IGNORECASE)
# Words of the choice itself, not of the need: "Which board is better suited for …", "I am …", "…, and why?"
CHOICE_WORDS = frozenset({
    "better", "best", "suited", "suitable", "suit", "choice", "choose", "pick", "prefer", "recommend", "fit",
    "go", "use", "need", "want", "require", "requirement", "project", "application", "am", "based", "why",
    "good", "right", "option", "must"
})
# A unit saying the product does not do it: "is NOT 5V tolerant", "not compatible with", "only supports 3.3V"; not
# a limit ("can't exceed 85 °C and shouldn't be lower than -40 °C" rates a range, it denies nothing).
DENIES = re.compile(r"\b(?:not|cannot|can't|doesn't|isn't|incompatible|unsupported|only\s+supports?)\b"
                     r"(?!\s+(?:exceed|be\s+(?:lower|higher|less|more|greater|below|above)))", re.IGNORECASE)
# The value the question writes is an upper bound of what the product may have ("draws less than 10 mA").
_AT_MOST = re.compile(r"\b(?:less than|under|below|at most|no more than|lower than|up to|within)\s*$", re.IGNORECASE)
MIN_WORDS = 2  # need words the winner's best unit holds
MARGIN = 2  # and how many more than the other option's best unit


@dataclass
class Side:
    """One option's evidence: its best unit for the need (and how many need words it holds), a unit whose rated
    value or range the asked value fits or misses, and a unit denying the need."""

    name: list[str]
    units: int = 0  # units about the option at all: with none, its documents were not found, so nothing is known
    best: Scored | None = None
    words: int = 0
    fits: Scored | None = None
    misses: Scored | None = None
    denies: Scored | None = None
    support: list[tuple[int, Scored]] = field(default_factory=list)  # units holding need words, with how many
    interfaces: set[str] = field(default_factory=set)  # the asked interfaces its units name
    connects: Scored | None = None  # its unit naming the most asked interfaces
    first: Scored | None = None  # its best ranked unit at all (whose document title names the option in full)


def need_terms(q: QuestionTerms, sides: list[list[str]]) -> set[str]:
    """The question's words that say what the product must do: not the options' names, not the choice's words,
    not bare numbers or the units of the values it writes (the values are checked as values; "mm" of "a 3 mm cover"
    is in every passage giving a length)."""
    names = {w.lower() for side in sides for w in side}
    units = {m.group(2).lower() for m, _ in _written(q.text)}
    return {t for t in q.terms if t not in names and t not in CHOICE_WORDS and t not in PRODUCT_WORDS
            and not t.replace(".", "").isdigit() and t not in units}


def _written(question: str) -> list[tuple[re.Match[str], float]]:
    """Each number-with-unit the question writes whose number reads, with that number."""
    return [(m, number) for m in NUMBER_UNIT.finditer(question) if (number := number_value(m.group(1))) is not None]


def written_values(question: str) -> list[tuple[float, str, bool]]:
    """The values the question writes, each as (number in its base unit, the base unit, True when it is an upper
    bound: "draws less than 10 mA")."""
    out = []
    for m, number in _written(question):
        scaled, unit = scaled_value(number, m.group(2))
        out.append((scaled, unit, bool(_AT_MOST.search(question[:m.start()]))))
    return out


def written_value_texts(question: str) -> list[str]:
    """The values the question writes as it writes them ("500 mAh", "110 VDC"), in `written_values` order."""
    return [m.group(0).strip() for m, _ in _written(question)]


def asked_value(question: str) -> tuple[float, str, bool] | None:
    """The one value the question writes, or None (none, or several)."""
    values = written_values(question)
    return values[0] if len(values) == 1 and len(NUMBER_UNIT.findall(question)) == 1 else None


_SAME_INTERFACE = {"ble": "bluetoothlowenergy", "bluetoothle": "bluetoothlowenergy", "canbus": "can"}


def interface_key(name: str) -> str:
    """One key per interface however it is written: "RS-485" / "RS485", "Wi-Fi" / "WiFi", "BLE" / "Bluetooth LE"."""
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    return _SAME_INTERFACE.get(key, key)


def interfaces_in(text: str, sides: list[list[str]]) -> set[str]:
    """The interfaces `text` names, not counting the options' own names ("MKR WiFi 1010" names no Wi-Fi)."""
    return set(interface_names(text, sides))


def interface_names(text: str, sides: list[list[str]]) -> dict[str, str]:
    """Each interface `text` names (key -> as first written), not counting the options' own names."""
    for side in sides:
        text = re.sub(re.escape(" ".join(side)), " ", text, flags=re.IGNORECASE)
    out: dict[str, str] = {}
    for m in INTERFACE.finditer(text):
        out.setdefault(interface_key(m.group(0)), m.group(0))
    return out


def _covers(found: set[str], asked: str) -> bool:
    """A named interface is the asked one or a kind of it ("Bluetooth Low Energy" is Bluetooth)."""
    return any(f == asked or f.startswith(asked) for f in found)


def read_side(name: list[str], other: list[str], need: set[str], value: tuple[float, str, bool] | None,
              ranked: list[Scored], titles: dict[int, str], asked: frozenset[str] = frozenset()) -> Side:
    """The evidence about one option among the ranked units (its own, not the other option's); with `asked`
    interfaces, which of them its units name."""
    side = Side(name)
    best_count = 0
    quantity = dimension_words(dimension_of_unit(value[1])) if value else set()  # "temperature" for a value in °C
    for s in ranked:
        if not unit_about(name, s, titles) or unit_about(other, s, titles):
            continue
        side.units += 1
        side.first = side.first or s
        text = s.unit.scoped()
        if asked:
            found = interfaces_in(text, [name, other])
            named = {a for a in asked if _covers(found, a)}
            side.interfaces |= named
            if len(named) > best_count:
                side.connects, best_count = s, len(named)
        words = content_terms(text)
        found = len(words_found(need, words))
        valued = value is not None and (found > 0 or bool(quantity & words))  # a row about the need or the quantity
        verdict = fit(s.unit.value_text(), value) if valued and value else None
        if DENIES.search(s.unit.text) and (found >= MIN_WORDS or verdict is not None):
            side.denies = side.denies or s
            continue
        if verdict is True:
            side.fits = side.fits or s
        elif verdict is False:
            side.misses = side.misses or s
        if found > side.words:
            side.best, side.words = s, found
        if found:
            side.support.append((found, s))
    return side


def second_quote(side: Side, shown: Scored) -> Scored | None:
    """The chosen option's next unit holding the most need words (at least MIN_WORDS) that says something the shown
    one does not."""
    said = squash(shown.unit.display())
    for found, s in sorted(side.support, key=lambda fs: -fs[0]):  # stable: the better ranked first among equals
        key = squash(s.unit.display())
        if found >= MIN_WORDS and s is not shown and key not in said and said not in key:
            return s
    return None


def winner(a: Side, b: Side, asked: frozenset[str] = frozenset()) -> tuple[Side, Scored, Scored | None] | None:
    """(the chosen option, its deciding unit, the other option's unit to show) when one option clearly wins."""
    for one, two in ((a, b), (b, a)):
        if one.fits and not two.fits and two.misses:  # the asked value fits one option's rating, not the other's
            return one, one.fits, two.misses
    for one, two in ((a, b), (b, a)):
        if two.denies and not one.denies and one.best and one.words >= MIN_WORDS:  # "the B is NOT 5V tolerant"
            return one, one.best, two.denies
    for one, two in ((a, b), (b, a)):  # "I need CAN bus and RS-485": one option's documents name every asked
        if (asked and one.connects and one.interfaces == asked and two.units  # interface, the other's not all of
                and two.interfaces < asked and not one.denies):  # them (its documents were found)
            return one, one.connects, two.connects  # the other's passage naming some of them, if any
    if a.fits or a.misses or b.fits or b.misses:  # the question's value was checked: words do not overrule it
        return None
    for one, two in ((a, b), (b, a)):
        if (one.best and one.words >= MIN_WORDS and one.words >= two.words + MARGIN and not one.denies
                and not one.misses and two.units):
            return one, one.best, two.best if two.words else None
    return None


def quote_unit(s: Scored, titles: dict[int, str], name: list[str], led: Scored | None = None) -> str:
    """The unit with its marker, led by its product unless the quote before (`led`) was the same product's."""
    title = titles.get(s.unit.block, "") or " ".join(name)
    text = s.unit.display().rstrip(" .;")
    same = led is not None and (titles.get(led.unit.block, "") or " ".join(name)) == title
    lead = "" if same or title.lower() in text.lower() else f"{title}: "
    return f"{lead}{text} [{s.unit.cited()}]."


def bare_pick(question: str, sides: list[list[str]]) -> bool:
    """The question ends in a sentence of the two options only: "…, without any gateway. Nicla Voice or Nicla
    Vision?" asks to pick one."""
    last = re.split(r"(?<=[.!?:])\s+", question.strip())[-1]
    names = {w.lower() for side in sides for w in side} | {"the", "a", "an", "or", "arduino"}
    words = re.findall(r"[\w-]+", last.lower())
    return bool(words) and "or" in words and all(w in names for w in words)


def try_choose(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The option the documents' evidence picks, its deciding quote and the other option's closest one; None unless
    the question offers two products for a need and one clearly wins."""
    sides = alternative_names(q.text, q.phrases)
    if len(sides) != 2 or not (_CHOICE.search(q.text) or bare_pick(q.text, sides)):
        return None
    need = need_terms(q, sides)
    value = asked_value(q.text)
    written = interface_names(q.text, sides)  # the asked interfaces, as the question writes them
    asked = frozenset(written)
    a, b = (read_side(one, two, need, value, ranked, titles, asked) for one, two in (sides, sides[::-1]))
    won = winner(a, b, asked)
    if won is None:
        return None
    chosen, unit, shown = won
    other = b if chosen is a else a
    said = written_value_texts(q.text)[0] if value and not value[2] and chosen.fits is unit else ""  # "12 V"
    text = f"The {' '.join(chosen.name)}. {quote_unit(unit, titles, chosen.name)}"
    if said:  # the asked value against both ratings
        text += f" {said} is within this rating [{unit.unit.cited()}]."
    more = second_quote(chosen, unit)  # why, in a second passage of the chosen option
    if more is not None:
        text += f" {quote_unit(more, titles, chosen.name, led=unit)}"
    by_interfaces = bool(asked) and unit is chosen.connects
    lacking = [w for key, w in written.items() if key not in other.interfaces] if by_interfaces else []
    if lacking:  # what the other option's passages do not name, said rather than shown by an unrelated passage
        title = (titles.get(other.first.unit.block, "") if other.first else "") or " ".join(other.name)
        text += f" The passages found on the {title} name no {' or '.join(lacking)}."
    if shown is None:
        return text
    text += f" {quote_unit(shown, titles, other.name)}"
    if said and value:
        text += f" {said} {missed_how(shown.unit.value_text(), value)} this rating [{shown.unit.cited()}]."
    return text
