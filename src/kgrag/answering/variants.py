"""Which-variant questions over a variant table: "Which Opta variants can I use for Modbus RTU over RS-485?" with a
table of one column per variant ("Name | Opta Lite | Opta RS485 | Opta WiFi", row "RS-485 | N/A | Half-duplex |
Half-duplex"). The variants whose cell is filled in every row the question names are the answer, quoted with those
rows, so the user sees what each variant has (a small model read that table wrong as often as right). Also: whether
one named variant has it (`try_variant_has`), and how two named variants differ (`try_variant_differences`)."""

from __future__ import annotations

import os
import re

from kgrag.answering.asks import asks_difference
from kgrag.answering.aspects import ASPECTS
from kgrag.answering.choose import written_value_texts, written_values
from kgrag.answering.ratings import fit
from kgrag.answering.select import Scored
from kgrag.answering.units import Unit
from kgrag.answering.words import content_terms, words_found

# "Which Opta variants …", "which of the three versions …", "Which Opta variant should I buy": a pick among variants
_WHICH_VARIANT = re.compile(r"\bwhich\b(?:\s+[\w-]+){0,4}?\s+(?:variants?|versions?|models?|ones)\b", re.IGNORECASE)
ABSENT = frozenset({"", "n/a", "na", "-", "–", "—", "no", "none", "not available", "not supported", "x", "✗"})
GENERIC_NAME_WORDS = frozenset({"arduino"})  # a maker's name shared by every column names no family
# what the user rules out: "but no wireless", "without Ethernet", "the lab doesn't want any wireless radios"
_RULED_OUT = re.compile(r"(?:\bno|\bwithout|(?:\bnot|n['’]t)\s+(?:need|want|allow|use)s?(?:\s+any)?)\s+"
                        r"([\w/-]+(?:\s+[\w/-]+){0,2})", re.IGNORECASE)
_PART_WORDS = frozenset({"module", "antenna", "transceiver"})  # an aspect's words that name no feature a row would rule out


def ruled_out(question: str) -> set[str]:
    """The (folded) words of what the question rules out, with the words datasheet rows write for an aspect word
    ("no wireless": Wi-Fi, Bluetooth, LoRa …): rows labelled by them must be empty for a variant to fit."""
    words = content_terms(" ".join(m.group(1) for m in _RULED_OUT.finditer(question)))
    return words | {w for word in words for w in ASPECTS.get(word, ()) if w not in _PART_WORDS}


def _lower_words(text: str) -> list[str]:
    """The text's words, hyphenated ones whole, lower-cased: how a question and a column name are compared."""
    return [w.lower() for w in re.findall(r"[\w-]+", text)]


def asks_which_variant(question: str) -> bool:
    """The question asks which of a product's variants (versions, models) has what it names."""
    return bool(_WHICH_VARIANT.search(question))


def variant_names(unit: Unit, written: set[str]) -> list[str] | None:
    """The column names of a row's table when they are variants of one family the question names (the names share
    their first words, "Arduino Opta …", and the question's lower-cased words `written` hold one of them that is not
    the maker's)."""
    if unit.kind != "row" or not unit.header:
        return None
    heads = [h.strip() for h in unit.header.split("|")]
    cells = unit.text.split("|")
    if len(heads) != len(cells) or len(heads) < 3 or not all(heads[1:]):
        return None
    names = heads[1:]
    while len(names) > 2 and _REMARKS.fullmatch(names[-1]):  # "… | Portenta X8 Support | Notes": no variant
        names = names[:-1]
    names = [_SUPPORT.sub("", n) or n for n in names]  # "Portenta H7 Support": what the Portenta H7 supports
    words = [n.split() for n in names]
    shared: list[str] = []
    for column in zip(*words, strict=False):
        if len({w.lower() for w in column}) != 1:
            break
        shared.append(column[0].lower())
    family = [w for w in shared if w not in GENERIC_NAME_WORDS]
    if not family:  # one-word model codes of one family: "AS-200 | AS-200X" share "as-200"
        stem = os.path.commonprefix([n.lower() for n in names]).rstrip("- ")
        family = [stem] if len(stem) >= 3 and any(c.isdigit() for c in stem) else []
    return names if family and any(w in written for w in family) else None


