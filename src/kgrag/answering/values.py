"""Value patterns of technical documents (numbers with units, ranges, tolerances, part numbers) and unit dimensions.

`DIMENSIONS` is general engineering knowledge (which units measure which quantity and which words name
that quantity); it lets "the temperature accuracy" prefer a row in °C over a row in %RH. Nothing here
knows a product or a question.
"""

from __future__ import annotations

import re

from kgrag.graph.rules_patterns import MULTIPLIER
from kgrag.ingest.clean import SAME_UNIT_SIGNS

# quantity -> (words that ask for it, units that measure it); units compared case-sensitively first.
DIMENSIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "voltage": (("voltage", "volt", "vin", "vcc", "vdd"), ("V", "mV", "kV", "µV", "uV", "VDC", "VAC", "volt", "volts",
                                                          "millivolt", "millivolts")),
    "current": (("current", "amp", "ampere"), ("A", "mA", "µA", "uA", "nA", "amp", "amps", "ampere", "amperes", "milliamp",
                                               "milliamps", "milliamperes", "microamp", "microamps", "microamperes")),
    "power": (("power", "wattage"), ("W", "mW", "kW", "µW", "uW", "dBm", "watt", "watts", "milliwatt", "milliwatts")),
    "frequency": (("frequency", "clock", "speed", "sampling", "odr", "bandwidth", "rate", "often"),
                  ("Hz", "kHz", "MHz", "GHz", "hertz", "kilohertz", "megahertz", "fps", "FPS")),
    "data_rate": (("baud", "throughput", "bitrate", "rate", "speed"), ("bps", "kbps", "Mbps", "Gbps", "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "MBit/s", "Mb/s", "Gb/s", "baud", "kB/s", "MB/s")),
    "memory": (("memory", "flash", "ram", "sram", "eeprom", "storage", "rom", "psram", "cache"),
               ("B", "KB", "kB", "MB", "GB", "Kb", "Mb", "Gb", "KiB", "MiB", "Kbit", "Mbit", "kbit", "KBit", "MBit", "GBit", "byte", "bytes")),
    "length": (("distance", "length", "width", "height", "thickness", "depth", "dimension", "size", "diameter", "pitch",
                "wavelength", "altitude"),  # an altitude in m, or in hPa (`pressure`)
               ("m", "mm", "cm", "km", "µm", "um", "nm", "in", "inch", "inches", "mil", "meter", "meters", "metre",
                "metres", "millimeters", "millimetres", "centimeters", "centimetres", "kilometers", "kilometres")),
    "temperature": (("temperature", "temp", "thermal", "heat"), ("°C", "°F", "K", "ºC", "C", "℃", "℉")),
    "pressure": (("pressure", "barometric", "altitude"), ("Pa", "hPa", "kPa", "MPa", "bar", "mbar", "atm", "psi")),
    "humidity": (("humidity", "moisture"), ("%RH", "RH", "rH", "%rH", "%")),  # relative humidity is a percentage
    "time": (("time", "duration", "delay", "latency", "period", "timeout", "lifetime", "startup", "response", "long",
              "often", "interval"),
             ("s", "ms", "µs", "us", "ns", "min", "h", "sec", "seconds", "milliseconds", "microseconds", "minutes", "hours",
              "days", "weeks", "months", "years", "second", "millisecond", "microsecond", "minute", "hour", "day", "week",
              "month", "year")),  # "1 hour per charge" states a time as "8 hours" does
    "mass": (("weight", "mass", "weigh", "heavy"), ("g", "kg", "mg", "gram", "grams", "kilogram", "kilograms")),
    "angle": (("angle", "rotation", "tilt"), ("°", "deg", "degrees", "rad")),
    "angular_rate": (("gyroscope", "angular"), ("dps", "°/s", "rad/s")),
    "acceleration": (("acceleration", "accelerometer"), ("g", "m/s²", "m/s2", "mg")),
    "resolution": (("resolution", "adc", "dac", "bit", "bits", "pixel", "pixels"), ("bit", "bits", "LSB", "px", "pixels")),
    "level": (("gain", "noise", "snr", "sensitivity", "sensitive", "loudness", "loud", "attenuation"), ("dB", "dBA", "dBFS", "dBi", "dBm")),
    "light": (("light", "illuminance", "brightness", "bright", "luminous", "luminance"),
              ("lux", "lx", "cd", "mcd", "lm", "nm", "nit", "nits", "cd/m²", "cd/m2")),
    "torque": (("torque", "tightening"), ("Nm", "N·m", "mNm", "cNm", "lbf·in", "lb-in", "in-lb")),
    "capacity": (("capacity", "battery", "charge"), ("mAh", "Ah", "Wh", "mWh")),
    "resistance": (("resistance", "impedance", "resistor"), ("Ω", "kΩ", "MΩ", "ohm", "ohms", "kohm")),
    "capacitance": (("capacitance", "capacitor"), ("F", "µF", "uF", "nF", "pF")),
    "magnetic": (("magnetic", "magnetometer", "field"), ("µT", "uT", "mT", "T", "gauss", "G")),
    "concentration": (("concentration", "co2", "gas", "voc", "iaq"), ("ppm", "ppb", "%")),
    "ratio": (("accuracy", "tolerance", "efficiency", "percent", "percentage", "duty"), ("%",)),
    "flow": (("flow",), ("l/min", "L/min", "ml/min", "mL/min", "l/h", "L/h", "l/s", "L/s", "m³/h", "m3/h", "gpm", "GPM",
                         "litres per minute", "liters per minute", "litres per hour", "liters per hour")),
    "volume": (("volume",), ("mL", "ml", "litre", "litres", "liter", "liters", "gallon", "gallons")),
    "area": (("cross-section",), ("mm²", "cm²", "m²", "mm2")),  # a wire's cross-section ("area" names prototyping areas too)
    "rotation_speed": (("rpm",), ("rpm", "RPM", "rev/min")),
    "velocity": (("velocity",), ("m/s", "mm/s", "km/h", "mph")),
    "force": (("force",), ("kN", "mN", "lbf", "newton", "newtons")),  # no bare "N", "J", "L": part numbers end so
    "energy": (("energy",), ("kJ", "mJ", "µJ", "uJ", "kWh", "joule", "joules")),  # ("TJA1049T/3J")
    "conductivity": (("conductivity",), ("S/cm", "mS/cm", "µS/cm", "uS/cm", "S/m", "mS/m", "µS/m")),
    "acidity": (("ph", "acidity"), ("pH",)),  # water quality: "0 to 14 pH"
    "text_length": (("characters", "chars"), ("characters", "chars")),  # a name's or a password's: "1 to 32 characters"
}

# How a question asks a quantity with an adjective, and the noun a datasheet labels it with ("how heavy" ~ "Weight").
QUANTITY_NOUNS = {"heavy": "weight", "light": "weight", "wide": "width", "tall": "height", "thick": "thickness",
                  "big": "size", "large": "size", "small": "size", "loud": "sound level", "hot": "temperature"}
_MICRO = ("µ", "μ")  # the micro sign and the Greek mu: PDFs write either
def canonical_unit(unit: str) -> str:
    """The unit as most documents write it, as ingest writes it (`SAME_UNIT_SIGNS`): "℃" and "ºC" are "°C"; a
    question's units, and an index built before ingest did so, still hold the other signs."""
    return SAME_UNIT_SIGNS.get(unit, unit)


_UNIT_WORDS = sorted({u.replace(*_MICRO) if k else u for _, units in DIMENSIONS.values() for u in units for k in (0, 1)},
                     key=len, reverse=True)
_UNIT_ALT = "|".join(re.escape(u) for u in _UNIT_WORDS)
NUMBER = r"[-−+±~]?\s?\d+(?:[.,]\d+)?"  # "−" (U+2212) is the minus sign typeset documents and users write
# A count written as a word, and its digits
_COUNT_DIGITS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                 "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "sixteen": "16", "twenty": "20",
                 "thirty-two": "32"}
