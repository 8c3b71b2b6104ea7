"""The ambient conditions a yes/no or choice question writes by a value alone ("a cabinet that can reach 75 °C"): the
named products' ratings of that quantity decide it."""

from __future__ import annotations

from kgrag.answering import asks
from kgrag.answering.terms import analyse, asks_yes_no
from kgrag.answering.values import value_dimensions

# Conditions around a product that its ratings bound and a user writes by a value alone ("a cabinet that can reach 75 °C")
AMBIENT = frozenset({"temperature", "humidity", "pressure"})


def ambient_quantities(question: str) -> set[str]:
    """The ambient quantities of the values a yes/no or choice question writes ("… a cabinet that can reach 75 °C. Is
    that within spec?", "at -30 °C, the A or the B?"): the named products' ratings of them decide it ("operating
    temperature | -20 to +70 °C"), whatever words the question uses. A voltage or a current is asked with the words that
    name it ("a 12 V supply"), and a product rates many of them (every pin's)."""
    ambient = value_dimensions(question) & AMBIENT
    if not ambient:  # most questions write no such value: no need to read the question's shape
        return set()
    q = analyse(question)
    return ambient if asks_yes_no(q) or asks.alternative_names(question, q.phrases) else set()
