"""Regular expressions for what NER misses in technical text: part numbers, quantities with units, interfaces."""

from __future__ import annotations

import re
from dataclasses import dataclass

PART_TYPE = "Part"
QUANTITY_TYPE = "Quantity"
INTERFACE_TYPE = "Interface"

_UNITS = (
    "mAh|Ah|Wh|mWh|µA|uA|nA|mA|kA|A|µV|uV|mV|kV|V|µW|uW|mW|kW|W|GHz|MHz|kHz|Hz|Gbps|Mbps|kbps|bps|Gbit/s|Mbit/s|"
    "kbit/s|GB|MB|KB|kB|Gb|Mb|Kb|kb|B|bytes?|bits?|°C|ºC|°F|K|hPa|kPa|MPa|Pa|bar|mbar|psi|mm|cm|km|µm|um|nm|"
    "mg|kg|dps|°/s|ms|µs|us|ns|sec|min|hours?|Ω|kΩ|MΩ|ohms?|kohms?|dBm|dBi|dB|ppm|lux|lx|%|RPM|rpm|"
    "LSB|pF|nF|µF|uF|F|µH|uH|mH|µT|uT|cores?|pins?|channels?|fps|Nm|N|dpi"
).replace("µ", "[µμ]")  # PDFs write the micro sign or the Greek mu: "2μA", "3μT"
_SPACED_UNITS = "g|m|s|h"  # one-letter lower-case units need a space ("802.11g" is not 802.11 grams)
_NUMBER = r"(?:(?:\+/-|\+-)\s?|[-+±])?\d+(?:[.,]\d+)?"  # "+/- 2.5 °C", "+-2.5 °C" are tolerances, not -2.5 °C
# "64 MHz", "3.3V", "260 to 1260 hPa", "-40 °C to 85 °C", "±15kV", "32-bit"
_RANGE = r"(?:\s*(?:to|–|~|and)\s*|-)"  # a bare "-" only without spaces: " - " separates list items
MULTIPLIER = r"(?:[kKMG](?=\s?(?:bytes?|bits?)\b))?"  # "4k bytes EEPROM", "256k bytes": a size with its multiplier
QUANTITY = re.compile(
    rf"(?<![\w.]){_NUMBER}{MULTIPLIER}(?:(?:\s*(?:{_UNITS}))?{_RANGE}{_NUMBER})?(?:[\s-]?(?:{_UNITS})|\s(?:{_SPACED_UNITS}))(?![\w/])"
)
# Tokens with letters and at least two digits: nRF52840, BMM150, ABX00069, LSM9DS1, ESP32-S3, STM32H747XI; or capitals
# on both sides of a single digit: LSM6DSOX, LSM6DSL, CMWX1ZZABZ (one digit with lower case or few letters is a word).
PART = re.compile(r"(?<![\w-])(?:(?=[A-Za-z0-9-]*\d[A-Za-z0-9-]*\d)[A-Za-z][A-Za-z0-9]*\d[A-Za-z0-9]*"
                  r"|[A-Z]{2,}\d[A-Z]{2,}[A-Z0-9]*)(?:-[A-Za-z0-9]+)*(?![\w])")
INTERFACES = (
    "I2C|I²C|I3C|SPI|QSPI|UART|USART|I2S|CAN(?: FD)?|CAN bus|PWM|ADC|DAC|GPIO|JTAG|SWD|SDIO|PCIe|MIPI CSI(?:-2)?|"
    "MIPI DSI|RS-?232|RS-?485|RS-?422|USB(?:[- ]C)?|USB(?: [23](?:\\.\\d)?)?|Ethernet|Wi-?Fi|Bluetooth(?: Low Energy| LE)?|"
    "BLE|LoRa(?:WAN)?|NFC|Zigbee|Thread|Matter|Modbus(?: RTU| TCP)?|NB-IoT|LTE(?:-M| Cat-M1)?|Cat-M1|GSM|GNSS|GPS|"
    "1-Wire|OneWire|SMBus|HDMI|DisplayPort|SD card|microSD|ESLOV|Qwiic|Grove|Serial|LIN|EtherCAT|PROFINET"
)
INTERFACE = re.compile(rf"(?<![\w-])(?:{INTERFACES})(?![\w-])")


@dataclass(frozen=True)
class Match:
    """A typed span found by a pattern."""

    start: int
    end: int
    text: str
    type: str


def pattern_matches(text: str) -> list[Match]:
    """Non-overlapping interface, quantity and part-number spans (in that priority), in text order."""
    found: list[Match] = []
    taken: list[tuple[int, int]] = []
    for regex, etype in ((INTERFACE, INTERFACE_TYPE), (QUANTITY, QUANTITY_TYPE), (PART, PART_TYPE)):
        for m in regex.finditer(text):
            span = (m.start(), m.end())
            if any(span[0] < e and s < span[1] for s, e in taken):
                continue
            value = m.group(0).strip().rstrip("-")
            if etype == PART_TYPE and sum(c.isalpha() for c in value) < 2:
                continue  # "2x4", "1A2" are not part numbers
            taken.append(span)
            found.append(Match(span[0], span[1], value, etype))
    return sorted(found, key=lambda m: m.start)
