"""Questions that ask two things in two clauses ("What ranging accuracy does the Stella's UWB module achieve, and what
frequency range does it cover?"): each clause is answered by its own quote, so one row does not answer half."""

from __future__ import annotations

import re

from kgrag.answering.asks import ASK_WORDS, TOKEN, asks_overview, second_question
from kgrag.answering.extract import Extraction, answer_text, says_each, try_extract
from kgrag.answering.names import name_found, names_item, title_names
from kgrag.answering.select import Scored, score_units
from kgrag.answering.terms import QuestionTerms, analyse, asks_product
from kgrag.answering.units import Unit
from kgrag.answering.values import part_numbers
from kgrag.answering.words import fold
from kgrag.graph.datasheet.vocab import REF_DES

# "… what CPU does that module contain?": the second clause asks about the first one's answer, which the question
# does not name; only "it" / "its" (the thing the question names) is carried over
_ANSWER_REFERENCE = re.compile(r"\b(?:that|this|these|those|the same)\s+\w+", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:it|its|they|their)\b", re.IGNORECASE)


def split_clauses(question: str) -> tuple[str, str, bool] | None:
    """The two questions of "…, and what/which/how …" and whether the second asks about the first one's answer
    ("…, and what microcontroller does that board use?"); None for other questions."""
    m = second_question(question, conjunctions=frozenset({"and"}), words=ASK_WORDS - {"why", "who"})
    m = m or bare_second_question(question)
    if not m:
        return None
    first = question[:m.start()].strip()
    second = question[m.start("word"):].strip().rstrip("?")
    # "Which add-on board … contains a BMI270, and what display does it carry?": "it" is the product the first asks for
    chained = bool(_ANSWER_REFERENCE.search(second)) or (asks_product(analyse(first)) and bool(_PRONOUN.search(second)))
    return f"{first}?", f"{second[:1].upper()}{second[1:]}", chained


# a second question after a bare "and" states its own verb early ("… and how sensitive is its receiver?"); an
# elliptical one ("Which is on the edge side and which toward the center?") borrows the first one's
_OWN_VERB = re.compile(r"^\w+(?:\s+\w+){0,2}?\s+(?:is|are|was|were|does|do|did|can|could|should|will|would|has|have|must)\b",
                       re.IGNORECASE)
MIN_FIRST_WORDS = 4  # "How cold and how hot can it run?" asks one thing twice over


def bare_second_question(question: str) -> re.Match[str] | None:
    """Where a second question starts after "and" with no comma ("Which radio chip is inside the X and how sensitive
    is its receiver?"), when the first has a clause's length, the second its own verb, and no overview is asked."""
    if asks_overview(question):  # "Summarize how it is powered and what it consumes": one overview
        return None
    m = second_question(question, bare_and=True, conjunctions=frozenset(), words=ASK_WORDS - {"why", "who"})
    if m is None or len(TOKEN.findall(question[:m.start()])) < MIN_FIRST_WORDS:
        return None
    return m if _OWN_VERB.match(question[m.start("word"):]) else None


def two_clauses(question: str) -> tuple[str, str] | None:
    """The two questions of "…, and what/which/how …", the second naming what the first names ("… does it cover" ->
    "What frequency range does it cover, on the Arduino Stella?"); None for other questions and chained ones."""
    split = split_clauses(question)
    if split is None or split[2]:
        return None
    first, second, _ = split
    phrases = analyse(first).phrases  # one name, as the clause's quote is about all of them; a word of a longer name
    names = " ".join(" ".join(p) for p in phrases if not any(len(o) > len(p) and set(p) <= set(o) for o in phrases))
    return (first, f"{second}, on the {names}?") if names else None


def naming(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str], product: str) -> Extraction | None:
    """The best unit of `product`'s document naming every part the clause names ("Which add-on board … contains a
    BMI270?" -> the GIGA Display Shield's "… via the 6-axis BMI270 (U7) IMU"), or None."""
    words = product.split()
    for s in ranked:
        title = titles.get(s.unit.block, "")
        if q.parts and title_names(words, title) and all(name_found(p, s.unit.text.lower()) for p in q.parts):
            return Extraction(s.unit, answer_text(q, s.unit, title), s.score)
    return None


def mentioning(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str], product: str) -> Extraction | None:
    """The best unit of a product the clause names that names `product`, the one retrieval found for the clause ("Which
    Nano board sits at the heart of the Braccio Carrier?" -> the Braccio Carrier's "… Nano RP2040 Connect …"), or
    None: the clause's answer is written in the named product's documents."""
    named = [p for p in q.phrases if not title_names(p, product)]
    for s in ranked:
        title = titles.get(s.unit.block, "")
        if any(title_names(p, title) for p in named) and name_found(product, s.unit.text.lower()):
            return Extraction(s.unit, answer_text(q, s.unit, title), s.score)
    return None


