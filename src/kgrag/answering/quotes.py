"""Quotes in the documents' own words: the closest passages shown when no single unit states the asked value, and the
key passages that follow an answer ("From the documents: …"), each sentence with its neighbours on its source line."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from kgrag.answering.asks import alternative_names, asks_overview
from kgrag.answering.aspects import asks_whole, aspect_terms, labelled_by
from kgrag.answering.extract import MIN_NAMES
from kgrag.answering.names import documented_names, title_names
from kgrag.answering.refusal import CITE, NO_ANSWER, is_refusal
from kgrag.answering.repeats import near_copy, numbers_in, restates, sibling_row
from kgrag.answering.select import Focus, Scored
from kgrag.answering.terms import QuestionTerms, question_coverage
from kgrag.answering.units import FACT_SUBJECT, MAX_SPEC_WORDS, Unit
from kgrag.answering.values import dimension_words, has_value, part_numbers, value_dimensions
from kgrag.answering.words import content_terms, term_list
from kgrag.graph.datasheet.vocab import ORDER_CODE
from kgrag.ingest.clean import squash
from kgrag.retrieve.compact import COPY_NOTE

# A passage that only points elsewhere: to a figure or table ("… is illustrated in the figure below", "The table below
# summarizes the power consumption …", "The power tree … can be consulted below:") or to a link ("Reference: …; Link:
# https://…"). Without what it points to it states nothing, so it is no quote.
_POINTER = re.compile(r"\b(?:figure|table|image|picture|diagram|illustration)s?\s+(?:below|above)\b"
                      r"|\b(?:below|above)\s+(?:figure|table|image|picture|diagram)\b|\billustrated (?:in|below|above)\b"
                      r"|\bshown (?:below|above|in the (?:figure|image|picture|diagram))\b|^\s*(?:below|above) (?:is|are)\b"
                      r"|\b(?:below|above)\s*:?\s*$|\bthe (?:next|following) (?:figure|table|image|diagram)s?\b"
                      r"|\bthe following list\b|https?://"
                      # or to other documents: "please refer to its corresponding documentation", "REFER TO THE DATA
                      # SHEET …", "contact your supplier", "… can be found on the product page"
                      r"|\brefer to (?:the|its|our|their|this)\b[^.]{0,60}?\b(?:documentation|docs|data ?sheets?|manuals?|"
                      r"guides?|pages?|site|website)\b|\bcontact your (?:supplier|distributor|dealer|reseller)\b"
                      r"|\bcan be found (?:in|on|at) (?:the|our)\b[^.]{0,40}?\b(?:documentation|docs|pages?|site|website)\b",
                      re.IGNORECASE)


def points_elsewhere(text: str) -> bool:
    """The text points to a figure, a table or a link and states no value of its own."""
    return bool(_POINTER.search(text)) and not has_value(text)


FROM_DOCUMENTS = "From the documents:"  # leads the quotes that follow an answer
QUOTES = 6  # units quoted (the closest passages, each with its neighbours) when no single unit states the asked value: as
# long as a model answer with its four key passages (median 156 vs 169 words on the tuned sets; 4 quoted gave 111)
KEY_SCORE = 0.3  # a key passage scores at least this share of the best focus unit
CLOSE_SCORE = 0.8  # a key passage scoring this share of the best unit needs no asked word: it says it in other words
OVERVIEW_SCORE = 0.5  # an overview's key passages: more of them, so a lower share (0.5 and 0.6 quoted the same)
SAID_SHARE = 0.6  # share of a unit's words an answer must hold for the unit to count as said
MIN_QUOTE_WORDS = 5
_DATED = re.compile(r"\b(?:19|20)\d\d-\d\d-\d\d\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+"
                    r"(?:\d{1,2},?\s+)?(?:19|20)\d\d\b")  # a heading dating what is under it (a release, a revision)
_RECORD = re.compile(r"^[A-Z]{1,5}-?\d{2,}[A-Za-z]?\s+[-–—:]?\s*[A-Z]")  # "KB-1047 CO2 reading too high", "E14 - Output …"


def leads(heading: str) -> bool:
    """A heading that says which record its lines belong to leads their quote: a release's date ("Firmware 4.0
    (2026-05-02)"), a knowledge-base article's or an alarm's code ("KB-1047 CO2 reading too high or responding
    slowly": "Applies to: RC-340 and RC-360" is that article's), a part's number ("BQ24125L I2C Controlled USB/Adapter
    Charger": "92% Charge Efficiency at 2 A" is the charger's)."""
    return bool(_DATED.search(heading) or _RECORD.match(heading))


