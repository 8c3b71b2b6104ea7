"""The words technical documents use for what an overview question asks about. "Summarize the wireless capabilities
of the A" is answered by rows that never say "wireless" ("Wi-Fi | 802.11b/g/n", "Bluetooth | 5.0"), so an overview
question's aspect word ("wireless", "power", "memory", "I/O") brings the domain's words for it into the ranking of
the passages. A thesaurus of electronics documentation, not of any product."""

from __future__ import annotations

import re

from kgrag.answering.ambient import ambient_quantities
from kgrag.answering.asks import OVERVIEW_WORDS, asks_overview
from kgrag.answering.units import Unit
from kgrag.answering.words import fold, term_list

# Aspect word (folded, as `term_list` writes it) -> the words datasheets write for it.
_ASPECTS: dict[str, str] = {
    "power": "voltage supply battery regulator ldo charger pmic current consumption input jack vin usb",
    "regulation": "regulator ldo dc-dc converter buck voltage",
    "battery": "li-ion lipo li-po charger cell voltage connector",
    "wireless": "wi-fi bluetooth ble lora lorawan cellular lte nb-iot cat-m1 nfc uwb antenna radio module",
    "radio": "wi-fi bluetooth ble lora cellular nfc uwb antenna module transceiver",
    "connectivity": "wi-fi bluetooth ethernet lora cellular usb can rs-485 uart i2c spi",
    "communication": "uart i2c spi can rs-485 ethernet usb wi-fi bluetooth",
    "network": "ethernet wi-fi cellular lora rj45",
    "security": "crypto secure element cryptochip encryption key certificate",
    "sensing": "sensor temperature humidity pressure imu accelerometer gyroscope magnetometer microphone gas light "
               "proximity gesture camera",
    "sensor": "temperature humidity pressure imu accelerometer gyroscope magnetometer microphone gas light proximity "
              "gesture",
    "environmental": "temperature humidity pressure gas air quality",
    "motion": "imu accelerometer gyroscope magnetometer axis",
    "memory": "flash sram ram eeprom qspi psram sdram storage kb mb",
    "storage": "flash qspi eeprom microsd sd card mb",
    "processor": "microcontroller mcu core cortex mhz clock cpu",
    "processing": "microcontroller mcu core cortex mhz clock cpu",
    "microcontroller": "processor mcu core cortex mhz clock flash sram",
    "i/o": "pin digital analog pwm uart i2c spi gpio adc dac header connector",
    "input": "pin digital analog channel voltage resolution adc current",
    "output": "pin digital analog channel relay pwm dac current",
    "interface": "usb ethernet can uart i2c spi connector header",
    "connector": "usb header socket terminal jack connector",
    "connection": "usb header connector terminal jack ethernet uart i2c spi",
    "audio": "microphone speaker pdm i2s codec amplifier buzzer",
    "display": "lcd oled touch screen resolution pixel",
    "camera": "resolution fps mipi dvp pixel lens",
    "debug": "swd jtag debugger probe",
    "debugging": "swd jtag debugger probe",
}
ASPECTS: dict[str, tuple[str, ...]] = {k: tuple(v.split()) for k, v in _ASPECTS.items()}
# Folded words of an overview question that name no aspect ("Summarise what the A provides", "Describe the main
# features of the A"): such a question is about the whole product.
_WHOLE = frozenset(OVERVIEW_WORDS | {"give", "provide", "offer", "include", "feature", "capabilitie", "capability",
                                     "main", "key", "overall", "spec", "specification", "detail"})


def asks_whole(question: str, attributes: set[str]) -> bool:
    """An overview question whose asked (folded) words name no aspect of the product: every passage about it answers."""
    return asks_overview(question) and all(a in _WHOLE or a.startswith("summar") for a in attributes)


def aspect_terms(question: str) -> list[str]:
    """For an overview question, the domain's words for the aspects it names that the question does not write
    itself ("Summarize the wireless features" -> wi-fi, bluetooth, lora, …); none for other questions."""
    if not asks_overview(question):
        return []
    written = term_list(question)
    said = set(written)
    out: list[str] = []
    parts = [p for w in written for p in ([w, *w.split("-")] if "-" in w else [w])]  # "motion-sensing": its words too
    for word in parts:
        for term in ASPECTS.get(fold(word), ()):
            if term not in said and term not in out:
                out.append(term)
    return out


