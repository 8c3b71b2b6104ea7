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
from kgrag.answering.select import Scored
from kgrag.answering.terms import PRODUCT_WORDS, QuestionTerms
from kgrag.answering.values import NUMBER, NUMBER_UNIT, RANGE_ENDS, canonical_unit, dimension_of_unit, dimension_words
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
        scaled, unit = _scaled(number, m.group(2))
        out.append((scaled, unit, bool(_AT_MOST.search(question[:m.start()]))))
    return out


def written_value_texts(question: str) -> list[str]:
    """The values the question writes as it writes them ("500 mAh", "110 VDC"), in `written_values` order."""
    return [m.group(0).strip() for m, _ in _written(question)]


MISSED_NOMINAL = "does not match"


def missed_how(text: str, value: tuple[float, str, bool]) -> str:
    """How a value `text` does not fit stands to its rating: "exceeds" or "is below" a range or limit, "is outside"
    one, or "does not match" a nominal value ("powered with 24 V")."""
    kinds = {kind for ok, kind in judge(text, value) if not ok}
    if not kinds & {"range", "limit", "floor"}:
        return MISSED_NOMINAL
    rated = rated_numbers(text, value[1])
    if rated and value[0] > max(rated) and kinds & {"range", "limit"}:
        return "exceeds"
    if rated and value[0] < min(rated) and kinds & {"range", "floor"}:
        return "is below"
    return "is outside"


def rated_numbers(text: str, unit: str) -> list[float]:
    """The numbers `text` gives in `unit` (a base unit: "V", "°C"), range ends included, scaled to it."""
    written = [(raw, m.group(3)) for m in RANGE_ENDS.finditer(text) for raw in (m.group(1), m.group(2))]
    written += [(m.group(1), m.group(2)) for m in NUMBER_UNIT.finditer(text)]
    scaled = [_scaled(number, written_unit) for raw, written_unit in written if (number := number_value(raw)) is not None]
    return [number for number, base in scaled if base == unit]


def value_span(text: str, dims: set[str]) -> tuple[float, float, str] | None:
    """(low, high, unit) of the one range of the `dims` quantity `text` rates ("-20 to 80 °C", "can't exceed 85℃ and
    shouldn't be lower than -40℃", a min / typ / max row), or None."""
    units = {_scaled(1.0, m.group(2))[1] for m in NUMBER_UNIT.finditer(text)  # "℃" read as "°C" (`_scaled`)
             if dimension_of_unit(m.group(2)) & dims}
    numbers = set(rated_numbers(text, next(iter(units)))) if len(units) == 1 else set()
    return (min(numbers), max(numbers), next(iter(units))) if len(numbers) in (2, 3) else None


def asked_value(question: str) -> tuple[float, str, bool] | None:
    """The one value the question writes, or None (none, or several)."""
    values = written_values(question)
    return values[0] if len(values) == 1 and len(NUMBER_UNIT.findall(question)) == 1 else None


_PREFIX = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "m": 1e-3, "µ": 1e-6, "u": 1e-6, "n": 1e-9}
# Quantities a product offers "enough of": a need of 40 kB fits 48 kB of flash, 100 Mbps fits 1 Gbps.
_AT_LEAST = frozenset({"memory", "data_rate", "frequency", "resolution", "capacity", "current", "power"})
# A length is offered as enough only as a reach ("a range of 4 m", "cable length 3 m"): a 3 m reach fits a 4 m one.
# Any other length is a size of the product or of a part ("18 mm x 45 mm", "pixel size of 0.108 mm") and rates
# nothing a user measures (a 3 mm cover, boards 100 m apart).
_REACH = re.compile(r"\b(?:range|distance|reach|cable|wire|wiring|length|span)\b", re.IGNORECASE)
# Two values of one unit under these words are the ends of a range ("thermal limits: -40 °C … 85 °C", "Min | Max").
LIMITS = re.compile(r"\b(?:limits?|min(?:imum)?\b.*\bmax(?:imum)?|range|between|exceed\w*\b.*\b(?:lower|less|below)|"
                    r"(?:lower|less|below)\b.*\bexceed\w*)\b", re.IGNORECASE)  # "can't exceed 85℃ and shouldn't be lower than -40℃"
