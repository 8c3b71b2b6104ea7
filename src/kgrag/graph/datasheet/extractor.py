"""The `datasheet` extractor (no LLM): products from document identity, typed components, spec facts, relations.

Per chunk: the product (chunk/document metadata: folder or record product, title, SKU codes as aliases) and
its family; components named by part numbers in headings, table cells and list headers, typed by the class
words around them; spec facts `(subject, attribute, value)` from table rows, `label: value` lines and short
spec lines under a component; "X uses / is based on / integrates Y" sentences as typed relations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.graph.datasheet import lines as L
from kgrag.graph.datasheet.identity import document_identity, title_alias
from kgrag.graph.datasheet.vocab import (
    ABOUT_PART_WORDS,
    CUE,
    CUE_LABEL,
    DOCUMENT_TYPE,
    FAMILY_TYPE,
    HEADER_WORDS,
    INTERFACE,
    INTERFACE_GROUP,
    INTERFACE_TYPE,
    PART_TYPE,
    PRODUCT_TYPE,
    REF_DES,
    SKIP_ATTRIBUTE_WORDS,
    SKIP_TABLE_WORDS,
    SKU,
    VALUE_TYPE,
    board_group,
    is_junk_name,
    is_positions,
    type_from_words,
)
from kgrag.graph.extract import Extraction, ExtractionBuilder, Extractor, register_extractor
from kgrag.graph.keys import entity_key
from kgrag.ingest.jsonl import RECORD_PREFIX
from kgrag.types import Chunk

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

HAS_LABEL = {"Sensor": "has sensor", "Microcontroller": "has microcontroller", "Module": "has module", "Memory": "has memory",
             "Power": "has power component", "Security": "has secure element", "Connector": "has connector",
             "Display": "has display", "Actuator": "has actuator", PART_TYPE: "has component"}
MAX_VALUE_CHARS = 60
MAX_ATTRIBUTE_WORDS = 6
_CONVERTED = re.compile(r"\s*\(\s*[-+]?\s?\d+(?:[.,]\d+)?\s?°[CF]\s*\)")  # "-40 °C (-40 °F)": the same value converted
_SCOPE_TAIL = re.compile(r"\s+for\s+(?:the\s+)?(?:whole|entire|complete)\s+(?:board|device|module|system|product)\s*$",
                         re.IGNORECASE)
MAX_HEAD_WORDS = 4  # "NXP SR150 UWB transceiver"; not "On the top of DCU150 module", not a label "CAN02: …"
_VALUE_HEAD = re.compile(r"\s\(|,\s")  # where an explanation of a value starts
_FILLER = {"with", "up", "to", "of", "the", "a", "an", "and", "at", "for", "in", "on", "from", "typical", "typ",
           "max", "min", "maximum", "minimum", "approx", "approximately", "than", "more", "less", "range"}


_FOOTNOTE = re.compile(r"[¹²³⁴⁵⁶⁷⁸⁹⁰*†‡]+(?=\s|$)")


# an interface word inside a model's name: after a model token ("R4", "33") or before a model number ("1010"); not
# after "802.11" or a code's digits ("TS-30 LoRaWAN node"), nor before a version ("Bluetooth 5.0")
_IN_MODEL_NAME_BEFORE = re.compile(r"(?<![\w.-])(?:[A-Z]\d{1,2}|\d{2,4})\s+$")
_IN_MODEL_NAME_AFTER = re.compile(r"\s+\d{3,5}(?![\w.])")


@dataclass
class _State:
    """What one chunk's reading knows: the product, the current component and the current table header."""

    product: str
    subject: str
    header: list[str] = field(default_factory=list)
    skip_table: bool = False
    in_interface_group: bool = False  # under a feature list's interface group title ("High-speed CAN")
    subject_of_group: bool = False  # the subject was listed under such a group, so the next group title ends it


# A list item starting between two mentions gives the cue its own subject: "a SAMD21 processor, a WiFi+BT module based
# on ESP32" says nothing of the SAMD21
_OTHER_SUBJECT = re.compile(r"[,;]\s*(?:and\s+)?(?:a|an)\s", re.IGNORECASE)
INTERFACE_LABEL = re.compile(r"(?i)\b(interfaces?|peripherals?|communication|connectivity|buses)\b")  # rows listing them