NUMBER_WORDS = "|".join([*_COUNT_DIGITS, "\\d+"])  # a count: "one|two|…|thirty-two|\d+"


def count_digits(number: str) -> str:
    """A count in digits: "two" -> "2", "Twelve" -> "12", "2" stays "2"."""
    return _COUNT_DIGITS.get(number.lower(), number)


# A number followed by a unit ("3.3 V", "64MHz", "± 0.5 °C", "0-100% RH").
# Not the digits of a model code: "KX-220s" (a plural) is no 220 s, "RS-485 A" no 485 A; "10-30 V" and
# "25Hz-6.4 kHz" still end in a value.
NUMBER_UNIT = re.compile(rf"(?<![\w.])(?<![A-Z]{{2}}-)({NUMBER}{MULTIPLIER})\s?(?:x\s?)?({_UNIT_ALT})(?![\w])")  # "8k bytes"
CURRENCY_SIGNS = "$€£¥"
CURRENCY_CODES = "USD|EUR|GBP|CHF|JPY|CNY"  # a price's currency written after it, or as a column's unit ("Price (GBP)")
PRICE = re.compile(rf"(?:[{CURRENCY_SIGNS}]\s?(\d[\d.,]*\d|\d))"
                   rf"|(?:(\d[\d.,]*\d|\d)\s?(?:{CURRENCY_CODES}|dollars|euros)\b)")  # "$ 12.90", "12 USD"
