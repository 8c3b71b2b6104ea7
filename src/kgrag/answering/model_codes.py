"""Model codes in document titles: the code a vendor's title leads with ("KX-220 Remote I/O Module — Datasheet" is the
KX-220's) and a sibling code with letters glued on ("KX-220L"), another product than the asked one."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from kgrag.answering.names import is_model_code, whole_name
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit


def title_leads(name: str, title: str) -> bool:
    """A model code (letters and digits) is the title's first word, as vendors title a product's documents ("KX-220
    Remote I/O Module — Datasheet", "TS-30 / TS-30P …"); not a code inside a longer one ("KX-220L" for "KX-220")."""
    low = name.lower()
    return bool(title) and is_model_code(low) and re.match(rf"{re.escape(low)}(?![\w-])", title.lower()) is not None


def sibling_codes(parts: Sequence[str], titles: Iterable[str]) -> list[str]:
    """Model codes that document titles write as a question's part code with letters glued on ("KX-220L" beside the
    asked "KX-220", "VM-5HT" beside "VM-5"): another product with documents of its own, not an order code of the
    asked one (those add "-D", "-TB" after a hyphen); lower-case."""
    found: dict[str, None] = {}
    for part in parts:
        glued = re.compile(rf"(?<![a-z0-9]){re.escape(part.lower())}[a-z]{{1,3}}(?![a-z0-9])")
        found.update((m.group(0), None) for t in titles for m in glued.finditer(t.lower()))
    return list(found)


def writes_sibling(parts: Sequence[str], siblings: Sequence[str], text_lower: str) -> bool:
    """The text names a sibling code (`sibling_codes`) and none of the asked `parts` on its own: it is about the
    sibling ("KX-220L … Datasheet: 22.5 mm housing width" is no width of the KX-220)."""
    return (any(whole_name([s], text_lower) for s in siblings)
            and not any(whole_name([p], text_lower) for p in parts))


def led_row(unit: Unit, q: QuestionTerms, titles: Mapping[int, str]) -> bool:
    """A table row of a document whose title leads with a model code the question names ("KX-220L Low-Power Remote I/O
    Module — Datasheet"): the product's own spec, as much as a row of a title ending with its name."""
    return unit.kind == "row" and any(title_leads(p, titles.get(unit.block, "")) for p in q.parts)