def answered_name(first: str, hit: Extraction, titles: dict[int, str]) -> str:
    """What the first clause's quote names as its answer: the product of its document when the clause asks which
    product ("Which Nicla board includes …?"), else the one part number it writes that the clause does not."""
    q = analyse(first)
    if asks_product(q):
        return titles.get(hit.unit.block, "")
    new = [p for p in dict.fromkeys(part_numbers(hit.unit.text)) if p not in q.parts and not REF_DES.match(p)]
    return new[0] if len(new) == 1 else ""


def quote_each_clause(question: str, units: list[Unit], scopes: dict[int, str],
                      titles: dict[int, str], bridge: str = "") -> list[Extraction] | None:
    """One quote per clause of a two-clause question (one when a single unit answers both), or None when either clause
    has no explicit quote: the model then reads the focus. A chained second clause ("…, and what microcontroller
    does that board use?") is asked of what the first clause's quote names ("… does the Nicla Vision use?"); when
    no unit states the first clause's answer, of the product retrieval found for it (`bridge`), quoted where its
    document names the first clause's parts."""
    split = split_clauses(question)
    if split is None:
        return None
    first, second, chained = split
    clauses = [first] if chained else list(two_clauses(question) or ())
    found: list[Extraction] = []
    mentioned = None  # the first clause's answer is the bridge, as another product's documents name it
    for clause in clauses:
        q, ranked = analyse(clause), score_units(clause, units, scopes)
        mentioned = mentioning(q, ranked, titles, bridge) if chained and bridge else None
        hit = mentioned or try_extract(q, ranked, titles) or (naming(q, ranked, titles, bridge) if chained and bridge
                                                              else None)
        if hit is None:
            return None
        found.append(hit)
    if chained:
        clause = answered_clause(split, found[0], titles, bridge if mentioned else "")
        if not clause:
            return None
        asked = analyse(clause)
        hit = try_extract(asked, score_units(clause, units, scopes), titles)
        named = {p.lower() for p in analyse(question).parts}  # "what display does it carry?" is not the BMI270 again
        if hit is None or asked.wants_name and not {p.lower() for p in part_numbers(hit.unit.text)} - named:
            return found  # the product found, quoted; the passages on the second clause, asked of it, follow
        found.append(hit)
    return [f for i, f in enumerate(found) if all(f.unit != g.unit for g in found[:i])] or None


def answered_clause(split: tuple[str, str, bool], hit: Extraction, titles: dict[int, str], name: str = "") -> str:
    """The chained second clause asked of what the first clause's quote names ("…, and how much current can it
    supply?" -> "How much current can the MKR WAN 1310 supply?"), or of `name` when given; "" when the quote names no
    one thing."""
    first, second, _ = split
    name = name or answered_name(first, hit, titles)
    if not name:
        return ""
    pattern = _ANSWER_REFERENCE if _ANSWER_REFERENCE.search(second) else _PRONOUN
    return pattern.sub(lambda m: f"the {name}" + ("'s" if m[0].lower() in ("its", "their") else ""), second, count=1) + "?"


_LIST_FILLER = r"and|or|the|its|their"  # words between the items of an asked list
_BETWEEN_ASKED = re.compile(rf"(?:\s*,\s*|\s+)(?:(?:{_LIST_FILLER})\s+)*", re.IGNORECASE)  # "X, Y and the Z"


def asked_apart(question: str, group: list[str]) -> list[str] | None:
    """The question once per word of a group it asks together ("How much EEPROM and SRAM does the X have?" ->
    "How much EEPROM does the X have?", "How much SRAM does the X have?"), or None when the words are not one list."""
    words = list(TOKEN.finditer(question))
    for i, first in enumerate(words):
        if fold(first.group(0)) != group[0]:
            continue
        listed, j = [first], i + 1
        while j < len(words) and len(listed) < len(group):
            gap = question[listed[-1].end():words[j].start()]
            if fold(words[j].group(0)) in group and _BETWEEN_ASKED.fullmatch(gap):
                listed.append(words[j])
            elif not re.fullmatch(_LIST_FILLER, words[j].group(0), re.IGNORECASE):
                break
            j += 1
        if [fold(w.group(0)) for w in listed] == group:
            start, end = listed[0].start(), listed[-1].end()
            return [f"{question[:start]}{w.group(0)}{question[end:]}" for w in listed]
    return None