# A version: "5.0", "v1.2.3", "Rev 3", "version 2"; and a question asking one ("which kernel version").
VERSION = re.compile(rf"(?<![\w.])[vV]?\d+(?:\.\d+)+(?!\w|\.\d)(?!\s?(?:{_UNIT_ALT})(?![\w]))"
                     r"|\b(?:v|ver|version|rev|revision)\.?\s?\d+(?:\.\d+)*\b", re.IGNORECASE)  # not a quantity: "3.3 V"
RATING_CODES = frozenset({"IP", "IK", "NEMA", "SIL"})  # protection and safety designations: "IP30", "IK08", "SIL 2"
RATING = re.compile(rf"\b({'|'.join(sorted(RATING_CODES))})\s?-?\d")
ASKS_VERSION = re.compile(r"\bversions?\b(?!\s+of\s+the\b)|^\s*which\s+(?:[\w-]+\s+){0,2}(?:firmware|software|release)\b",
                          re.IGNORECASE)
# "version of the X": a variant of X; "Which firmware added …?", "Which gateway firmware supports …?": a release
# "What's the manufacturer part number of the switch?": a part number answers it, not the switch's rating
ASKS_PART_NUMBER = re.compile(r"\b(?:part|model)\s+numbers?\b|\bMPN\b", re.IGNORECASE)
COST = re.compile(r"\b(?:costs?|price[sd]?|pricing)\b", re.IGNORECASE)  # a question asking a price
# A range or tolerance: "260 to 1260 hPa", "-40 °C ... +85 °C", "1.7-3.6 V", "±2 %".
RANGE = re.compile(rf"(?<![\w.]){NUMBER}\s?(?:{_UNIT_ALT})?\s?(?:to|-|–|—|~|\.\.\.?|…|and)\s?{NUMBER}\s?(?:{_UNIT_ALT})(?![\w])")
# A range's two ends and its unit: "-40 - +85 °C", "0 to 70 °C", "4.5 to 5.5 V" (groups: low, high, unit).
RANGE_ENDS = re.compile(rf"(?<![\w.])({NUMBER})\s?(?:{_UNIT_ALT})?\s?(?:to|-|–|—|~|\.\.\.?|…)\s?({NUMBER})\s?({_UNIT_ALT})(?![\w])")
ACCURACY_WORDS = frozenset({"accuracy", "accurate", "tolerance", "precision", "precise", "error", "deviation",
                            "uncertainty"})  # folded words asking how exact a value is (a ± value answers them)
