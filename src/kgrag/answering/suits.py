"""Yes/no questions one product's own documents decide. A question writing a value ("Can I power the A from a 9 V
battery on VIN?", "Is -35 °C OK for the B?", "Can its relay switch a 230 VAC heater that draws 3 A?"): each value is
read against the product's rated ranges, limits and nominal values of the same quantity (`ratings.fit`); "No." when a
value misses every rating of its quantity the product's passages give, "Yes." when every value lies inside a rated
range and none misses. A question about using it on its own ("Can I use the C standalone?"): "No." when its
documents say it needs another board ("requires a GIGA R1 WiFi board to function"). A question asking to do two
things at once: "No." when a note of the product says they cannot run simultaneously; whether a supply is enough:
"No." when the product draws more (answering/budget.py); whether a feature works with another product: "No." when a
note naming both rules it out (answering/works_with.py); whether two of it share a bus: as its address row says
(answering/bus_addresses.py). Otherwise the question goes the
usual way. A small model says yes to what it is asked, so the documents decide, and the deciding passages are
quoted."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from kgrag.answering.about import unit_about
from kgrag.answering.budget import over_budget, supplied_current
from kgrag.answering.bus_addresses import shares_bus
from kgrag.answering.choose import DENIES, need_terms, quote_unit, written_value_texts, written_values
from kgrag.answering.names import documented_names, title_names
from kgrag.answering.quotes import QUOTES, quote_answer
from kgrag.answering.ratings import LIMITS, MISSED_NOMINAL, RULED_OUT, judge, missed_how
from kgrag.answering.refusal import is_refusal
from kgrag.answering.releases import release_verdict
from kgrag.answering.select import COMPLIANCE, Scored
from kgrag.answering.terms import QuestionTerms, analyse, asks_yes_no
from kgrag.answering.together import not_at_once
from kgrag.answering.units import Unit
from kgrag.answering.values import RANGE_ENDS, current_kinds, dimension_of_unit, dimension_words, value_dimensions
from kgrag.answering.words import content_terms, words_found
from kgrag.answering.works_with import incompatible
from kgrag.graph.datasheet.vocab import REF_DES

# the passages quoted after the deciding ones: as many as the closest passages (3 before round 62; 6 moved two tuned
# answers up and none down, and a verdict reached by a denial shows what the closest passages would have)
MORE_QUOTES = QUOTES
CLOSE = 20  # how far down the ranked units a note, an address row or a draw is read: near the question, not anywhere
YES_NO_WORDS = frozenset({"ok", "okay", "fine", "safe", "work", "possible", "able", "allowed"})
# "on its own", "standalone", "without a host board": the question asks whether the product works alone
_ALONE = re.compile(r"\b(?:on its own|by itself|stand-?alone|independently|without (?:a |an |any |the )?(?:host|"
                    r"carrier|microcontroller|(?:\w+ )?board))\b", re.IGNORECASE)
# "requires a GIGA R1 WiFi board to function", "must be connected for operation", "cannot be programmed independently"
_NEEDS_HOST = re.compile(r"\brequires?\b[^.]{0,80}?\b(?:to (?:function|operate|work)|for operation)\b|"
                         r"\bmust be (?:connected|mounted|attached)\b[^.]{0,60}?\bfor operation\b|"
                         r"\bcannot be programmed independently\b|\bthis board is passive\b", re.IGNORECASE)
_STANDALONE = re.compile(r"\bstand-?alone\b", re.IGNORECASE)  # "can function as a field-ready standalone board"


@dataclass
class Reading:
    """What the product's passages say about one written value: the units whose rating it fits (inside a range)
    and those whose rating it misses."""

    fits: list[Scored] = field(default_factory=list)
    ranged: list[Scored] = field(default_factory=list)
    misses: list[Scored] = field(default_factory=list)
    ruled_out: list[Scored] = field(default_factory=list)  # misses that deny the value ("is NOT 5V tolerant")


def read_value(value: tuple[float, str, bool], need: set[str], about: list[Scored]) -> Reading:
    """What the product's own units (`about`: its document's, or its graph facts) that rate the value's quantity
    (carrying a need word or the quantity's name) say of it; headings, parts-list rows and compliance notices ("none of
    the SVHCs … above 0.1 %") rate nothing."""
    dims = dimension_of_unit(value[1])  # "temperature" for a value in °C; a "%" is a humidity, a gas or a ratio:
    said = {d for d in dims if dimension_words({d}) & need}  # the one the question names ("90% RH … humidity") decides
    quantity = dimension_words(said or dims)  # which rows rate it, not an accuracy or a duty cycle in %
    own = [(s, content_terms(s.unit.scoped())) for s in about
           if s.unit.kind != "heading" and not parts_row(s.unit) and not COMPLIANCE.search(s.unit.text)]
    judged = [(s, judge(s.unit.value_text(), value), named)  # each rating once: what `fit` says, and how it misses
              for s, words in own if (named := named_need(need, words)) or quantity & words]
    rated = [(s, any(ok for ok, _ in verdicts) if verdicts else None, named) for s, verdicts, named in judged]
    missed_kinds = {id(s): {kind for ok, kind in verdicts if not ok} for s, verdicts, _ in judged}
    # the ratings of what is asked: a rating the value misses that names only some of the need words a rating it fits
    # names is about something else ("the 5V pin (+5 VDC)" beside "Applying 6 to 21 VDC to the VIN pin" for "12 V into
    # the VIN pin"); a rating it fits is never set aside so
    needed = [(s, v, n) for s, v, n in rated if v is not None and n and (v or not any(
        n < other for _, verdict, other in rated if verdict))]
    # a denial of the very value ("is NOT 5V tolerant") naming as many need words as any rating, or an only value
    # ("the only operating input voltage is +3.3 VDC") naming more than any rating the value fits, rules it out
    most = max((len(n) for _, v, n in rated if v is not None), default=0)
    most_fit = max((len(n) for _, v, n in rated if v), default=0)
    reading = Reading()  # the ratings of what is asked ("power … VIN"), not the relay's 250 VAC, when the need names one
    for s, verdict, named in needed or rated:
        if verdict is True:
            reading.fits.append(s)
            if RANGE_ENDS.search(s.unit.value_text()) or LIMITS.search(s.unit.value_text()):  # a range, or two limits
                reading.ranged.append(s)
        elif verdict is False:
            reading.misses.append(s)
            kinds = missed_kinds[id(s)]
            if "denied" in kinds and len(named) >= most or "only" in kinds and len(named) > most_fit:
                reading.ruled_out.append(s)
    return reading


# the words a datasheet writes for a board's pins: "3.3 V I/Os" are its digital pins, "GPIO" one of them
PIN_WORDS = frozenset({"pin", "i/o", "io", "gpio"})


def named_need(need: set[str], words: set[str]) -> set[str]:
    """The need words a unit's `words` name, a pin word named by any other ("a digital pin" by "only supports 3.3 V
    I/Os")."""
    named = words_found(need, words)
    return named | (need & PIN_WORDS if words_found(PIN_WORDS, words) else set())


# the first column of a parts list (bill of materials): a reference designator or a count of parts
_PARTS_KEY = re.compile(r"^\s*(?:ref(?:erence)?s?\.?|designators?|q\.?\s?ty\.?|quantity|pcs\.?)\s*$", re.IGNORECASE)
_PARTS_NAME = re.compile(r"^\s*(?:description|function|part(?: number)?|component|value)\s*$", re.IGNORECASE)
_COUNT = re.compile(r"^\d{1,3}$")


def parts_row(unit: Unit) -> bool:
    """A row of a parts list (header "Ref. | Description": "IC1 | 5V Linear Regulator | X1 | Power Jack Connector", or
    "q.ty | Function | Description": "1 | protect from reverse polarity | DIODE SCHOTTKY 2A 60V"): it names what each
    part is; its values ("5V", "60V") are the part's, not a rating of the product."""
    heads = unit.header.split("|") if unit.kind == "row" else []
    if not heads or _PARTS_KEY.match(heads[0]) is None:
        return False
    first = unit.text.split("|", 1)[0].strip()
    return REF_DES.match(first) is not None or (_COUNT.match(first) is not None
                                                and any(_PARTS_NAME.match(h) for h in heads[1:]))


# "24/30/110/220V | 10/4/0.3/0.12 A": one current per voltage, in the same order (a relay's breaking capacity)
_SLASH_LIST = re.compile(r"(?<![\w./])(\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?){1,7})\s?(V|A|mA)(?:AC|DC)?(?![\w/])")


def paired_limit(text: str, volts: float, amps: float) -> bool | None:
    """Whether `amps` stays within the current the text pairs with `volts` in two slash lists of equal length ("24/30/
    110/220V | 10/4/0.3/0.12 A": 0.3 A at 110 V); None when the text pairs no current with that voltage."""
    lists: dict[str, list[float]] = {}
    for m in _SLASH_LIST.finditer(text):
        values = [float(x) / (1000 if m.group(2) == "mA" else 1) for x in m.group(1).split("/")]
        lists.setdefault("V" if m.group(2) == "V" else "A", values)
    voltages, currents = lists.get("V"), lists.get("A")
    if not voltages or not currents or len(voltages) != len(currents) or volts not in voltages:
        return None
    return amps <= currents[voltages.index(volts)]


# A passage rating the product's own supply, not what its relays switch or its outputs give
_SUPPLY = re.compile(r"\b(?:supply|supplied|powered|power input|input voltage)\b", re.IGNORECASE)


def kind_missed(question: str, about: list[Scored]) -> tuple[str, Scored] | None:
    """(the kind its supply is rated for, the passage saying so) when the question powers the product with one kind
    of current ("24V AC") and its supply passages rate only the other ("Power Supply Terminals 12...24 VDC"); None
    when the question says no kind, or a supply passage rates the asked kind or none."""
    asked = current_kinds(question)
    if len(asked) != 1:
        return None
    rated = [(s, kinds) for s in about if _SUPPLY.search(s.unit.scoped()) and s.unit.kind != "heading"
             and (kinds := current_kinds(s.unit.value_text()))]
    if not rated or any(asked & kinds for _, kinds in rated):
        return None
    kind = next(iter(rated[0][1]))
    return kind, rated[0][0]


def writes_value_for(question: str, titles: Iterable[str]) -> bool:
    """The question writes a value for a product the context holds documents of: its other words may describe the
    user's situation ("an unheated outdoor box where winter nights reach -35 °C"), which no datasheet writes."""
    q = analyse(question)
    return bool(written_values(question)) and any(title_names(p, t) for p in q.phrases for t in titles if t)


def try_suits(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """"No." / "Yes." with the deciding passages for a yes/no question writing values for one named product, or for
    two used together ("the A with the B in a 75 °C cabinet": the pair suits only if each one does); None when the
    ratings do not decide (or no product is named, or more than two are)."""
    released = release_verdict(q, ranked)  # "can i set 57600 baud on fw 2.4.3": the release the feature needs
    if released is not None:
        verdict, bound, why = released
        return _decided(verdict, [bound.unit], ranked, titles, [], why)
    alone = _ALONE.search(q.text)  # "Can I use the A on its own?", "… without a Portenta board?" (not a product asked)
    products = [p for p in documented_names(q.phrases, titles.values())  # not "VIN", "Qwiic"
                if not (alone and " ".join(p) in alone.group(0))]
    if not products or len(products) > (1 if alone else 2) or not asks_yes_no(q):
        return None
    abouts = [[s for s in ranked if unit_about(name, s, titles)] for name in products]  # each one's own units
    if alone:
        name, own = products[0], abouts[0]
        needs = [s for s in own if _NEEDS_HOST.search(s.unit.text)]
        free = [s for s in own if _STANDALONE.search(s.unit.text) and not DENIES.search(s.unit.text)]
        if needs or free:  # its documents say it needs another board, or that it works standalone
            return _decided("No." if needs else "Yes.", (needs or free)[:1], own, titles, name)
        return None
    ruled_out = incompatible(need_terms(q, q.phrases) - YES_NO_WORDS, q.phrases, ranked[:CLOSE])  # "Will the camera of
    if ruled_out:  # the A work on a B?": the notes naming both that rule the camera out
        return _decided("No.", ruled_out, ranked, titles, products[0])
    for name, about in zip(products, abouts, strict=True):
        close = about[:CLOSE]
        note = not_at_once(q.text, close)  # "… a GPS fix while uploading at the same time?": its note that the two
        if note is not None:  # cannot run at once, then the closest passages
            return _decided("No.", [note], ranked, titles, name)
        shared = shares_bus(q.text, close) if len(products) == 1 else None  # "two of them on the same I2C bus?":
        if shared is not None:  # whether its address can be changed
            return _decided(shared[0], [shared[1]], ranked, titles, name)
        budget = over_budget(q.text, close)  # "a port that can supply 150 mA. Is that enough?": what it draws
        if budget is not None:
            return _decided("No.", [budget[1]], ranked, titles, name, budget[0])
    values, written = written_values(q.text), written_value_texts(q.text)
    supplied = supplied_current(q.text)  # a supply's capacity is no rating the product must meet ("900 mA" is not
    kept = [n for n, v in enumerate(values) if not (supplied and v[1] == "A" and v[0] == supplied[0])]  # over "80 mA")
    values, written = [values[n] for n in kept], [written[n] for n in kept]
    if not values:
        return None
    need = need_terms(q, products) - YES_NO_WORDS
    asked = {d for v in values for d in dimension_of_unit(v[1])}  # what follows the verdict states the same quantity,
    volts = [n for n, v in enumerate(values) if v[1] == "V"]
    amps = [n for n, v in enumerate(values) if v[1] == "A"]
    sides = []
    for name, about in zip(products, abouts, strict=True):  # the product's own units, best first
        if len(volts) == 1 and len(amps) == 1:  # "switch a 110 VDC valve that draws 1 A": the current rated at 110 V
            at, draw = values[volts[0]][0], values[amps[0]][0]
            paired = [s for s in about if paired_limit(s.unit.value_text(), at, draw) is False]
            if paired:
                why = f"{written[amps[0]]} at {written[volts[0]]} is more than this rating allows"
                return _decided("No.", paired[:1], about, titles, name, why)
        other_kind = kind_missed(q.text, about)  # "powered with 24V AC" and a supply rated "12...24 VDC"
        if other_kind is not None:
            kind, unit = other_kind
            return _decided("No.", [unit], about, titles, name, f"this rating is {kind}, not {'AC' if kind == 'DC' else 'DC'}")
        readings = [read_value(v, need, about) for v in values]
        own = [s for s in about if asked & value_dimensions(s.unit.value_text())]
        own = [s for s in own if words_found(need, content_terms(s.unit.scoped()))] or own  # about the need if any is
        plain = [n for n, r in enumerate(readings) if r.misses and (not r.fits or _beyond_the_other_side(r, values[n]))]
        missed = plain or [n for n, r in enumerate(readings) if r.ruled_out]  # else a value its passages rule out
        if missed:  # one product of the pair rated below what is asked decides it: a range or limit missed first
            how = {n: _beyond(readings[n].misses if plain else readings[n].ruled_out, values[n]) for n in missed}
            n = min(missed, key=lambda n: how[n][0] == MISSED_NOMINAL)
            if how[n][0] == RULED_OUT:  # the passage denying it, not a rating it fits too ("support 5V operation"),
                # then the closest passages, as when no rating decides: they often say why or what to do instead
                return _decided("No.", [how[n][1]], ranked, titles, name, f"{written[n]} {RULED_OUT} this passage")
            shown = [how[n][1]] + [r.fits[0] for r in readings if r.fits][:1]
            return _decided("No.", shown, own, titles, name, f"{written[n]} {how[n][0]} this rating")
        sides.append((readings, own))
    if all(r.ranged and not r.misses for readings, _ in sides for r in readings):
        units = [r.ranged[0] for readings, _ in sides for r in readings]
        why = f"{' and '.join(dict.fromkeys(written))} {'is' if len(set(written)) == 1 else 'are'} within " + (
            "this rating" if len({id(u) for u in units}) == 1 else "these ratings")
        return _decided("Yes.", units, [s for _, own in sides for s in own], titles, products[0], why)
    return None


def _beyond_the_other_side(reading: Reading, value: tuple[float, str, bool]) -> bool:
    """The value exceeds a maximum while it only meets minimums ("750 Ω" against "must not exceed 600 Ω" and "HART
    needs at least 250 Ω"), or is below a minimum while it only keeps under maximums: both bounds apply, it misses."""
    kinds = [{kind for ok, kind in judge(s.unit.value_text(), value) if ok} for s in reading.fits]
    hows = {missed_how(s.unit.value_text(), value) for s in reading.misses}
    return (all(k == {"floor"} for k in kinds) and "exceeds" in hows
            or all(k == {"limit"} for k in kinds) and "is below" in hows)


def _beyond(misses: list[Scored], value: tuple[float, str, bool]) -> tuple[str, Scored]:
    """How a missed value stands to the ratings that miss it (`missed_how`), and the unit saying so: a range or limit
    it misses before a value a passage rules out, before a nominal value it does not match."""
    hows = [(missed_how(s.unit.value_text(), value), s) for s in misses]
    return min(hows, key=lambda h: (h[0] == MISSED_NOMINAL, h[0] == RULED_OUT))


def _decided(verdict: str, units: list[Scored], own: list[Scored], titles: dict[int, str], name: list[str],
             why: str = "") -> str:
    """The verdict, each deciding unit once (led by its product unless the quote before was the same product's), the
    asked value against them (`why`: "24 V exceeds this rating"), then the product's best other passage for the
    question, which often says why or what to do instead."""
    out: list[str] = []
    shown: list[Scored] = []
    for s in units:
        if not any(s is u for u in shown):
            out.append(quote_unit(s, titles, name, led=shown[-1] if shown else None))
            shown.append(s)
    if why:  # after the unit that decides a "No.", after all of them for a "Yes."
        deciding = shown[:1] if verdict == "No." else shown
        cites = ", ".join(dict.fromkeys(str(s.unit.cited()) for s in deciding))
        out.insert(len(deciding), f"{why[:1].upper()}{why[1:]} [{cites}].")
    text = f"{verdict} {' '.join(out)}"
    more = quote_answer([s for s in own if all(s is not u for u in shown)], MORE_QUOTES, titles, said=text)
    return text if is_refusal(more) else f"{text} {more}"
