"""Generic vocabulary of technical documents: component class words -> entity types, relation cues, junk names.

Nothing here names a product or a part: only class nouns (sensor, microcontroller, connector …) that any
datasheet, manual or support document uses, so the same rules work on documents we have never seen.
"""

from __future__ import annotations

import re

from kgrag.graph.rules_patterns import INTERFACE, PART, QUANTITY

# Class words (lower case, matched as whole words) -> entity type; the first matching rule wins.
TYPE_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Sensor", ("sensor", "sensors", "imu", "accelerometer", "gyroscope", "magnetometer", "barometer", "microphone",
                "camera", "thermometer", "hygrometer", "tof", "time-of-flight", "encoder", "photodiode", "mic")),
    ("Microcontroller", ("microcontroller", "mcu", "processor", "soc", "cpu", "cortex", "core", "fpga", "dsp", "npu",
             "neural processor", "system-on-chip", "co-processor", "coprocessor")),
    ("Module", ("module", "radio", "transceiver", "modem", "wi-fi", "wifi", "bluetooth", "lora", "cellular")),
    ("Memory", ("flash", "sram", "ram", "eeprom", "memory", "psram", "sdram", "emmc")),
    ("Power", ("regulator", "converter", "dc-dc", "ldo", "pmic", "charger", "buck", "boost", "power management")),
    ("Security", ("crypto", "secure element", "security", "authentication")),
    ("Connector", ("connector", "header", "headers", "jack", "socket", "terminal", "terminals", "plug")),
    ("Display", ("display", "screen", "lcd", "oled", "tft")),
    ("Actuator", ("relay", "relays", "motor", "buzzer", "led", "leds", "speaker")),
)
COMPONENT_TYPES = frozenset(t for t, _ in TYPE_RULES)
PRODUCT_WORDS = ("product", "board", "boards", "kit", "shield", "carrier", "device", "devices", "products")
# Words a question may use for an entity of each type ("which boards", "what sensors").
TYPE_WORDS: dict[str, tuple[str, ...]] = {**dict(TYPE_RULES), "Product": PRODUCT_WORDS,
                                          "Interface": ("interface", "interfaces", "bus", "protocol", "connectivity")}
PRODUCT_TYPE = "Product"  # the product a document is about (board, kit, shield, carrier …)
FAMILY_TYPE = "ProductFamily"
DOCUMENT_TYPE = "Document"  # a guide or FAQ without a product identity
PART_TYPE = "Component"  # a part number whose class words were not found
VALUE_TYPE = "Value"
CHECKMARKS = frozenset({"yes", "no"})  # a compliance table's marks ("FCC USA | Yes"): values, but no spec of the product
INTERFACE_TYPE = "Interface"
FEATURE_TYPE = "Feature"
_TYPE_WORDS = [(t, re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in ws) + r")(?![\w-])", re.I))
               for t, ws in TYPE_RULES]

# Relation cues in sentences "X <cue> Y" -> relation label.
RELATION_CUES: tuple[tuple[str, str], ...] = (
    (r"is based on|are based on|based on|built around|built on", "based on"),
    (r"is powered by|powered by|driven by|runs on|running on", "powered by"),
    (r"integrates|integrating|integrated", "integrates"),
    (r"embeds|embedding|embedded", "embeds"),
    (r"uses|using|use|utilizes|leverages", "uses"),
    (r"contains|containing|includes|including|comes with|equipped with|features|featuring|combines|houses|hosts|"
     r"packs|carries|offers|provides|has", "includes"),
    (r"connected to|connects to|communicates with|interfaces with|linked to|attached to", "connected to"),
    (r"compatible with|works with|designed for|requires", "compatible with"),
)
CUE = re.compile(r"(?<![\w-])(" + "|".join(c for c, _ in RELATION_CUES) + r")(?![\w-])", re.I)
CUE_LABEL = [(re.compile(rf"^(?:{c})$", re.I), label) for c, label in RELATION_CUES]