TOLERANCE = re.compile(rf"(?:±|\+/-|\+-)\s?\d+(?:[.,]\d+)?\s?(?:{_UNIT_ALT})?")
# A display or camera grid, "480 x 800", "1920×1080" (sizes in mm carry their unit and are not matched).
PIXEL_GRID = re.compile(r"(?<![\w.])\d{2,5}\s?[x×]\s?\d{2,5}(?![\w.]|\s?(?:mm|cm|in|inch|mil)\b)")
# The rest of a list of numbers joined by slashes, and the word after its last one ("/110/220V", "/100 M").
_SLASH_LIST_REST = re.compile(r"(?:/\d+(?:[.,]\d+)*)*\s?([A-Za-zµμΩ°%]+)?")


def slash_list_word(line: str, start: int, end: int) -> str | None:
    """For the number at `start`:`end` of `line` in a slash list, the word after the list, which every number of it is
    written in: "V" for "24/30/110/220V", "M" for "10/100 M" (a unit no pattern knows), "" when none follows ("pins
    2/3"); None for a number not in a slash list."""
    if not (line.startswith("/", end) and line[end + 1:end + 2].isdigit()) and not re.search(r"\d/$", line[:start]):
        return None
    rest = _SLASH_LIST_REST.match(line, end)  # always matches: every part of the pattern is optional
    return (rest.group(1) or "") if rest else ""


# Part numbers and model names: a letter before a digit, at least 3 characters ("nRF52832", "LPS22HB", "2N2222",
# "Cortex-M4"); a number with its unit ("64MHz", "3μT") is a value, not a part.
PART = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z][\w-]*\d)[A-Za-z0-9][\w-]{2,}(?![\w-])")


def dimension_of_unit(unit: str) -> set[str]:
    """Quantities a unit symbol can measure (`"mA"` -> {"current"}; `"g"` -> {"mass", "acceleration"})."""
    unit = unit.replace(_MICRO[1], _MICRO[0])
    out = {name for name, (_, units) in DIMENSIONS.items() if unit in units}
    if not out:
        low = unit.lower()
        out = {name for name, (_, units) in DIMENSIONS.items() if low in {u.lower() for u in units}}
    return out


def value_dimensions(text: str) -> set[str]:
    """Quantities of every number-with-unit in `text`, a range's too ("12...24 VDC", whose "24" follows dots); a pixel
    grid ("480 x 800") is a resolution."""
    out: set[str] = {"resolution"} if PIXEL_GRID.search(text) else set()
    for m in NUMBER_UNIT.finditer(text):
        out |= dimension_of_unit(m.group(2))
    for m in RANGE_ENDS.finditer(text):
        out |= dimension_of_unit(m.group(3))
    return out


def dimension_words(dims: set[str]) -> set[str]:
    """The words that ask for any of these quantities."""
    return {w for name in dims for w in DIMENSIONS[name][0]}


_BIT_RATE_WORDS = frozenset(DIMENSIONS["data_rate"][0]) - {"rate", "speed"}  # words asking a data rate only
# (a word, the quantity word it stops asking): a "real-time clock" is a part (an RTC chip), not a clock speed; a
# storage temperature and a memory leak ask no memory
_NOT_ASKING = (("real-time", "clock"), ("temperature", "storage"), ("leak", "memory"))


# Things stored in bytes: how big one is asks a memory size, not a length ("the maximum file size", "the largest
# payload", "How big can rc3xx.cfg be?")
_STORED = frozenset({"file", "buffer", "payload", "packet", "message", "firmware", "upload", "attachment", "log",
                     "backup", "recording", "database"})
SIZE_WORDS = frozenset({"size", "big", "large", "largest", "biggest", "small", "smallest"})
# a file's name, or its extension alone as a question's words split it ("rc3xx.cfg" -> "cfg"; not "bin" or "hex",
# which name other things: "hex key size")
_FILE_NAME = re.compile(r"[\w-]+\.(?:bin|hex|txt|log|zip|img|elf|db)|(?:[\w-]+\.)?(?:\w*cfg|conf|ini|yaml|yml|json|xml|csv|uf2)")


