"""How a value stands to the ratings a passage gives in its unit: inside a range, under a limit, over a floor, equal to
a nominal value (`judge`, `fit`), and how a missed one misses (`missed_how`). Shared by the yes/no ratings (suits),
the choices between two products (choose) and the comparisons (compare)."""

from __future__ import annotations

import re

from kgrag.answering.numbers import number_value
from kgrag.answering.values import NUMBER, NUMBER_UNIT, RANGE_ENDS, canonical_unit, dimension_of_unit

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


def scaled_value(number: float, unit: str) -> tuple[float, str]:
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
        (low, base), (high, _) = scaled_value(low, m.group(3)), scaled_value(high, m.group(3))
        if base == unit:
            verdicts.append((min(low, high) <= number <= max(low, high), "range"))
            spans.append(m.span())
    singles = [(m, scaled_value(raw, m.group(2))) for m in NUMBER_UNIT.finditer(text)
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
        elif _DENIED.search(clause):  # "is NOT 5V tolerant": it rules out that value and says nothing of another
            if abs(rated - number) <= 0.01 * abs(number):
                verdicts.append((False, "denied"))
        else:  # "only supports 3.3V I/Os": every other value is ruled out
            verdicts.append((abs(rated - number) <= 0.01 * abs(number), "only" if _ONLY.search(clause) else "nominal"))
    return verdicts


# Words before a value that rule it out: "is NOT 5V tolerant", "Do not apply 5 V to A0", "never connect 12 V" (not a
# limit: "not more than 5 V", "must not exceed 5 V" is one)
_DENIED = re.compile(r"\b(?:not|never)\s+(?!(?:more|less|higher|lower|greater|exceed\w*|above|below|over|under)\b)"
                     r"(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
# Words before a value saying it is the one value the product takes: "only supports 3.3V I/Os", "the only operating
# input voltage is +3.3 VDC"
_ONLY = re.compile(r"\bonly\b\W*(?:[\w-]+\W+){0,4}$", re.IGNORECASE)


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
    return other is not None and not dimension_of_unit(scaled_value(1.0, other[other.lastindex or 1])[1]) & dims


def fit(text: str, value: tuple[float, str, bool]) -> bool | None:
    """Does the asked value fit any rating `text` gives in its unit (`judge`)? None when the text rates nothing."""
    verdicts = judge(text, value)
    return any(ok for ok, _ in verdicts) if verdicts else None


MISSED_NOMINAL = "does not match"
RULED_OUT = "is ruled out by"  # a value the text denies ("NOT 5V tolerant") or that is not the only one it takes


def missed_how(text: str, value: tuple[float, str, bool]) -> str:
    """How a value `text` does not fit stands to its rating: "is ruled out by" a denial or an only value, "exceeds" or
    "is below" a range or limit, "is outside" one, or "does not match" a nominal value ("powered with 24 V")."""
    kinds = {kind for ok, kind in judge(text, value) if not ok}
    if kinds & {"denied", "only"}:
        return RULED_OUT
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
    scaled = [scaled_value(number, written_unit) for raw, written_unit in written if (number := number_value(raw)) is not None]
    return [number for number, base in scaled if base == unit]


def value_span(text: str, dims: set[str]) -> tuple[float, float, str] | None:
    """(low, high, unit) of the one range of the `dims` quantity `text` rates ("-20 to 80 °C", "can't exceed 85℃ and
    shouldn't be lower than -40℃", a min / typ / max row), or None."""
    units = {scaled_value(1.0, m.group(2))[1] for m in NUMBER_UNIT.finditer(text)  # "℃" read as "°C" (`scaled_value`)
             if dimension_of_unit(m.group(2)) & dims}
    numbers = set(rated_numbers(text, next(iter(units)))) if len(units) == 1 else set()
    return (min(numbers), max(numbers), next(iter(units))) if len(numbers) in (2, 3) else None