MAX_LIST_LINES = 8  # lines of a labelled spec list quoted together
MAX_LABEL_WORDS = 20  # a longer label is the prose before the list: the lines are quoted without it


def quote_answer(ranked: list[Scored], n: int = QUOTES, titles: Mapping[int, str] | None = None,
                 said: str = "", pool: list[Scored] | None = None) -> str:
    """The best `n` units quoted with their markers: the no-LLM answer when no single unit states the value. A unit
    repeating one already quoted ("has power component: MP2322" / "…: MP2322GQH", a pin row repeating another's
    description) adds nothing and is passed over, and so is one whose words the text `said` (an answer the quotes
    follow) or the quotes before it already hold, and a copy note. A quoted sentence travels with the sentences
    before and after it on its source line (from `pool`, default `ranked`): the one after often qualifies it ("Pins closer to the edge are CAN0.
    … When used with the Portenta H7, only CAN1 is available"), and a line of a labelled spec list with the whole list
    under its label ("AP2112K-3.3 (LDO): Regulates input voltage from 5V to 3.3V; Up to 550mA output current …"). With `titles` (block number -> document title) a quote is led by its product (a gathered graph fact
    by its subject) unless it names it or the quote before was led by it."""
    out: list[str] = []
    seen: list[str] = []
    units: list[Unit] = []
    told = content_terms(CITE.sub(" ", said))
    told_numbers = numbers_in(said)
    quoted_terms: set[str] = set()  # the words and numbers of the quotes so far: a unit saying only these adds nothing
    quoted_numbers: set[str] = set()
    by_place = {(s.unit.block, s.unit.pos): s.unit for s in (ranked if pool is None else pool)}
    lists = _list_lines(by_place)
    quoted: set[tuple[int, int]] = set()
    led = ""  # the product of the quote before: the next quote of the same product needs no lead
    added = 0

    def said_before(unit: Unit) -> bool:  # by the answer the quotes follow (a number it lacks, "parameter P01", is
        # more), or by the quotes so far
        return (bool(told and _said_already(unit, told)) and numbers_in(unit.display()) <= told_numbers
                or _requoted(unit, quoted_terms, quoted_numbers))

    for s in ranked:
        key = squash(s.unit.display())
        listed = _spec_list(s.unit, lists, quoted)
        if (not _quotable(s) or len(s.unit.text.split()) < MIN_QUOTE_WORDS and not listed
                or (s.unit.block, s.unit.pos) in quoted
                or any(key in k or k in key for k in seen) or near_copy(s.unit.text, [u.text for u in units])
                or restates(s.unit, units) or sibling_row(s.unit, units)):
            continue
        rest = []
        if said_before(s.unit):  # the answer said it: the sentences around it on its line (a reason, a condition)
            rest = [u for u in _sentence_window(s.unit, by_place, quoted) if u is not s.unit and not said_before(u)
                    and len(u.text.split()) >= MIN_QUOTE_WORDS] if told and not listed else []
            quoted.add((s.unit.block, s.unit.pos))
            if not rest:
                continue
        seen.append(key)
        units.append(s.unit)
        window = rest or listed or [u for u in _sentence_window(s.unit, by_place, quoted)  # a neighbour already said
                                    if u is s.unit or not said_before(u)]  # stays out
        quoted.update((u.block, u.pos) for u in window)
        if listed:  # under its label, or the lead-in that introduces it; not a paragraph of prose
            label = s.unit.heading.rstrip(" :")
            text = (f"{label}: " if len(label.split()) <= MAX_LABEL_WORDS else "") + "; ".join(u.display() for u in listed)
        else:
            text = " ".join(u.display() for u in window)
            if leads(s.unit.heading) and s.unit.heading not in text:  # a release note's line under its heading,
                text = f"{s.unit.heading}: {text}"  # "Firmware 4.0 (2026-05-02)", an article's under its id
        quote = re.sub(r"\s{2,}", " ", CITE.sub("", text)).rstrip(" .;")  # a document's own "[1]" is no source
        fact = FACT_SUBJECT.match(s.unit.heading) if titles is not None else None  # a gathered graph fact: its subject
        title = (titles or {}).get(s.unit.block, "") or (fact["name"] if fact else "")
        if title and title != led and title.lower() not in quote.lower():
            quote = f"{title}: {quote}"
        led = title
        out.append(f"{quote} [{s.unit.cited()}].")
        quoted_terms |= content_terms(text)
        quoted_numbers |= numbers_in(text)
        added += not rest  # what an answer left unsaid around its own words takes no passage's place
        if added == n:
            break
    return " ".join(out) or NO_ANSWER