# Texts a user types: how long one may be is a number of characters, not a time or a distance ("How long can the tag
# name be?", "maximum password length"); not when the question asks how long something takes or lasts
_TEXTS = frozenset({"name", "password", "passphrase", "string", "text", "hostname", "username", "ssid", "description",
                    "comment", "filename"})
_LONG_WORDS = frozenset({"long", "length", "longest"})
_LASTING = frozenset({"take", "last", "stay", "remain", "wait", "shown", "displayed"})


def _written_alone(words: frozenset[str], terms: set[str]) -> bool:
    """Some of `words` is among `terms` as a word of its own, not only as a part of a key's name (the "size" of
    "max_file_size_mb" names the key a question asks about, it asks no size)."""
    keys = [set(re.split(r"[._]", t)) for t in terms if "_" in t or "." in t]
    return any(not any(w in key for key in keys) for w in terms & words)


def asked_dimensions(terms: set[str]) -> set[str]:
    """Quantities the question's (lower-case, folded) content terms ask about; a "real-time clock" is a part (an
    RTC chip), not a clock speed, a "field of view" an angle, not a magnetic field, a storage temperature or a memory
    leak no memory, a clock's speed or rate a frequency, not a data rate, the size of a file a memory size and the
    length of a name a number of characters."""
    terms = terms - {word for trigger, word in _NOT_ASKING if trigger in terms}
    terms = (terms - {"field"}) | {"angle"} if {"field", "view"} <= terms else terms
    dims = {name for name, (words, _) in DIMENSIONS.items() if any(w in terms for w in words)}
    if _written_alone(SIZE_WORDS, terms) and (terms & _STORED or any(_FILE_NAME.fullmatch(t) for t in terms)):
        dims = (dims - {"length"}) | {"memory"}
    if _written_alone(_LONG_WORDS, terms) and terms & _TEXTS and not terms & _LASTING:
        dims = (dims - {"length", "time"}) | {"text_length"}
    if "clock" in terms and not terms & _BIT_RATE_WORDS:  # a baud or bit rate asked beside the clock keeps data rates
        dims.discard("data_rate")
    return dims


def asking_words(dims: set[str]) -> set[str]:
    """The words a question asks these quantities with: `dimension_words`, for a memory size how big or large (the
    asked file's), for a text's length how long."""
    return (dimension_words(dims) | (SIZE_WORDS if "memory" in dims else set())
            | (_LONG_WORDS if "text_length" in dims else set()))


# "(in dBm)", "in nits": a unit the question writes says which quantity it asks (one letter alone is too
# ambiguous: "in C" is a language as often as degrees)
_WRITTEN_UNIT = re.compile(rf"(?:\bin\s+|\(\s*(?:in\s+)?)({_UNIT_ALT})(?![\w])")


def written_dimensions(question: str) -> set[str]:
    """Quantities of the units a question asks its answer in ("How sensitive is it (in dBm)?" -> power, level)."""
    return {d for m in _WRITTEN_UNIT.finditer(question) if len(m.group(1)) > 1 for d in dimension_of_unit(m.group(1))}


# A voltage written with the kind of current: "24 VDC", "24V AC", "230 Vac", "100-240 V AC/DC".
_CURRENT_KIND = re.compile(r"\d\s?V\s?(AC|DC)(?:\s?/\s?(AC|DC))?(?![A-Za-z])", re.IGNORECASE)


def current_kinds(text: str) -> set[str]:
    """The kinds of current ("AC", "DC") the voltages of `text` are written with; empty when none says."""
    return {kind.upper() for m in _CURRENT_KIND.finditer(text) for kind in m.groups() if kind}