# A user's words for a spec that datasheets label otherwise: "What ingress protection does it have?" is answered by the
# row "Degree of protection | IP67", "What reliability figure …" by "MTBF", "How cold can it run?" by "Operating
# temperature". Phrases, not single words, so a question that merely says "reliably" or "hot-swap" is left alone; "how
# big" is left out: it asks the size of a part as often as the board's dimensions (measured: 3 answers lower).
_LABELS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), tuple(words.split()))
    for pattern, words in (
        (r"\bingress protection\b|\bwater-?proof\b|\bdust-?proof\b|\bIP\s+(?:rating|code|class)", "degree protection ingress ip"),
        (r"\breliability\b", "mtbf"),
        (r"\bhow (?:cold|hot|warm)\b", "operating temperature"),
        (r"\bhow heavy\b", "weight"),
        # "How wide is the X?", "the height of the X": datasheets give a size product, "Dimensions (W × H × D) | …"
        (r"\bhow wide\b", "width dimensions"),
        (r"\bhow tall\b", "height dimensions"),
        (r"\bhow deep\b", "depth dimensions"),
        (r"\bhow thick\b", "thickness dimensions"),
        (r"\b(?:width|height|depth)\s+of\s+(?:the|an?|its|this|each)\b", "dimensions"),
        (r"\bcosts?\b", "price"),  # "How much does the X cost?": "List price (GBP) | 389.00"
        (r"\bRAM\b", "sram memory"),  # "How much RAM …?": "2 GB of LPDDR4 memory", "SRAM | 32 KB"
        (r"\bSRAM\b", "ram"),  # "How much SRAM …?": "1 MB Flash + 256 kB RAM"
        # "What is its clock speed?": datasheets give the processor's frequency ("a Cortex-M0+ running at up to 48 MHz")
        (r"\bclock\s+(?:speed|frequency|rate)\b|\bclocked\b", "processor mhz"),
        # "Can it be powered with 24V AC?", "power it from 5 V": a voltage to power it with asks its supply rating
        (r"\bpower(?:ed)?\s+(?:it\s+|them\s+)?(?:with|from|at|off|by)\s+(?:an?\s+|up\s+to\s+)?\d", "supply voltage"),
    )
)


# "Could we use them in a blast freezer that runs at −35 °C?": whether a product works at a temperature the user
# writes is read from its operating temperature rating
_USE_AT = (re.compile(r"\b(?:operate|operating|run|runs|running|use|used|work|works|survive|suitable|ok|okay|fine|"
                      r"handle|handles|withstand|withstands|tolerate|tolerates|rated|function|functions)\b",
                      re.IGNORECASE),
           ("operating", "temperature"))


def label_terms(question: str) -> list[str]:
    """The words datasheet rows label a spec with, for a question that asks for it in a user's words (none written
    in the question already)."""
    said = set(term_list(question))
    out: list[str] = []
    labels = list(_LABELS)
    if "temperature" in ambient_quantities(question):  # "can it run at −35 °C?", "at -30 °C, the A or the B?"
        labels.append(_USE_AT)
    for pattern, words in labels:
        if pattern.search(question):
            out.extend(w for w in words if w not in said and w not in out)
    return out


def with_aspect_words(text: str, question: str) -> str:
    """`text` (a search query) followed by the words datasheet rows write for the aspects an overview `question` asks
    about ("Summarize the wireless connectivity of the A" also searches "wi-fi bluetooth …") and for a spec asked in a
    user's words ("Is the A ok at −35 °C?" also searches "operating temperature", `label_terms`)."""
    return " ".join([text, *dict.fromkeys([*aspect_terms(question), *label_terms(question)])])


def labelled_by(unit: Unit, words: set[str]) -> bool:
    """A value line of a list labelled by one of `words` ("IEEE 802.11b up to 11Mbit" under "Wi-Fi"): a datasheet's
    feature list gives one value per line under the label and names neither the aspect nor the product."""
    return unit.labelled_value() and bool(set(term_list(unit.heading)) & words)