class DatasheetExtractor(Extractor):
    """Structure-aware, typed extraction for datasheets, manuals and support documents; deterministic, no LLM."""

    name = "datasheet"
    uses_llm = False
    version = "2"  # 2: flat-folder products named by their title without its kind (identity.title_identity)

    def __init__(self, titles: dict[str, str] | None = None) -> None:
        self.titles = titles or {}  # doc_id -> document title

    def extract(self, chunk: Chunk) -> Extraction:
        builder = ExtractionBuilder(chunk.text, validate=False)
        identity, product = document_identity(chunk, self.titles.get(chunk.doc_id, ""))
        aliases: list[str] = []
        if identity and not product:
            builder.entity(identity, DOCUMENT_TYPE, chunk.category or "")  # a FAQ or guide: its facts, no product
        elif product:
            builder.entity(product, PRODUCT_TYPE, f"{product} ({chunk.category})" if chunk.category else product)
            alias = title_alias(product, self.titles.get(chunk.doc_id, ""))
            aliases += [alias] if alias else []
            head = RECORD_PREFIX.match(chunk.text)  # a record's "[Product: …] [Category: …] [SKU: …]" line, or
            first = (SKU.search(chunk.text.split("\n", 1)[0]) if head  # the first page of a document
                     else SKU.search(chunk.text) if chunk.ord == 0 or chunk.page_start == 1 else None)
            if first and first.start() < 200:  # the product's own code heads its first page; later codes are others'
                aliases.append(first.group(1).strip("-_/"))
            if chunk.category and entity_key(chunk.category) != entity_key(product):
                builder.entity(chunk.category, FAMILY_TYPE)
                builder.relation(product, "belongs to", chunk.category)
        state = _State(product, identity)
        self._section(builder, state, chunk.section)
        for raw in chunk.text.split("\n"):
            line = L.clean(raw)
            if line:
                self._line(builder, state, line)
        extraction = builder.build()
        for e in extraction.entities:
            if product and e.type == PRODUCT_TYPE and entity_key(e.name) == entity_key(product):
                e.aliases = list(dict.fromkeys(a for a in aliases if a and entity_key(a) != entity_key(product)))
        return extraction

    # -- structure --------------------------------------------------------------------------------
    def _section(self, b: ExtractionBuilder, state: _State, section: str) -> None:
        """The innermost heading naming a part makes that part the subject of the chunk's facts."""
        for heading in reversed([h for h in section.split(" > ") if h.strip()]):
            header = L.component_header(L.strip_section_number(heading))
            if header:
                state.subject = self._component(b, state, header[0], header[1]) or state.subject
                return

    def _component(self, b: ExtractionBuilder, state: _State, name: str, context: str) -> str | None:
        """Add a part as a typed component of the product; returns its name (None if rejected)."""
        if is_junk_name(name) or (state.product and entity_key(name) == entity_key(state.product)):
            return None
        etype = type_from_words(context) or type_from_words(name) or PART_TYPE
        desc = f"{name}: {context}" if context else name
        if b.entity(name, etype, desc[:200]) is None:
            return None
        if state.product:
            b.relation(state.product, HAS_LABEL.get(etype, "has component"), name, desc[:200])
        return name

    def _line(self, b: ExtractionBuilder, state: _State, line: str) -> None:
        cells = L.split_row(line)
        if cells is not None:
            self._row(b, state, cells, line)
            return
        state.header, state.skip_table = [], False
        title = line.strip(" :")
        if board_group(title):  # a feature list's next group ("Power", "Relays") is the product's, not the part's
            state.subject, state.in_interface_group = state.product, False  # listed before it
            return
        if INTERFACE_GROUP.fullmatch(title):  # a group title: "I2C" ends the part listed under "High-speed
            if state.subject_of_group:  # CAN"; a module heading its own list keeps its "Wi-Fi" sub-group
                state.subject, state.subject_of_group = state.product, False
            state.in_interface_group = True
        rows = L.serialized_rows(line)
        table = L.as_grid(rows, line)
        if table is not None and len(table[0]) > 2:  # a grid of several columns: header then rows (Min/Typ/Max/Unit)
            for cells in [table[0], *table[1]]:
                self._row(b, state, cells, line)
            state.header, state.skip_table = [], False
            return
        if rows:
            for row, col, value in rows:
                cells = [row, value] if col.lower().strip(" .:") in HEADER_WORDS else [f"{row} {col}", value]
                self._row(b, state, cells, line)
            return
        other_product = SKU.search(line) is not None  # "Portenta C33: SKU: ABX00074": a product listed as compatible
        header = L.component_header(line) if not other_product else None  # or related, not a part of this one
        if header:
            subject = self._component(b, state, header[0], header[1])
            if subject:
                state.subject, state.subject_of_group = subject, state.in_interface_group
            return
        kv = L.key_value(line)
        if kv and (len(kv[1].split()) <= 6 or L.quantities(kv[1])):
            self._fact(b, state, state.subject, kv[0], kv[1], line)
            return
        if L.is_spec_line(line):
            self._spec_line(b, state, line)
            return
        if not other_product:  # "Arduino USB Type-C Cable 2-in-1 (SKU: TPX00094)": another product's interfaces
            self._interfaces(b, state, line)
        for sentence in L.sentences(line):
            self._sentence(b, state, sentence)

    def _row(self, b: ExtractionBuilder, state: _State, cells: list[str], line: str) -> None:
        """A table row: a header row sets the columns; ref/description rows name components; others are facts."""
        if L.is_header_row(cells):
            state.header = [c.lower().strip(" .:") for c in cells]
            state.skip_table = any(w in SKIP_TABLE_WORDS for c in state.header for w in c.split())
            return
        if (cells[0].split() and cells[0].split()[0].lower().strip(":") in SKIP_TABLE_WORDS
                and not any(ch.isdigit() for c in cells[1:] for ch in c)):  # "Frequency bands | Maximum output power"
            state.skip_table = True  # regulatory, revision and contact tables carry no product facts; a data row
            # ("Frequency Range | 6.24–8.24 GHz") of a spec table does not start one
        if state.skip_table or not any(cells):
            return
        ref_table = bool(state.header) and state.header[0].startswith("ref")
        # a pin table's "ATMega4809 update interface" names the chip a signal belongs to, not a part the product has
        pin_table = bool(state.header) and state.header[0].startswith("pin")
        for i, cell in enumerate(cells if not pin_table else []):  # "U2 | BMI270 Sensor IMU": a part with its class words
            if ref_table and i < len(state.header) and state.header[i].startswith("ref"):
                continue  # "U16-U19", "L0-L4": board positions, not parts
            parts = L.part_names(cell)
            at_start = parts and (parts[0][0] == 0 or ref_table and L.is_vendor(cell[:parts[0][0]]))
            if at_start and len(cell.split()) <= 8:  # in a board-position table "U4 | Bosch BME688 …" too
                after = cell[parts[0][1]:parts[1][0] if len(parts) > 1 else None]
                if after.split() and after.split()[0].lower().strip(":,.") in ABOUT_PART_WORDS:
                    continue  # "LSM6DSL Library": software for the part, not a part of the product
                words = after.split()  # "DL2 | KPHHS-1005SURCK 0402 SMD red LED J1 | … pin headers": a PDF merged
                position = next((k for k, w in enumerate(words) if REF_DES.match(w)), None)  # the next position in
                if position is not None:
                    after = " ".join(words[:position])  # and the next cell describes that position, not this part
                elif len(parts) == 1 and i + 1 < len(cells) and not L.part_names(cells[i + 1]):
                    after += " " + cells[i + 1]
                self._component(b, state, parts[0][2], after)
        first = cells[0]
        if first.replace(".", "").isdigit() or not first:
            return  # pin tables and numbered lists: positions, not attributes
        if INTERFACE_LABEL.search(first) and state.subject == state.product:  # "Digital Peripherals | UART (x2), I2C …"
            self._interfaces(b, state, " | ".join(cells[1:]))
        values = [c for c in cells[1:] if c and c.upper() not in {"TBC", "TBD", "N/A", "-", "—"}]
        if not values:
            return
        header = state.header
        if header and header[0].startswith("ref"):
            return  # board-position tables name components (above), their cells are not attributes
        if header and header[0] == "symbol" and len(cells) == len(header) - 1 and len(first.split()) > 2:
            cells = ["", *cells]  # a PDF drops an empty Symbol cell: "Conservative thermal limits for the whole board: |
            # -40 °C | 85 °C" under "Symbol | Description | Min | Max" (a symbol is one or two words)
        if header and any(h in ("min", "typ", "max") for h in header) and len(header) == len(cells):
            self._ranged_fact(b, state, cells, header, line)
            return
        attribute = first
        if header and len(cells) >= 3 and header[0] in ("symbol", "ref", "ref.", "name") and len(cells[1].split()) <= 8:
            attribute = cells[1]
            values = [c for c in cells[2:] if c]
        if len(values) == 1 or (len(cells) == 2):
            self._fact(b, state, state.subject, attribute, values[0], line)

    def _ranged_fact(self, b: ExtractionBuilder, state: _State, cells: list[str], header: list[str], line: str) -> None:
        """`VIN | Input voltage | 4.5 | 5 | 21 | V` under `Symbol | Description | Min | Typ | Max | Unit`."""
        col = {h: i for i, h in enumerate(header)}
        unit = cells[col["unit"]] if "unit" in col else ""
        label = cells[col["description"]] if "description" in col else cells[0]
        parts = []
        for key in ("min", "typ", "max"):
            if key in col and cells[col[key]].strip() and cells[col[key]].upper() not in {"TBC", "TBD", "-"}:
                parts.append((key, _CONVERTED.sub("", cells[col[key]]).strip()))
        if not parts:
            return
        if len(parts) >= 2 and parts[0][0] == "min" and parts[-1][0] == "max":
            value = f"{parts[0][1]} to {parts[-1][1]} {unit}".strip()
        else:
            value = ", ".join(f"{k} {v} {unit}".strip() for k, v in parts)
        self._fact(b, state, state.subject, label, value, line)

    def _spec_line(self, b: ExtractionBuilder, state: _State, line: str) -> None:
        """`260 to 1260 hPa absolute pressure range with 24 bit precision` -> (subject, absolute pressure range, 260 to 1260 hPa)."""
        found = L.quantities(line)
        start, end, value = found[0]
        if line[:start].rstrip().endswith("@"):
            return  # "(… @ 1 Hz sampling rate)": the condition of a value before it, not a fact of its own
        after = [w for w in line[end:].replace(",", " , ").split() if w]
        words: list[str] = []
        for w in after:
            if w in {",", "with", "at", "@", "for", "on", "per", "+"} or w[:1] in "(+" or any(c.isdigit() for c in w):
                break
            words.append(w)
        if not words:
            words = [w for w in line[:start].split() if w.lower() not in _FILLER][-MAX_ATTRIBUTE_WORDS:]
        attribute = " ".join(w for w in words if w.lower() not in {"up", "to", "of"})
        self._fact(b, state, state.subject, attribute, value, line)

    def _fact(self, b: ExtractionBuilder, state: _State, subject: str, attribute: str, value: str, line: str) -> None:
        """(subject, attribute, value) when both are informative: a short label and a short value."""
        attribute = " ".join(_FOOTNOTE.sub("", attribute).strip(" :-–").split())  # "UWB DPD mode²": a footnote mark
        if len(attribute.split()) > MAX_ATTRIBUTE_WORDS:  # "Conservative thermal limits for the whole board": the label
            attribute = _SCOPE_TAIL.sub("", attribute)  # before the scope it is given for
        value = " ".join(value.strip(" ;,").split())
        if len(value) > MAX_VALUE_CHARS:  # "Renesas ZMOD4410AI1V (total volatile organic compounds, …)": a part
            head = _VALUE_HEAD.split(value, 1)[0].strip()  # named first, then explained; the name is the value
            value = head if L.part_names(head) and len(head.split()) <= MAX_HEAD_WORDS and ":" not in head else value
        if (not subject or not attribute or not value or len(value) > MAX_VALUE_CHARS
                or len(attribute.split()) > MAX_ATTRIBUTE_WORDS or is_junk_name(attribute) or "http" in value
                or entity_key(attribute) == entity_key(value) or not attribute[:1].isalpha()
                or L.QUANTITY.search(attribute) or is_positions(attribute) or SKU.search(line)
                or not attribute.isascii() or attribute.split()[0].lower() in SKIP_ATTRIBUTE_WORDS):
            return
        parts = L.part_names(value)
        if parts and subject == state.product and type_from_words(attribute):
            self._component(b, state, parts[0][2], f"{attribute} {value}")  # "Microcontroller: Kestrel K32"
        if b.entity(value, VALUE_TYPE, "") is None:
            return
        b.relation(subject, attribute.lower(), value, line[:240])

    def _interfaces(self, b: ExtractionBuilder, state: _State, line: str) -> None:
        """Interfaces a product's own document names (I2C, SPI, UART, USB, Wi-Fi …)."""
        if not state.product:
            return
        line = line.replace(state.product, " ")  # "BLE" inside the product's own name is not an interface
        for m in INTERFACE.finditer(line):
            name = m.group(0)
            if _IN_MODEL_NAME_BEFORE.search(line, 0, m.start()) or _IN_MODEL_NAME_AFTER.match(line, m.end()):
                continue  # "UNO R4 WiFi", "Nano 33 BLE", "MKR WiFi 1010": another product's name, no interface
            if b.entity(name, INTERFACE_TYPE, "") is not None:
                b.relation(state.product, "has interface", name, line[:240])

    def _sentence(self, b: ExtractionBuilder, state: _State, sentence: str) -> None:
        """`The board is based on the nRF52840, which uses …`: entity mention, relation cue, entity mention."""
        mentions = self._mentions(state, sentence)
        for _, end, name, etype in mentions:  # "… the QRF52832 microcontroller …" in a product's own document
            if etype == PART_TYPE and type_from_words(" ".join(sentence[end:].split()[:2])):
                self._component(b, state, name, " ".join(sentence[end:].split()[:2]))
        if len(mentions) < 2:
            return
        for (_s0, e0, n0, t0), (s1, e1, n1, t1) in zip(mentions, mentions[1:], strict=False):
            between = sentence[e0:s1]
            cue = CUE.search(between)
            if not cue or len(between.split()) > 8 or _OTHER_SUBJECT.search(between[: cue.start()]):
                continue
            label = next(lab for rx, lab in CUE_LABEL if rx.match(cue.group(1)))
            for name, etype, end in ((n0, t0, e0), (n1, t1, e1)):
                if etype == PART_TYPE:  # typed by the words right after it: "the BMM150 magnetometer"
                    self._component(b, state, name, " ".join(sentence[end:].split()[:2]))
            b.relation(n0, label, n1, sentence[:240])

    def _mentions(self, state: _State, sentence: str) -> list[tuple[int, int, str, str]]:
        """Product, part-number and interface mentions in a sentence, in order: (start, end, name, type)."""
        found: list[tuple[int, int, str, str]] = []
        low = sentence.lower()
        if state.product:
            for phrase in (state.product.lower(), "the board", "this board", "the product", "the module"):
                pos = low.find(phrase)
                if pos >= 0:
                    found.append((pos, pos + len(phrase), state.product, PRODUCT_TYPE))
                    break
        for s, e, name in L.part_names(sentence):
            if not any(s < fe and fs < e for fs, fe, _, _ in found):
                found.append((s, e, name, PART_TYPE))
        return sorted(found)


def document_titles(index: Workspace) -> dict[str, str]:
    return {doc_id: doc.title for doc_id, doc in index.documents().items()}


@register_extractor("datasheet")
def _make_datasheet(index: Workspace, options: dict[str, Any]) -> Extractor:
    return DatasheetExtractor(document_titles(index))