def key_quotes(q: QuestionTerms, focus: Focus, titles: Mapping[int, str], n: int, said: str) -> str:
    """The `n` key passages quoted after an answer that `said` something, each sentence with its neighbours."""
    return quote_answer(key_passages(q, focus.ranked, focus.units, titles), n, titles, said=said, pool=focus.ranked)


def sides_first(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str]) -> list[Scored]:
    """`ranked` with the best quotable unit of each product a question sets side by side first ("the A or the B?",
    "A vs B: which … does each one use?"), so the closest passages show both, not the better-scored one only; for a
    question about one product with documents here, another product's passages after its own ("MKR Vidor 4000: dc
    current per I/O pin" for the Nano Every): they may show what its documents lack, not what they say of it."""
    sides = q.compares or alternative_names(q.text, q.phrases)
    first: list[Scored] = []
    for side in sides:
        best = next((s for s in ranked if _quotable(s) and len(s.unit.text.split()) >= MIN_QUOTE_WORDS
                     and title_names(side, titles.get(s.unit.block, ""))), None)
        if best is not None and all(best is not f for f in first):
            first.append(best)
    if len(first) == 2:
        return first + [s for s in ranked if all(s is not f for f in first)]
    if len(documented_names(q.phrases, titles.values())) == 1 and any(s.own for s in ranked):
        return sorted(ranked, key=lambda s: (s.variant or s.elsewhere) and not s.own)
    return ranked


def _quotable(s: Scored) -> bool:
    """The unit may be quoted: scored, not another product's, no heading, no copy note (where else a passage appears
    says nothing on its own) and not pointing elsewhere."""
    return (s.unit.kind != "heading" and s.score > 0 and not s.foreign and not s.unit.text.startswith(COPY_NOTE)
            and not points_elsewhere(s.unit.text))


def documents_tail(quotes: str) -> str:
    """The quotes that follow an answer, led by "From the documents:"; empty when there are none."""
    return "" if is_refusal(quotes) else f"{FROM_DOCUMENTS} {quotes}"


def followed_by(text: str, quotes: str) -> str:
    """`text` with the documents' own words after it ("From the documents: …"), unless there are none."""
    tail = documents_tail(quotes)
    return f"{text}\n\n{tail}" if tail else text


def _sentence_window(unit: Unit, by_place: Mapping[tuple[int, int], Unit], quoted: set[tuple[int, int]]) -> list[Unit]:
    """A sentence with the sentences right before and after it on the same source line (not quoted yet; a lead-in
    ending ":" whose list is elsewhere stays out); a row or fact line alone."""
    if unit.kind != "sentence":
        return [unit]
    around = [by_place.get((unit.block, unit.pos + d)) for d in (-1, 0, 1)]
    return [u for u in around if u is unit or (
        u is not None and u.kind == "sentence" and (u.paragraph, u.line) == (unit.paragraph, unit.line)
        and (u.block, u.pos) not in quoted and not u.text.rstrip().endswith(":"))]


ListKey = tuple[int, int, str]  # block, paragraph, heading


def _list_lines(by_place: Mapping[tuple[int, int], Unit]) -> dict[ListKey, list[Unit]]:
    """The sentence units of each paragraph under each heading, in reading order: the lines a spec list may hold."""
    lines: dict[ListKey, list[Unit]] = {}
    for _, u in sorted(by_place.items()):
        if u.kind == "sentence":
            lines.setdefault((u.block, u.paragraph, u.heading), []).append(u)
    return lines


def _spec_list(unit: Unit, lists: Mapping[ListKey, list[Unit]], quoted: set[tuple[int, int]]) -> list[Unit]:
    """The labelled spec list a line belongs to (a datasheet's "Wi-Fi" followed by "IEEE 802.11b up to 11Mbit", "2.4 GHz,
    13 channels", …: one line per value under the label), in order; empty for any other unit or a list of one line."""
    if not unit.labelled_value():
        return []
    lines = [u for u in lists.get((unit.block, unit.paragraph, unit.heading), []) if (u.block, u.pos) not in quoted]
    short = all(len(u.text.split()) <= MAX_SPEC_WORDS and not u.text.rstrip().endswith(".") for u in lines)  # no prose
    return lines[:MAX_LIST_LINES] if len(lines) > 1 and short and 2 * sum(has_value(u.text) for u in lines) >= len(lines) else []


def _said_already(unit: Unit, told: set[str]) -> bool:
    """Most of the unit's content words are in the answer already: quoting it adds nothing."""
    words = content_terms(unit.display())
    return bool(words) and len(words & told) >= SAID_SHARE * len(words)