_MAX, _MIN = r"max(?:imum)?", r"min(?:imum)?"
# Words saying a single value is a limit, not a nominal value: "rated voltage 250 VAC", "up to 480 MHz", "≤ 600 Ω".
_LIMIT = re.compile(rf"(?:\b(?:{_MAX}|up to|rated|limit|(?:must|shall|should) not exceed|≤|<)\W*(?:\w+\W+){{0,3}})$",
                    re.IGNORECASE)
# Words saying a single value is a lower limit: "specified minimum input voltage is 4.5 V", "at least 7 V".
_FLOOR = re.compile(rf"(?:\b(?:{_MIN}|at least|no less than|≥|>)\W*(?:\w+\W+){{0,3}})$", re.IGNORECASE)
# The same words right after a value, ending it: "1024 mAh Minimum", "12 V max" (not "5 V max 500 mA": the next value's).
_FLOOR_AFTER, _LIMIT_AFTER = (re.compile(rf"\W{{0,3}}{word}\b(?!\W{{0,3}}[-+]?\d)", re.IGNORECASE) for word in (_MIN, _MAX))
# A value a regulator brings the supply to is its output, not an input rating: "VIN is regulated by an LDO so the
# supply is limited to 5 V", "a regulator which limits the voltage to 3.3V" (not "regulates input from up to 21V", nor
# "must be supplied with a voltage regulated to 5 V", which asks the input to be 5 V: no regulating device is named).
_REGULATED_TO = re.compile(r"\b(?:regulators?|regulates|regulated by|LDO|DC-?DC|step(?:s|ped)?[- ]down)\b[^.;]*?"
                           r"(?<!\bup )\bto\s*$", re.IGNORECASE)
# A voltage and a current joined by a slash (or a space, before a switching part's name) rate what switches or carries
# them: "60V/2.5A", "10A/250VAC", "four 60V 2.5A solid state relays"; not "3.3V/5V", two levels of one quantity.
_PAIR_AFTER = re.compile(rf"^(?:\s?/\s?{NUMBER}\s?(V|VAC|VDC|A|mA)(?![\w])|\s{NUMBER}\s?(V|VAC|VDC|A|mA)(?=(?:\s[\w-]+)"
                         r"{0,2}\s(?:relays?|switch\w*|contacts?|SSRs?|MOSFETs?)\b))", re.IGNORECASE)
_PAIR_BEFORE = re.compile(rf"(?<![\w.]){NUMBER}\s?(V|VAC|VDC|A|mA)\s?/\s?$")


def _condition(before: str, dims: set[str]) -> bool:
    """The value stands in parentheses right after a value of another quantity: the condition it was measured at
    ("24.4 µA (14-bit resolution, 3.3 V supply)"), not a rating of its own quantity."""
    opened = before.rfind("(")
    if opened < 0 or ")" in before[opened:]:
        return False
    measured = list(NUMBER_UNIT.finditer(before[:opened]))
    return bool(measured) and not dimension_of_unit(measured[-1].group(2)) & dims and not before[
        measured[-1].end():opened].strip(" :;,")


def _scaled(number: float, unit: str) -> tuple[float, str]:
    """The value in the unit without its prefix ("48 kB" -> 48000 B, "230 VAC" -> 230 V) when that is a unit of the
    same quantity; "°C", "dBm" stay as written."""
    unit = canonical_unit(re.sub(r"(?i)(?<=V)(?:AC|DC)$", "", unit.strip()))
    head, rest = unit[:1], unit[1:]
    if head in _PREFIX and rest and dimension_of_unit(rest) & dimension_of_unit(unit):
        return number * _PREFIX[head], rest
    return number, unit


