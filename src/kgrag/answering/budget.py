"""Power-budget questions: the user writes what a supply can give ("a Qwiic port that can supply about 150 mA. Is that
enough?") and the product's documents write what it draws ("264 mA total" at full brightness). The written value is a
capacity, not a rating the product must meet, so it is compared with the largest draw the product's passages state:
"No." when the draw is larger. A smaller draw says nothing for sure (another mode may draw more), so no "Yes."."""

from __future__ import annotations

import re

from kgrag.answering.numbers import number_value
from kgrag.answering.ratings import scaled_value
from kgrag.answering.select import COMPLIANCE, Scored
from kgrag.answering.values import NUMBER, NUMBER_UNIT

# What a supply gives, as a question writes it: "can supply about 150 mA", "can only source 200 mA", "a 500 mA port"
_SUPPLIED = re.compile(rf"\b(?:suppl(?:y|ies)|sources?|provides?|delivers?|gives?|outputs?|budget of|limited to|rated for)"
                       rf"\s+(?:(?:about|around|roughly|approximately|only|up to|at most|~)\s+)*({NUMBER})\s?(mA|A)\b",
                       re.IGNORECASE)
_ENOUGH = re.compile(r"\b(?:enough|sufficient|suffice|handle|cope|power it|run it)\b", re.IGNORECASE)
# A passage stating a draw: "Up to 33 mA per LED … (264 mA total)", "current consumption: 25 mA", "draws 120 mA"
_DRAW = re.compile(r"\b(?:consum\w*|draws?|drawn|total|full brightness|maximum load|max(?:imum)? current draw)\b",
                   re.IGNORECASE)


def supplied_current(question: str) -> tuple[float, str] | None:
    """(amperes, as written) of the current the question says a supply gives, when it asks whether that is enough."""
    m = _SUPPLIED.search(question)
    if m is None or not _ENOUGH.search(question):
        return None
    raw = number_value(m.group(1))
    return None if raw is None else (scaled_value(raw, m.group(2))[0], f"{m.group(1)} {m.group(2)}")


def largest_draw(about: list[Scored]) -> tuple[float, Scored] | None:
    """(amperes, unit) of the largest current the product's close units state as a draw; None when none does."""
    best: tuple[float, Scored] | None = None
    for s in about:
        text = s.unit.value_text()
        if s.unit.kind == "heading" or not _DRAW.search(text) or COMPLIANCE.search(text):
            continue
        for m in NUMBER_UNIT.finditer(text):
            raw = number_value(m.group(1))
            amps, unit = scaled_value(raw, m.group(2)) if raw is not None else (0.0, "")
            if unit == "A" and (best is None or amps > best[0]):
                best = (amps, s)
    return best


def over_budget(question: str, about: list[Scored]) -> tuple[str, Scored] | None:
    """(why, the unit stating the draw) when the product draws more than the supply the question writes gives
    (`about`: the product's units close to the question, best first)."""
    supplied = supplied_current(question)
    draw = largest_draw(about) if supplied else None
    if supplied is None or draw is None or draw[0] <= supplied[0]:
        return None
    return f"it draws more than the {supplied[1]} available", draw[1]