_REMARKS = re.compile(r"(?i:notes?|remarks?|comments?|description)")  # a last column about the row, not a variant
_SUPPORT = re.compile(r"\s+(?i:support(?:ed)?|compatibility)$")  # a support matrix's column: "Portenta H7 Support"


def _filled(cell: str) -> bool:
    return cell.strip().lower().strip(" .") not in ABSENT


def _the_variants(names: list[str]) -> str:
    """"the A", "the A and the B", "the A, the B and the C"."""
    named = [f"the {n}" for n in names]
    return " and ".join(named) if len(named) < 3 else f"{', '.join(named[:-1])} and {named[-1]}"


def _rated_variants(question: str, ranked: list[Scored], written: set[str]) -> str | None:
    """"Which AS-200 model can work at 70 °C?": the variants whose cell of a variant table's row rates the one value
    the question writes inside its range or limit ("AS-200: 0 to 50 °C | AS-200X: 0 to 80 °C"), with that row; None
    when no row rates it for every variant or the row singles none out."""
    values = written_values(question)
    if len(values) != 1:
        return None
    for s in ranked:
        names = variant_names(s.unit, written)
        if names is None:
            continue
        verdicts = [fit(cell, values[0]) for cell in s.unit.text.split("|")[1:len(names) + 1]]
        if None in verdicts or all(verdicts) or not any(verdicts):
            continue
        having = [n for n, ok in zip(names, verdicts, strict=True) if ok]
        listed = _the_variants(having)
        rated, its = written_value_texts(question)[0], "its rating" if len(having) == 1 else "their ratings"
        return (f"{listed[0].upper()}{listed[1:]}: {rated} is within {its} [{s.unit.cited()}]. "
                f"{s.unit.display().rstrip(' .;')} [{s.unit.cited()}].")
    return None


def try_variants(question: str, ranked: list[Scored]) -> str | None:
    """The variants a variant table gives what the question names, with the table's rows on it (or whose row rates
    the value the question writes, `_rated_variants`); None unless the question asks which variant, a row of such a
    table is labelled by the question's words, and the rows single out some variants but not all."""
    if not asks_which_variant(question):
        return None
    unwanted = ruled_out(question)
    asked = content_terms(question) | unwanted
    written = set(_lower_words(question))
    rated = _rated_variants(question, ranked, written)
    if rated is not None:
        return rated
    tables: dict[tuple[int, str], tuple[list[str], list[Unit]]] = {}  # (block, header) -> (variant names, rows)
    for s in ranked:
        unit = s.unit
        label = unit.text.split("|")[0] if unit.kind == "row" else ""
        terms = content_terms(label)
        if not terms or words_found(terms, asked) != terms and not terms & unwanted:
            continue
        names = variant_names(unit, written)
        if names is None:
            continue
        rows = tables.setdefault((unit.block, unit.header), (names, []))[1]
        if all(r.text != unit.text for r in rows):
            rows.append(unit)
    if not tables:
        return None
    names, rows = max(tables.values(), key=lambda table: len(table[1]))  # the table with the most asked rows
    excluded = [bool(content_terms(r.text.split("|")[0]) & unwanted) for r in rows]  # a row of what is ruled out
    having = [n for i, n in enumerate(names, 1)  # every asked row filled, every ruled-out one empty
              if all(_filled(r.text.split("|")[i]) != out for r, out in zip(rows, excluded, strict=True))]
    if not having or len(having) == len(names):
        return None  # every variant has it, or none: the table does not single any out
    cited = rows[0].cited()
    listed = _the_variants(having)
    quotes = " ".join(f"{r.display().rstrip(' .;')} [{r.cited()}]." for r in rows)
    return f"{listed[0].upper()}{listed[1:]} [{cited}]. {quotes}"


CATALOGUE_CODE = re.compile(r"[a-z]{1,4}0\d{4,}", re.IGNORECASE)  # "ABX00045": which product, not what it has
# a row of the variants' own identity ("SKU | ZG001 | ZG002"): it tells them apart, but no variant "has" its cell
IDENTITY_LABEL = re.compile(r"(?i:sku|p/n|part\s+(?:no\.?|number)|order(?:ing)?\s+(?:code|number)|product\s+code|"
                            r"name|model|code)s?\s*")