def _requoted(unit: Unit, terms: set[str], numbers: set[str]) -> bool:
    """Most of the unit's words and every number it writes are in the quotes before it: it says what they said (with
    a number of its own, "a 500mA PTC fuse" after "PTC nominal value 0.5A", it states another value)."""
    return bool(terms) and _said_already(unit, terms) and numbers_in(unit.display()) <= numbers


def key_passages(q: QuestionTerms, ranked: list[Scored], shown: Collection[int],
                 titles: Mapping[int, str] | None = None) -> list[Scored]:
    """The focus units a small model's answer may be followed by: in a block the model was `shown` (any block for an
    overview), close to the best unit's score, carrying an asked word (or an overview aspect's; or scoring nearly as
    high as the best, saying it in other words), and about the named product (naming it or in its own document; not
    a variant's), so a quote brings no other product in. When the question offers two products as alternatives
    (`titles`: block number -> document title), each one's best passage comes first."""
    top = max((s.score for s in ranked), default=0.0)
    sides = alternative_names(q.text, q.phrases) if titles else []  # "the A or the B?": each one's best passage first
    overview = asks_overview(q.text)  # "Summarize the wireless features of the A": its rows in the aspect's words
    aspect = set(aspect_terms(q.text))  # ("Wi-Fi | 802.11b/g/n"), from any block, not only the shown ones

    def about(s: Scored, side: list[str]) -> bool:
        return title_names(side, (titles or {}).get(s.unit.block, ""))

    whole = asks_whole(q.text, q.attributes)  # "Summarise what the A provides": no word of it needs to be quoted

    def asked(s: Scored) -> bool:
        return (whole or s.attributes > 0 or not q.attributes or s.score >= CLOSE_SCORE * top
                or bool(aspect and aspect & set(term_list(s.unit.scoped()))))

    keep = [s for s in ranked if (overview or s.unit.block in shown) and s.score >= (OVERVIEW_SCORE if overview else KEY_SCORE) * top
            and asked(s)  # a unit about one of two alternatives names half of the names
            and (any(about(s, side) for side in sides)
                 or not (q.names and (s.names < MIN_NAMES and not s.own or s.variant)))]
    if overview and not aspect:  # "Give me an overview of the A": its passages stating values or parts first, before
        keep.sort(key=lambda s: not _states_specs(s.unit))  # the ones that praise it ("Prototyping: an invaluable tool")
    lead = [next((s for s in keep if about(s, side)), None) for side in sides]
    first = [s for s in lead if s is not None]
    if overview and aspect:  # the product's spec lists labelled by the aspect ("Wi-Fi", "Bluetooth Low Energy")
        first += [s for s in ranked if s.own and all(s is not f for f in first) and labelled_by(s.unit, aspect)]
    return first + [s for s in keep if all(s is not f for f in first)]


def _states_specs(unit: Unit) -> bool:
    """The unit states a value ("84 MHz", "7-12 V") or names a part ("SAM3X8E"): a fact an overview can give."""
    return has_value(unit.text) or bool(part_numbers(unit.text))


NO_DIRECT_ANSWER = "The documents do not contain a direct answer; the closest passages:"
STATED_LEAD = "The documents say:"  # the closest passages when the first ones write most words the question asks
# the lead reads 3 passages: the first writes half the asked words, the three together 3/4 (docs/benchmarks.md)
LEAD_PASSAGES, LEAD_FIRST, LEAD_COVERAGE = 3, 0.5, 0.75


def evidence_lead(question: str, evidence: str) -> str:
    """How the closest passages are introduced when no reason is known: "The documents say:" when the first ones
    write most words the question asks ("Does the Opta support Modbus TCP?" – "… Modbus TCP communication are
    supported"; "What does alarm E2 mean?" – "Alarm E2 means …"), the first on the topic (not words spread over
    unrelated passages), so the answer does not claim the documents lack what they state; else no direct answer."""
    pieces = CITE.split(evidence, maxsplit=LEAD_PASSAGES)[0:2 * LEAD_PASSAGES:2]  # text, marker, text …
    measured = " ".join(dimension_words(value_dimensions(pieces[0])))  # "How long …?": "30 to 60 s" says how long
    codes = set(ORDER_CODE.findall(question))  # "ABX00051 camera specs?": the retriever found the one product by its
    measured += f" {codes.pop()}" if len(codes) == 1 else ""  # code, which its passages seldom write (two codes set
    # two products side by side: each one's passages are read as they are)
    stated = (question_coverage(question, f"{pieces[0]} {measured}") >= LEAD_FIRST
              and question_coverage(question, " ".join([*pieces, measured])) >= LEAD_COVERAGE)
    return STATED_LEAD if stated else NO_DIRECT_ANSWER