# Words that are never an entity on their own (table headers, filler, units of layout).
_COMMON_TEXT = """
description function type value values min max typ typical unit units symbol parameter parameters pin pins note
notes name ref reference table figure page section features feature yes no n/a na tbd tbc none other others
general overview top bottom left right input output inputs outputs power ground gnd vcc vdd digital analog
default item items details detail data info information comments comment remarks condition conditions
"""
COMMON_WORDS = frozenset(_COMMON_TEXT.split())
HEADER_WORDS = frozenset({"min", "max", "typ", "typical", "unit", "units", "value", "values", "symbol", "parameter",
                          "description", "conditions", "condition", "specification", "specifications", "rating",
                          "ratings", "characteristic", "characteristics", "feature", "features", "details"})
# Column titles that are also row labels ("Interfaces | USB-C, I2C" is a fact): a header row only when every cell is one
# ("Interfaces | Connector")
COLUMN_WORDS = frozenset({"interface", "interfaces", "connector", "connectors", "function", "functions", "type",
                          "component", "components", "item", "items", "signal", "signals"})
# A group title of a product's feature list ("Power", "Sleep Modes"): what follows is the product's again, not the part
# listed before it ("ATmega328 Microcontroller" and its bullets, then "Power | 7-15V unregulated external power supply")
BOARD_GROUPS = frozenset({"power", "power supply", "sleep modes", "input/output", "i/o", "dimensions",
                          "connectivity", "interfaces", "environment", "mechanical", "operating conditions"})
PARTS_GROUP = re.compile(r"[A-Z][a-z]{3,}s")  # one capitalised plural alone on its line: "Relays", "Sensors"


def board_group(title: str) -> bool:
    """A feature list's group title that is the product's again: a board group ("Power", "Sleep Modes") or a group of
    its parts of one class ("Relays", "Sensors"; not "Peripherals" under a microcontroller, which names no class)."""
    return title.lower() in BOARD_GROUPS or bool(PARTS_GROUP.fullmatch(title) and type_from_words(title))


# A feature list's group titled by its interface alone ("I2C", "High-speed CAN", "Wi-Fi/Bluetooth Low Energy"): it
# ends a part listed under the group before it ("TJA1049T/3J able to work at 12V/24V DC" under "High-speed CAN")
INTERFACE_GROUP = re.compile(rf"(?i:(?:high|full|low|half)[- ]speed\s+)?(?:{INTERFACE.pattern})"
                             rf"(?:\s*[/,&]\s*(?:{INTERFACE.pattern}))*")
# Words after a part name in a table cell that make the cell name software or a document about the part, not the part
# on the board: a reference table's "LSM6DSL Library | https://github.com/…", copied into the datasheets of boards
# without that sensor.
ABOUT_PART_WORDS = frozenset({"library", "libraries", "driver", "drivers", "firmware", "sdk", "api", "datasheet",
                              "documentation", "example", "examples"})
SKIP_TABLE_WORDS = frozenset({"date", "revision", "changes", "substance", "link", "url", "company", "reference",
                              "lead", "exemptions", "frequency"})
# Attribute labels that are never product facts, among them a caption ("Figure 1: … Block Diagram") and a web page's
# tags; "Frequency Range | 6.24–8.24 GHz" is one (only a table of frequency bands, the radio-regulatory one, is
# skipped whole).
SKIP_ATTRIBUTE_WORDS = SKIP_TABLE_WORDS - {"frequency"} | {"figure", "fig", "table", "tags", "keywords"}

SKU = re.compile(r"\b(?i:SKU|P/N|Part (?:No\.?|Number)|Order(?:ing)? (?:code|number)|Product (?:code|reference))"
                 r"\s*[:#]?\s*((?=[A-Z0-9_\-/]*\d)[A-Z0-9][A-Z0-9_\-/]{3,})")