_WHOLE_FAMILY = re.compile(r"\b(?:family|series|line-?up|variants|versions|models)\b", re.IGNORECASE)  # every one
_PARENTHESIS = re.compile(r"\s*\(([^)]*)\)")  # "Arduino Opta Lite (AFX00003)": the column's code


def named_variant(names: list[str], written: set[str]) -> int | None:
    """The one column the question names: every word of its name but the maker's written (the most specific name
    when several are, "Portenta H7 Lite" over "Portenta H7"), or its code in parentheses; None when none or a tie."""
    named: list[tuple[int, int]] = []
    for i, name in enumerate(names):
        codes = {c.lower() for c in _PARENTHESIS.findall(name)}
        words = _lower_words(_PARENTHESIS.sub("", name))
        words = [w for w in words if w not in GENERIC_NAME_WORDS]
        if words and set(words) <= written or codes & written:
            named.append((len(words), i))
    if not named:
        return None
    best = max(named)
    return best[1] if [n for n, _ in named].count(best[0]) == 1 else None


def _has(cell: str, label_asked: bool, asked: set[str]) -> bool:
    """Whether a variant's cell gives what is asked: filled, for a row labelled by the asked thing ("RS-485 | N/A");
    else writing an asked word ("Connectivity | Ethernet PHY / Wi-Fi")."""
    return _filled(cell) if label_asked else bool(words_found(asked, content_terms(cell)))


def _one_of(label: str, asked: set[str]) -> bool:
    """One of the alternatives a label lists with slashes names what is asked, hyphens aside ("NBIoT/CatM1/2G" for a
    question's "NB-IoT")."""
    folded = {w.replace("-", "") for w in asked}
    pieces = [{w.replace("-", "") for w in content_terms(p)} for p in label.split("/") if p.strip()]
    return len(pieces) > 1 and any(piece and piece <= folded for piece in pieces)


def try_variant_has(question: str, ranked: list[Scored], yes_no: bool) -> str | None:
    """"We ordered the Opta Lite. Can it talk RS-485?": a yes/no question naming one variant of a variant table,
    answered by the table's row on what it asks, when that row sets the variants apart (some have it, some not):
    the verdict, the named variant's cell and the variants that have it, then the row. None otherwise."""
    if not yes_no or asks_which_variant(question) or _WHOLE_FAMILY.search(question):
        return None
    written = set(_lower_words(question))
    asked = content_terms(question)
    for s in ranked:
        names = variant_names(s.unit, written)
        column = named_variant(names, written) if names else None
        if names is None or column is None:
            continue
        cells = s.unit.text.split("|")
        if IDENTITY_LABEL.fullmatch(cells[0].strip()):
            continue
        label = content_terms(cells[0])  # whole words: "connected" (a variant's name) is no "connectivity"; one of
        by_label = bool(label) and (label <= asked or _one_of(cells[0], asked))  # "NBIoT/CatM1/2G" as "NB-IoT"
        name_words = {w for n in names for w in _lower_words(n)}
        looked_for = {w for w in asked - name_words - label if not CATALOGUE_CODE.fullmatch(w)}  # not "AFX00003"
        if not by_label and not looked_for:
            continue
        has = [_has(cell, by_label, looked_for) for cell in cells[1:len(names) + 1]]
        if all(has) or not any(has):
            continue  # the row does not set the variants apart
        name, cited = names[column], s.unit.cited()
        others = [n for n, h in zip(names, has, strict=True) if h and n != name]
        cell = cells[column + 1].strip() or "N/A"
        verdict = (f"Yes. The {name}: {cells[0].strip()}: {cell} [{cited}]." if has[column] else
                   f"No. The {name}: {cells[0].strip()}: {cell} [{cited}]; {_the_variants(others)} "
                   f"{'has' if len(others) == 1 else 'have'} it [{cited}].")
        return f"{verdict} {s.unit.display().rstrip(' .;')} [{cited}]."
    return None


