"""Support shorthand as users type it: "cmd to clear all latched alarms", "pn for dpx220 …", "default pw for service
login". The documents write the words in full ("command", "part number", "password"), so a shorthand word matched no
passage word and the answer fell back to the closest passages, introduced as no direct answer. Only a word typed in
lower case is written out: "ERR" or "PN" in capitals is as often a label the documents write (an LED, a pressure
class) as shorthand."""

from __future__ import annotations

import re

from kgrag.answering.values import DIMENSIONS

# General shorthand of technical support, not of any product: the word as typed -> the words documents write.
SHORTHAND = {
    "whats": "what is", "hows": "how is", "wheres": "where is",
    "pn": "part number", "p/n": "part number", "cmd": "command", "cmds": "commands", "pw": "password",
    "pwd": "password", "err": "error", "errs": "errors", "cfg": "configuration",
    "fw": "firmware", "hw": "hardware", "sw": "software", "qty": "quantity", "temp": "temperature",
    "freq": "frequency", "pwr": "power", "addr": "address", "conn": "connector",
    "w/": "with", "w/o": "without", "approx": "approximately", "info": "information", "docs": "documents",
}
# (not a part of a file or key name: the "cfg" of "rc3xx.cfg", the "err" of "log.err", the "info" of "info.level")
_TYPED = re.compile(r"(?<![\w/.-])(" + "|".join(re.escape(w) for w in sorted(SHORTHAND, key=len, reverse=True))
                    + r")(?![\w/-]|\.\w)")
# firmware or hardware shorthand glued to its version: "fw3", "fw3.1.2", "hw2" ("sw1" is as often a switch's name)
_VERSIONED = re.compile(r"(?<![\w/-])(fw|hw)(\d+(?:\.\d+)*)(?![\w/-])")


def _typed_units() -> dict[str, str]:
    """Units as typed in lower case -> as written ("ma" -> "mA", "mhz" -> "MHz", "12v" reads 12 V): every unit of
    values.DIMENSIONS whose lower case is no unit itself ("ms", "mm" are) and is two letters or more, or "V" / "W"."""
    known = {u for _, units in DIMENSIONS.values() for u in units}
    typed: dict[str, str] = {}
    for unit in (u for _, units in DIMENSIONS.values() for u in units):
        low = unit.lower()
        if low != unit and low not in known and unit.isascii() and (len(unit) > 1 or unit in ("V", "W")):
            typed.setdefault(low, unit)
    return typed


_UNITS = _typed_units()
# a number, then a unit typed in lower case: "4-20ma", "12v", "2.4 ghz"
_TYPED_UNIT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?\s?)("
                         + "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True)) + r")(?![\w/%])")


def written_out(question: str) -> str:
    """`question` with each shorthand word it types in lower case written out ("cmd" -> "command", "fw3" -> "firmware
    3") and each unit typed in lower case after a number written as the documents write it ("4-20ma" -> "4-20mA")."""
    question = _TYPED.sub(lambda m: SHORTHAND[m.group(1)], question)
    question = _VERSIONED.sub(lambda m: f"{SHORTHAND[m.group(1)]} {m.group(2)}", question)
    return _TYPED_UNIT.sub(lambda m: m.group(1) + _UNITS[m.group(2)], question)