# A product's order code as a question or a listing writes it apart from the name: "ABX00045", "ASX00037-3P"
ORDER_CODE = re.compile(r"\b[A-Z]{3}\d{5}(?:-\w+)?\b")
# U9, J6, SJ1, PB1, D13, A0 and ranges such as U16-U19 or L0-L4: board positions and pins
REF_DES = re.compile(r"^(?:[A-Z]{1,2}\d{1,2}|[A-Z]\d{3})[A-Z]?(?:-(?:[A-Z]{1,2})?\d{1,3})?$")
# Letter-digit names that are no parts: pins ("GPIO12"), numbered interface instances ("I2C0", "CAN1", "UART2") and
# zero-padded catalogue numbers of whole products ("ABX00097", "A000067"), which a datasheet lists as related products.
NOT_A_PART = re.compile(r"(?i:GPIO|PIO|IO)\d+|(?i:I2C|I3C|SPI|QSPI|UART|USART|CAN|USB|SDIO|I2S|SAI|ETH)\d+|[A-Z]{1,4}0\d{4,}")
HYPHEN_NAME = re.compile(r"(?<![\w-])[A-Z][a-z]+-[A-Z]\d+[A-Z+]*(?![\w-])")  # Cortex-M4F style core names
PREFIXED_PART = re.compile(r"(?<![\w-])([A-Z]{2,6})[ -]([A-Z]?\d{2,}[A-Z0-9]*)(?![\w-]|\.\d)")  # "NINA B306", "ANNA-B112"
# "Kestrel K32", "Syntiant NDP120": a vendor/series word before a short code (never "Table 12", "Header J5").
NAMED_PART = re.compile(r"(?<![\w-])([A-Z][a-z]{2,})[ -]([A-Z]{1,3}\d{2,}[A-Z0-9]*)(?![\w-]|\.\d)")
NOT_VENDOR = frozenset({"table", "figure", "section", "page", "header", "connector", "pin", "pins", "jumper", "button",
                        "led", "port", "rev", "revision", "version", "chapter", "step", "note", "appendix", "slot"})
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")

__all__ = ["INTERFACE", "PART", "QUANTITY"]


def type_from_words(text: str) -> str:
    """The entity type suggested by class words in `text` (a heading, a table cell, a phrase), or "": the first
    phrase of class words names the thing, and within it the last word, its head ("Crypto chip … cryptographic
    co-processor" is security, "Display connector" a connector, "6-axis IMU sensor" a sensor); a tie goes to the
    earlier type of TYPE_RULES."""
    found = sorted((m.start(), rank, m.end(), etype) for rank, (etype, regex) in enumerate(_TYPE_WORDS)
                   for m in regex.finditer(text))
    if not found:
        return ""
    _, _, end, etype = found[0]
    for start, _, later_end, later_type in found[1:]:
        if start < end:
            continue  # another type's word inside the span already read
        if _PHRASE_GAP.fullmatch(text[end:start]) is None:
            break  # the phrase ended
        end, etype = later_end, later_type
    return etype


_PHRASE_GAP = re.compile(r"[\s-]{1,2}")  # between two words of one noun phrase ("IMU sensor", "display connector")


def is_positions(text: str) -> bool:
    """Board positions a table's first cell lists ("U9", "U18,19,20,21", "Q1, Q2", "Q Q J11 J11" where the PDF split the
    cells): what sits there is a part, the positions are no attribute of the product."""
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    return any(REF_DES.match(t) for t in tokens) and all(
        REF_DES.match(t) or t.isdigit() or (len(t) == 1 and t.isalpha() and t.isupper()) for t in tokens)


def is_part_number(token: str) -> bool:
    """A token that names one specific part: letters and digits, not a board position or pin (U9, D13)."""
    token = token.strip()
    if REF_DES.match(token) or len(token) < 4 or NOT_A_PART.fullmatch(token):
        return False
    return bool(PART.fullmatch(token) or HYPHEN_NAME.fullmatch(token))


def is_junk_name(name: str) -> bool:
    """A name that is only a common word, a bare number, punctuation or a sentence fragment."""
    words = name.split()
    if not words or len(name) > 60 or len(words) > 7:
        return True
    if all(w.lower().strip(".,:;()") in COMMON_WORDS for w in words):
        return True
    if re.fullmatch(r"[\W\d_.,±+\-–~x×/ ]+", name):
        return True  # bare numbers and symbols
    return name[:1].islower() and len(words) > 4  # a lower-case run of words is a fragment, not a name