# Difference questions between two variants of one variant table ("What's the difference between the ABX00045 and the
# ABX00046 Portenta boards?"): the rows whose two cells differ, each with both cells; a small model mixes the columns up
MAX_ROWS = 8  # differing rows quoted
MAX_SHARED = 4  # shared row labels named
MAX_SHOWN_CELL = 40  # a shared cell this short is shown with its row's label
# "What's missing on the A compared with the B?", "the A vs the B": two variants set against each other
_SET_AGAINST = re.compile(r"\b(?:compared\s+(?:with|to)|vs\.?|versus|missing|lacks?)\b", re.IGNORECASE)


def try_variant_differences(question: str, ranked: list[Scored]) -> str | None:
    """The rows of a variant table whose cells for the two variants the question names differ (those of the asked
    aspects when the question names some: "in terms of connectivity and security"), with both cells; None unless the
    question asks how two variants differ and one table names both and tells them apart."""
    if not (asks_difference(question) or _SET_AGAINST.search(question)):
        return None
    written, asked = set(_lower_words(question)), content_terms(question)
    tables: dict[tuple[int, str], tuple[list[str], list[Unit]]] = {}  # (block, header) -> (variant names, rows)
    for s in ranked:
        names = variant_names(s.unit, written)
        if names is not None:
            rows = tables.setdefault((s.unit.block, s.unit.header), (names, []))[1]
            if all(r.text != s.unit.text for r in rows):
                rows.append(s.unit)
    for names, rows in sorted(tables.values(), key=lambda table: -len(table[1])):
        cells = [[c.strip() for c in r.text.split("|")] for r in rows]
        columns = named_columns(question, names, [c for c in cells if IDENTITY_LABEL.fullmatch(c[0])])
        if len(columns) != 2:
            continue
        a, b = columns
        kept = [(r, c) for r, c in zip(rows, cells, strict=True) if len(c) > b + 1 and not IDENTITY_LABEL.fullmatch(c[0])]
        differ = [(r, c) for r, c in kept if c[a + 1].lower() != c[b + 1].lower()]
        if not differ:
            continue
        on_aspect = [(r, c) for r, c in differ if words_found(content_terms(c[0]), asked)]
        shown = (on_aspect or differ)[:MAX_ROWS]
        said = [f"The {names[a]} and the {names[b]} differ in the variant table [{rows[0].cited()}]:"]
        said += [f"{c[0]}: the {names[a]}: {c[a + 1] or 'N/A'}; the {names[b]}: {c[b + 1] or 'N/A'} [{r.cited()}]."
                 for r, c in shown]
        same = [f"{c[0]} ({c[a + 1]})" if 0 < len(c[a + 1]) <= MAX_SHOWN_CELL else c[0]
                for _, c in kept if c[a + 1].lower() == c[b + 1].lower() and content_terms(c[a + 1])][:MAX_SHARED]
        if same:
            said.append(f"Both have the same {', '.join(same)} [{rows[0].cited()}].")
        return " ".join(said)
    return None


def named_columns(question: str, names: list[str], identity: list[list[str]]) -> list[int]:
    """The columns the question names, in its order: by a column's whole name written as a phrase (not inside a
    longer named one: "Portenta H7" in "Portenta H7 Lite"), or by an order code its identity row (`identity`:
    "SKU | ABX00042 | ABX00045 | ABX00046") gives it."""
    spans: dict[int, list[tuple[int, int]]] = {}  # column -> where the question names it
    for i, name in enumerate(names):
        written = [name] + [row[i + 1] for row in identity if i + 1 < len(row) and row[i + 1]]
        for text in written:
            spans.setdefault(i, []).extend(m.span() for m in re.finditer(rf"(?<![\w-]){re.escape(text)}(?![\w-])",
                                                                       question, re.IGNORECASE))
    alone = {i: [(s, e) for s, e in found if not any(j != i and s2 <= s and e <= e2 and (s2, e2) != (s, e)
                                                      for j, other in spans.items() for s2, e2 in other)]
             for i, found in spans.items()}
    return sorted((i for i, found in alone.items() if found), key=lambda i: alone[i][0][0])