def judge(text: str, value: tuple[float, str, bool]) -> list[tuple[bool, str]]:
    """How the asked value stands to each rating `text` gives in the same unit, with the rating's kind: inside a
    "range"; at most a single value written as a "limit" ("rated", "up to", "12 V max") or of a quantity offered as
    enough ("48 kB" of flash); at least one written as a "floor" ("at least 7 V", "1024 mAh Minimum"); equal to a
    "nominal" value ("powered with 24 V" does not take 12 V); for an upper bound, a rated value at most the asked one
    (a "limit"). Empty when the text rates nothing in that unit."""
    number, unit, upper = value
    dims = dimension_of_unit(unit)
    verdicts: list[tuple[bool, str]] = []
    spans = []
    for m in RANGE_ENDS.finditer(text):
        low, high = number_value(m.group(1)), number_value(m.group(2))
        if low is None or high is None:
            continue
        (low, base), (high, _) = _scaled(low, m.group(3)), _scaled(high, m.group(3))
        if base == unit:
            verdicts.append((min(low, high) <= number <= max(low, high), "range"))
            spans.append(m.span())
    singles = [(m, _scaled(raw, m.group(2))) for m in NUMBER_UNIT.finditer(text)
               if (raw := number_value(m.group(1))) is not None and not any(a <= m.start() < b for a, b in spans)]
    ends = [rated for _, (rated, base) in singles if base == unit]
    if not verdicts and len(ends) == 2 and LIMITS.search(text):  # "thermal limits: -40 °C (-40 °F) 85 °C (185 °F)"
        return [(min(ends) <= number <= max(ends), "range")]
    if not verdicts and len(ends) == 3 and ends[0] < ends[1] < ends[2]:  # a min / typ / max row: "-40 | 25 | 85 | °C"
        return [(ends[0] <= number <= ends[2], "range")]
    for m, (rated, base) in singles:
        before, after = text[:m.start()], text[m.end():]
        clause = re.split(r"[.;\n]\s", before)[-1]  # the words of the value's own clause before it
        if base != unit or _REGULATED_TO.search(clause) or _condition(before, dims) or unit == "V" and (
                _PIN_BEFORE.search(before) or _PIN_AFTER.match(after)):
            continue
        if upper:
            verdicts.append((rated <= number, "limit"))
        elif _FLOOR_AFTER.match(after):
            verdicts.append((number >= rated, "floor"))
        elif _LIMIT.search(before) or _LIMIT_AFTER.match(after) or _offered(clause, dims) or _paired(before, after, dims):
            verdicts.append((abs(number) <= abs(rated), "limit"))
        elif _FLOOR.search(before):
            verdicts.append((number >= rated, "floor"))
        elif "length" in dims:  # a size, not a rating
            continue
        else:
            verdicts.append((abs(rated - number) <= 0.01 * abs(number), "nominal"))
    return verdicts


# A voltage naming a pin, not rating one: "the 5V pin", "through the pin 3.3V", "header pins (5V, VIN)"
_PIN_AFTER = re.compile(r"\s?(?:pins?|pads?)\b", re.IGNORECASE)
_PIN_BEFORE = re.compile(r"\b(?:pins?|pads?)\s*(?:\(\s*(?:[\w.+]+\s*,\s*)*)?$", re.IGNORECASE)


def _offered(clause: str, dims: set[str]) -> bool:
    """The value is of a quantity a product offers enough of: any memory, rate or current, a length only as a reach
    named in its own `clause` (the words before it since the last sentence end)."""
    return bool(dims & _AT_LEAST) or ("length" in dims and _REACH.search(clause) is not None)


def _paired(before: str, after: str, dims: set[str]) -> bool:
    """The value is one side of a voltage/current pair ("60V/2.5A"): a rating of what switches or carries it."""
    other = _PAIR_AFTER.match(after) or _PAIR_BEFORE.search(before)
    return other is not None and not dimension_of_unit(_scaled(1.0, other[other.lastindex or 1])[1]) & dims


def fit(text: str, value: tuple[float, str, bool]) -> bool | None:
    """Does the asked value fit any rating `text` gives in its unit (`judge`)? None when the text rates nothing."""
    verdicts = judge(text, value)
    return any(ok for ok, _ in verdicts) if verdicts else None


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