def listed_names(question: str, phrases: list[list[str]]) -> list[tuple[str, str]]:
    """The names of a list the question asks about ("… list for Wi-Fi, Bluetooth EDR and Bluetooth LE?"), each with
    the question asked of it alone; [] unless two or more names follow each other with only list words between."""
    spans = []
    for phrase in phrases:
        m = re.search(r"(?<![\w-])" + r"\s+".join(re.escape(w) for w in phrase) + r"(?![\w-])", question)
        if m is not None:
            spans.append(m)
    spans.sort(key=lambda m: m.start())
    best: list[re.Match[str]] = []
    run: list[re.Match[str]] = []
    for m in spans:
        gap = question[run[-1].end():m.start()] if run else ""
        if gap.strip() and _BETWEEN_ASKED.fullmatch(gap):  # ", " / " and " / ", or ": the list goes on
            run.append(m)
        else:
            run = [m]
        best = run if len(run) > len(best) else best
    if len(best) < 2:
        return []
    start, end = best[0].start(), best[-1].end()
    return [(m.group(0), f"{question[:start]}{m.group(0)}{question[end:]}") for m in best]


def quote_each_item(question: str, units: list[Unit], scopes: dict[int, str],
                    titles: dict[int, str]) -> list[Extraction] | None:
    """One quote per name of a list the question asks a value for ("What output power does the X list for Wi-Fi,
    Bluetooth EDR and Bluetooth LE?": each mode's row), or None when any name has no explicit quote naming it."""
    q = analyse(question)
    listed = listed_names(question, q.phrases) if q.wants_value and not split_clauses(question) else []
    if not listed:
        return None
    items = [item for item, _ in listed]
    found: list[Extraction] = []
    for item, one in listed:
        others = [o for o in items if o != item]
        naming_it = [s for s in score_units(one, units, scopes, titles=titles) if names_item(item, others, s.unit.text)]
        hit = try_extract(analyse(one), naming_it, titles)
        if hit is None:
            return None
        found.append(hit)
    return [f for i, f in enumerate(found) if all(f.unit != g.unit for g in found[:i])]


def quote_each_word(question: str, units: list[Unit], scopes: dict[int, str],
                    titles: dict[int, str]) -> list[Extraction] | None:
    """One quote per word of a group the question asks together when no one unit gives them all ("the measuring
    range and accuracy": the range row and the accuracy row), or None when any word has no explicit quote giving it."""
    q = analyse(question)
    group = max(q.together, key=len, default=[])
    if not group or not q.wants_value or split_clauses(question) or any(set(g) - set(group) for g in q.together):
        return None  # nothing asked together, a second clause (quote_each_clause), or two separate lists
    asked = asked_apart(question, group)
    if asked is None:
        return None
    found: list[Extraction] = []
    for word, one in zip(group, asked, strict=True):
        hit = try_extract(analyse(one), score_units(one, units, scopes, titles=titles), titles)
        if hit is None or not says_each([word], hit.unit):  # the quote gives what this word asks
            return None
        found.append(hit)
    return [f for i, f in enumerate(found) if all(f.unit != g.unit for g in found[:i])]


def other_clause_units(question: str, found: list[Extraction], units: list[Unit], scopes: dict[int, str],
                       titles: dict[int, str], bridge: str = "") -> list[Scored]:
    """For a two-clause question answered by one quote (the other clause has no explicit one), the units ranked for
    the clause that quote does not answer ("…, and what is that current available for?"), so the passages after the
    quote can start with it; [] otherwise. A chained clause is asked of the product the quote found: the `bridge`
    when the quote names it ("At the top a Nano ESP32 acts like the main controller" in the Alvik's document)."""
    split = split_clauses(question) if len(found) == 1 else None
    if split is not None and split[2]:  # chained: the second clause asked of the product the quote found
        named = bridge if bridge and name_found(bridge.lower(), found[0].unit.text.lower()) else ""
        clause = answered_clause(split, found[0], titles, named)
        return score_units(clause, units, scopes, titles=titles) if clause else []
    clauses = two_clauses(question) if len(found) == 1 else None
    if clauses is None:
        return []
    answered = [c for c in clauses if try_extract(analyse(c), score_units(c, units, scopes, titles=titles), titles)]
    rest = [c for c in clauses if c not in answered]
    return score_units(rest[0], units, scopes, titles=titles) if len(rest) == 1 else []


def joined(found: list[Extraction]) -> str:
    """The quotes as one answer, each with its citation; a product lead the previous quote already gave is not repeated."""
    first = found[0].text
    lead = first.split(": ", 1)[0] + ": " if ": " in first else ""
    texts = [first] + [f.text.removeprefix(lead) if lead else f.text for f in found[1:]]
    return " ".join(f"{text} [{f.unit.cited()}]." for text, f in zip(texts, found, strict=True))