RECURRENCE_WORDS = frozenset({"often", "frequently"})  # "How often should it be calibrated?": a recurring time
# A time written as a recurrence: "every 6 months", "once a year", "Calibration interval (months)", "annually", "/day".
_RECURS = re.compile(r"\b(?:every|each|per|once|twice|times|intervals?|period(?:ic|ically)?|annual(?:ly)?|yearly|"
                     r"monthly|weekly|daily|hourly|cycles?)\b|/\s?(?:year|yr|month|week|day|h|hour)\b", re.IGNORECASE)


def without_duration(dims: set[str], scoped: str, attributes: set[str]) -> set[str]:
    """A unit's value `dims` without "time" when the question asks how often and the unit (`scoped`: with its
    heading and header) writes its time as no recurrence: a response time ("T90: 20 s max.") or a warm-up time is a
    duration, not how often something is done ("every 6 months", "Interval (days) | 90", "1 Hz" are)."""
    if "time" in dims and attributes & RECURRENCE_WORDS and not _RECURS.search(scoped):
        return dims - {"time"}
    return dims


def has_value(text: str) -> bool:
    """True when `text` states a number with a unit, a range, a tolerance or a pixel grid."""
    return bool(NUMBER_UNIT.search(text) or RANGE.search(text) or TOLERANCE.search(text) or PIXEL_GRID.search(text))


def versions_after(text: str, words: set[str]) -> list[str]:
    """The versions in `text` written within three words after one of `words` (lower-cased): "kernel 5.10",
    "Bluetooth® Low Energy 5.3"; not "Industry 4.0 with Linux" for the Linux kernel's version."""
    found = []
    for m in VERSION.finditer(text):
        before = re.findall(r"[\w-]+", text[max(0, m.start() - 60):m.start()].lower())[-3:]
        if any((w in words or w.rstrip("s") in words) and not _JOINING & set(before[i + 1:])
               for i, w in enumerate(before)):  # "(Python) and libzoneloom 3.1.0": the version is libzoneloom's
            found.append(m.group(0))
    return found


_JOINING = frozenset({"and", "or", "vs", "versus"})


_CONDITIONS = re.compile(r"\([^()]*\)")  # "±1.5 %RH, typical (10 to 90 %RH, 25 °C)": the conditions of a value


def without_conditions(text: str) -> str:
    """`text` without its parenthesised asides: a datasheet states the test conditions of a value in brackets, and
    their temperatures or voltages are not values of another quantity."""
    return _CONDITIONS.sub(" ", text)


def without_tolerances(text: str, terms: set[str]) -> str:
    """`text` without its ± values unless the (folded) question terms ask how exact something is: "<±10 cm" says
    how exactly a distance is measured, not how far the ranging reaches."""
    if terms & ACCURACY_WORDS or any(t.startswith("accura") for t in terms):
        return text
    return TOLERANCE.sub(" ", text)


def _value_key(m: re.Match[str]) -> tuple[str, str]:
    return re.sub(r"\s", "", m.group(1)).lstrip("+"), m.group(2).replace(*_MICRO[::-1])


def without_values_of(text: str, question: str) -> str:
    """`text` with the numbers-with-units the question itself writes blanked out: in "the 24V IN pin" the value
    names the pin, so a passage saying only "24V IN" states no answer to "its maximum input voltage"."""
    asked = {_value_key(m) for m in NUMBER_UNIT.finditer(question)}
    return NUMBER_UNIT.sub(lambda m: " " if _value_key(m) in asked else m.group(0), text) if asked else text


def writes_values_of(text: str, question: str) -> bool:
    """`text` writes a number-with-unit the question writes: "400 mV at 0 °C" or a table row at 0 °C is about the asked
    condition ("What does the sensor output at 0 °C?"), the rows at -10 °C or 25 °C are not."""
    asked = {_value_key(m) for m in NUMBER_UNIT.finditer(question)}
    return bool(asked) and any(_value_key(m) in asked for m in NUMBER_UNIT.finditer(text))


def part_numbers(text: str) -> list[str]:
    """Tokens mixing letters and digits (part numbers, model names, versions)."""
    return [m.group(0) for m in PART.finditer(text)]
