"""The `datasheet` extractor: table rows and spec lines become typed facts, identity gives aliases, junk is dropped."""

from __future__ import annotations

import pytest

from kgrag.graph.datasheet.extractor import DatasheetExtractor
from kgrag.graph.datasheet.identity import title_alias, title_identity
from kgrag.graph.datasheet.vocab import is_junk_name
from kgrag.graph.extract import Extraction
from kgrag.types import Chunk


def triples(x: Extraction) -> set[tuple[str, str, str]]:
    names = {e.entity_id: e.name for e in x.entities}
    return {(names[r.source_id], r.type, names[r.target_id]) for r in x.relations}


def types(x: Extraction) -> dict[str, str]:
    return {e.name: e.type for e in x.entities}


def chunk(text: str, section: str = "", product: str = "Zephyr Mini Rev2", ord_: int = 3, page: int = 4) -> Chunk:
    return Chunk(chunk_id=f"d1-{ord_:05d}", doc_id="d1", text=text, ord=ord_, section=section, page_start=page,
                 product=product, category="Zephyr Boards")


def extract(c: Chunk) -> Extraction:
    return DatasheetExtractor({"d1": "Acme® Zephyr Mini Rev2"}).extract(c)


def test_table_row_under_a_component_heading_is_a_spec_fact_of_that_component() -> None:
    x = extract(chunk("Parameter | Value\nPressure range | 260 to 1260 hPa\nOutput data rate | 1 to 75 Hz",
                      section="2 Functional Overview > 2.4 QX210 (U9) Barometer and Temperature Sensor"))
    t = triples(x)
    assert ("QX210", "pressure range", "260 to 1260 hPa") in t
    assert ("QX210", "output data rate", "1 to 75 Hz") in t
    assert ("Zephyr Mini Rev2", "has sensor", "QX210") in t
    assert types(x)["QX210"] == "Sensor" and types(x)["Zephyr Mini Rev2"] == "Product"


def test_min_typ_max_table_rows_become_ranges_and_pin_tables_do_not() -> None:
    x = extract(chunk("Symbol | Description | Min | Typ | Max | Unit\nVIN | Input voltage from VIN pad | 4.5 | 5 | 21 | V\n"
                      "Pin | Function | Type | Description\n1 | VUSB | Power | Power supply input"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "input voltage from vin pad", "4.5 to 21 V") in t
    assert not any("vusb" in r or "power supply" in r for _, r, _ in t)


def test_a_row_whose_empty_symbol_cell_the_pdf_dropped_is_still_a_range() -> None:
    """"Conservative thermal limits for the whole board: | -40 °C (-40 °F) | 85 °C (185 °F)" under "Symbol |
    Description | Min | Max" has one cell fewer than its header: the description moved into the Symbol column."""
    x = extract(chunk("Symbol | Description | Min | Max\nConservative thermal limits for the whole board: | -40 °C (-40 °F) | "
                      "85 °C (185 °F)\nT Max | Maximum thermal limit | -40 °C | 85 °C"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "conservative thermal limits", "-40 °C to 85 °C") in t  # the scope and °F dropped
    assert ("Zephyr Mini Rev2", "maximum thermal limit", "-40 °C to 85 °C") in t


def test_a_feature_lists_next_group_title_gives_its_lines_back_to_the_product() -> None:
    """A feature list names a part and its bullets, then a group of the board's own ("Power"): the supply lines are the
    product's, not the microcontroller's."""
    x = extract(chunk("Features\nQM328 Microcontroller\nHigh-performance low-power 8-bit processor\n2 kB internal SRAM\n"
                      "Power\nMini-B USB connection\n7-15V unregulated external power supply (pin 30)"))
    t = triples(x)
    assert ("QM328", "internal sram", "2 kB") in t
    assert ("Zephyr Mini Rev2", "unregulated external power supply", "7-15V") in t
    assert not any(s == "QM328" and "supply" in r for s, r, _ in t)


def test_an_interface_group_title_gives_its_lines_back_to_the_product() -> None:
    """A flattened feature list: a group's transceiver cell reads like a part heading, then the next group ("I2C") has
    the board's own lines; its pull-ups are not the transceiver's."""
    x = extract(chunk("Features\nHigh-speed CAN\nQJA1040T/3 able to work at 12V/24V DC\nOn-board termination resistors\n"
                      "I2C\nGrove connector\n10 kΩ pull-ups on board"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "pull ups", "10 kΩ") in t
    assert not any(s == "QJA1040T" and "pull" in r for s, r, _ in t)
    assert ("Zephyr Mini Rev2", "has interface", "I2C") in t


def test_an_interface_group_under_a_module_heading_stays_the_modules() -> None:
    """A module heads its own list ("Wi-Fi" then its radio's lines): those lines are the module's."""
    x = extract(chunk("Features\nQINA-W110 Module\nDual Core CPU at up to 240MHz\nWi-Fi\n-96 dBm sensitivity"))
    assert ("QINA-W110", "sensitivity", "-96 dBm") in triples(x)


def test_component_header_lines_and_spec_lines() -> None:
    x = extract(chunk("KX270 6-axis IMU (Accelerometer and Gyroscope)\n±2000 dps gyroscope range\n"
                      "Humidity accuracy: ±1.5 %RH, typical"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "has sensor", "KX270") in t
    assert ("KX270", "gyroscope range", "±2000 dps") in t
    assert ("KX270", "humidity accuracy", "±1.5 %RH, typical") in t


def test_a_heading_naming_its_part_last_after_a_dash_makes_the_table_below_the_parts() -> None:
    """"3.3 Power Conversion — LM5164" then "Output current | 1 A": the regulator's output, not the product's; the
    product's own rows under a later plain heading are its own again."""
    x = extract(chunk("3.2 CAN Transceiver — TCAN1042HGV\nParameter | Value\nSupply | 4.5 V to 5.5 V\n\n"
                      "3.3 Power Conversion — LM5164\nParameter | Value\nOutput current | 1 A\n\n"
                      "Firmware 4.1 — ZX-410\nParameter | Value\nBoot time | 2 s", section="3. Key Components"))
    t = triples(x)
    assert ("TCAN1042HGV", "supply", "4.5 V to 5.5 V") in t and ("LM5164", "output current", "1 A") in t
    assert not any(s == "Zephyr Mini Rev2" and r in ("supply", "output current") for s, r, _ in t)
    assert "ZX-410" not in types(x)  # a release heading names no part


def test_uses_and_based_on_sentences_become_typed_relations() -> None:
    x = extract(chunk("The Zephyr Mini Rev2 is based on the QRF52840 microcontroller. The QRF52840 uses the CC310 "
                      "crypto accelerator."))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "based on", "QRF52840") in t
    assert ("QRF52840", "uses", "CC310") in t
    assert types(x)["QRF52840"] == "Microcontroller"


def test_product_identity_title_and_first_page_sku_are_aliases_only_of_their_own_product() -> None:
    first = extract(chunk("User Manual SKU: ZPH00069\nThe board works with the Zephyr Base (SKU: ZPH00012).",
                          ord_=0, page=1))
    product = next(e for e in first.entities if e.type == "Product")
    assert product.aliases == ["Acme Zephyr Mini Rev2", "ZPH00069"]
    later = extract(chunk("Compatible carrier: Zephyr Base (SKU: ZPH00012)", ord_=7, page=5))
    assert next(e for e in later.entities if e.type == "Product").aliases == ["Acme Zephyr Mini Rev2"]
    assert title_alias("Zephyr Mini Rev2", "Acme Zephyr Mini") == ""  # never the sibling's name


def test_junk_filter_and_positions_are_not_entities() -> None:
    for junk in ("Description", "1000", "±", "the value of the output is set by", "Min Max"):
        assert is_junk_name(junk), junk
    assert not is_junk_name("QX210") and not is_junk_name("Pressure range")
    x = extract(chunk("Ref. | Description\nU9 | QX210 Pressure Sensor IC\nDate | Revision | Changes\n"
                      "25/04/2024 | 5 | Updated link\nSubstance | Maximum limit (ppm)\nLead (Pb) | 1000"))
    names = set(types(x))
    assert "QX210" in names and "U9" not in names
    assert not any(n.startswith(("25/04", "Lead", "1000")) for n in names)
    assert types(x)["QX210"] == "Sensor"


def test_rotated_drawing_dimensions_are_not_parts() -> None:
    # A rotated mechanical drawing's labels come out of the PDF unit first ("mm47.0" is 47.0 mm).
    x = extract(chunk("7.2 Board's Connectors Measures\nmm04.5\nmm68.2\nJ7\n4.30mm\nmm47.0\n\nmm31.2\n"
                      "The QX210 Pressure Sensor IC sits next to J7."))
    names = set(types(x))
    assert "QX210" in names
    assert not any(n.lower().startswith("mm") for n in names), names


def test_algorithms_and_standards_are_not_parts() -> None:
    # Crypto features and norms are written like part numbers; the chip that implements them is the part.
    x = extract(chunk("Security\nQX608B: Crypto IC\nAES-128: encrypt/decrypt, galois field multiply\n"
                      "SHA-256: & HMAC Hash\nSCP03: encrypted credential injection\nCRC-32: checksum of the flash\n"
                      "EN 62311: RF exposure\n"
                      "IEC 61131-2: PLC inputs"))
    names = set(types(x))
    assert "QX608B" in names
    assert not names & {"AES-128", "SHA-256", "SCP03", "CRC-32", "EN 62311", "IEC 61131-2"}, names


def test_status_header_row_is_not_a_fact() -> None:
    x = extract(chunk("Declaration of Conformity\nCertification | Status\nCE/RED (Europe) | Yes\nFCC (USA) | Yes"))
    assert "Status" not in types(x)


def test_a_board_position_table_names_a_part_after_its_makers_name() -> None:
    """"U4 | Bosch QX688 Environmental Sensor IC": in a Ref./Description table a maker's name may lead the part
    (a function word such as "The" is no maker)."""
    x = extract(chunk("Ref. | Description | Ref. | Description\n"
                      "U4 | Bosch QX688 Environmental Sensor IC | L0-L4 | Rohm QL34RGB RGB LED IC"))
    assert ("Zephyr Mini Rev2", "has sensor", "QX688") in triples(x)
    assert "L0-L4" not in types(x)  # a range of board positions in a Ref. column is no part
    ranges = extract(chunk("The A0-A3 pins are connected to the QRF52840 and U16-U19 drive the relays."))
    assert not {"A0-A3", "U16-U19"} & set(types(ranges))  # position and pin ranges anywhere are no parts
    assert ("Zephyr Mini Rev2", "has actuator", "QL34RGB") in triples(x) or "QL34RGB" in types(x)
    assert "QX689" not in types(extract(chunk("Ref. | Description\nU5 | The QX689 is shared")))  # no maker: "The"


def test_a_row_labelled_peripherals_or_communication_names_the_products_interfaces() -> None:
    x = extract(chunk("Specification | Details\nDigital Peripherals | GPIO (x22), UART (x2), I2C (x2), SPI (x2)\n"
                      "Communication | I2C (Qwiic), optional UART\nSupply Voltage | 3.3 V"))
    interfaces = {o for s, r, o in triples(x) if s == "Zephyr Mini Rev2" and r == "has interface"}
    assert {"UART", "I2C", "SPI"} <= interfaces
    pins = extract(chunk("Pin | Function | Type\nSDA | I2C data | Digital"))  # a pin table names no interface
    assert not any(r == "has interface" for _, r, _ in triples(pins))


def test_an_interface_word_inside_another_products_name_is_no_interface() -> None:
    """"Related products: Zephyr R4 WiFi, Zephyr 33 BLE, Zephyr WiFi 1010" names products, not the interfaces of this
    one; "Bluetooth 5.0" and "802.11 b/g/n Wi-Fi" still are."""
    related = extract(chunk("Related products: Zephyr R4 WiFi, Zephyr 33 BLE and the Zephyr WiFi 1010 board."))
    assert not any(r == "has interface" for _, r, _ in triples(related))
    radio = extract(chunk("The radio supports Bluetooth 5.0 and 802.11 b/g/n Wi-Fi; the QX-30 LoRaWAN modem sends."))
    interfaces = {o for s, r, o in triples(radio) if r == "has interface"}
    assert {"Bluetooth", "Wi-Fi", "LoRaWAN"} <= interfaces


CONVERTED_TABLE = ("Deep sleep current, Symbol = I DS. Deep sleep current, Typ = 86. Deep sleep current, Unit = µA. "
                   "Normal mode current, Symbol = I NM. Normal mode current, Typ = 180. Normal mode current, Unit = mA")


def test_a_table_a_converter_wrote_as_text_is_read_back_as_rows() -> None:
    from kgrag.graph.datasheet.lines import serialized_table

    header, rows = serialized_table(CONVERTED_TABLE) or ([], [])
    assert header == ["", "Symbol", "Typ", "Unit"]
    assert rows == [["Deep sleep current", "I DS", "86", "µA"], ["Normal mode current", "I NM", "180", "mA"]]
    t = triples(extract(chunk(CONVERTED_TABLE, product="Zephyr Core")))
    assert ("Zephyr Core", "deep sleep current", "typ 86 µA") in t  # the value keeps its unit column
    assert serialized_table("Lead (Pb), Limit (ppm) = 1000. See the notes below for details.") is None  # not all cells


def test_a_converted_table_with_merged_cells_empty_cells_and_repeated_columns_is_read_back_as_rows() -> None:
    """Docling writes a merged first cell once (", Typical = -156": the label above), an empty cell as "Min = .", a
    two-parts-per-line table with its columns twice ("Description … Ref. … Description") and a label spanning rows
    with its columns again ("J1, Interface Name = I2C1 … J1, Interface Name = I2C0")."""
    from kgrag.graph.datasheet.lines import serialized_table

    merged = ("Sensitivity, Description = Reacquisition. , Conditions = Autonomous. , Typical = -156. , Description = "
              "Tracking. , Conditions = Autonomous. , Typical = -157")
    assert serialized_table(merged) == (["", "Description", "Conditions", "Typical"], [
        ["Sensitivity", "Reacquisition", "Autonomous", "-156"], ["Sensitivity", "Tracking", "Autonomous", "-157"]])
    empty = "Supply, Min = . Supply, Max = . VCC, Min = 3.0. VCC, Max = 3.6"
    assert serialized_table(empty) == (["", "Min", "Max"], [["Supply", "", ""], ["VCC", "3.0", "3.6"]])
    pairs = ("U1, Description = QX4M1 Microcontroller IC. U1, Ref. = J4. U1, Description = DC Jack. U2, Description = "
             "QL8541 Buck Converter. U2, Ref. = DL1. U2, Description = LED TX")
    assert serialized_table(pairs) == (["", "Description", "Ref.", "Description"], [
        ["U1", "QX4M1 Microcontroller IC", "J4", "DC Jack"], ["U2", "QL8541 Buck Converter", "DL1", "LED TX"]])
    spanning = ("J1, Interface Name = I2C1. J1, Pins = 43-45. J1, Interface Name = I2C0. J1, Pins = 44-46. J2, "
                "Interface Name = SPI0. J2, Pins = 10-12")
    assert serialized_table(spanning) == (["", "Interface Name", "Pins"], [
        ["J1", "I2C1", "43-45"], ["J1", "I2C0", "44-46"], ["J2", "SPI0", "10-12"]])


def test_a_frequency_row_of_a_spec_table_is_a_fact_and_the_radio_band_table_is_skipped() -> None:
    x = extract(chunk("Feature | Description\nFrequency Range | 6.24–8.24 GHz\nMax Output Power (EIRP) | 14.7 dBm\n\n"
                      "Frequency bands | Maximum output power (EIRP)\n863-870 MHz | 5.47 dBm"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "frequency range", "6.24–8.24 GHz") in t
    assert ("Zephyr Mini Rev2", "max output power eirp", "14.7 dBm") in t
    assert not any(v == "5.47 dBm" for _, _, v in t)  # the regulatory band table carries no product fact


def test_a_footnote_mark_on_a_row_label_is_not_part_of_the_attribute() -> None:
    x = extract(chunk("Parameter | Symbol | Min | Typ | Max | Unit\nUWB DPD mode² | IDPD | - | 30 | - | μA"))
    assert ("Zephyr Mini Rev2", "uwb dpd mode", "typ 30 μA") in triples(x)


def test_memory_sizes_with_a_multiplier_under_a_processor_header_are_its_facts() -> None:
    x = extract(chunk("QX2560 Processor\n4k bytes EEPROM\n8k bytes Internal SRAM\n\nQX16U2\n512 bytes SRAM"))
    t = triples(x)
    assert ("QX2560", "eeprom", "4k bytes") in t and ("QX2560", "internal sram", "8k bytes") in t
    assert ("QX16U2", "sram", "512 bytes") in t


def test_a_tolerance_written_plus_slash_minus_keeps_its_sign() -> None:
    t = triples(extract(chunk("Temperature sensor\naccuracy max +-2.5 °C")))
    assert ("Zephyr Mini Rev2", "accuracy", "+-2.5 °C") in t and not any(v == "-2.5 °C" for _, _, v in t)


def test_a_part_named_first_in_a_long_explained_value_is_the_products_part() -> None:
    x = extract(chunk("Feature | Description\nOnboard Indoor Air Quality Sensor | Acme QZ4410AI1V (total volatile organic "
                      "compounds, CO2, and indoor air quality)\nOnboard Microphone | Ultra-compact, low-power, "
                      "omnidirectional, digital MEMS microphone (x2) with a long explanation of what it does"))
    t = triples(x)
    assert ("Zephyr Mini Rev2", "has sensor", "QZ4410AI1V") in t and types(x)["QZ4410AI1V"] == "Sensor"
    assert not any(v.startswith("Ultra-compact") for _, _, v in t)  # a long value without a part stays out


def test_pins_interface_instances_and_catalogue_numbers_are_no_parts() -> None:
    from kgrag.graph.datasheet.vocab import is_part_number

    for not_part in ("GPIO12", "I2C0", "CAN1", "UART2", "ABX00097", "A000067"):
        assert not is_part_number(not_part), not_part
    for part in ("MAX17262", "BMI270", "nRF52840", "DCU040", "SX1302", "RP2040", "QSM6DSOX", "QMWX1ZZABZ"):
        assert is_part_number(part), part  # capitals on both sides of a single digit make a part too
    for word in ("USB2", "Wi6", "Rev2", "V2", "A4"):
        assert not is_part_number(word), word
    x = extract(chunk("The Zephyr Mini exposes GPIO12 and I2C0 on its header. It is compatible with the Zephyr Core "
                      "(SKU: ZBX00042) and the Zephyr Plus ZBX00043.", product="Zephyr Mini"))
    assert not {"GPIO12", "I2C0", "ZBX00043"} & set(types(x))


def test_a_chip_a_pin_table_names_is_whose_signal_it_is_not_a_part_of_the_product() -> None:
    """"P1 | BMI_SWDIO | Digital | QMX270 Serial Wire Debug Data" names the chip the pin belongs to (datasheets copy
    such tables between boards, naming chips the board does not have); the board's parts come from elsewhere."""
    x = extract(chunk("Pin | Function | Type | Description\n4 | UPDI | Digital | QTM4809 update interface\n"
                      "5 | GND | Power | Power Ground"))
    assert "QTM4809" not in types(x)
    parts = extract(chunk("Ref. | Description\nU2 | QMX270 IMU 6 Axis"))
    assert ("Zephyr Mini Rev2", "has sensor", "QMX270") in triples(parts)


def test_a_list_of_board_positions_is_no_attribute_of_the_product() -> None:
    """"U18,19,20,21 | QX13102 solid state relay IC" and a row whose cells a PDF split ("Q Q J11 J11 | 66JJ") list
    where parts sit; the positions are no fact of the product ("u18 19 20 21: QX13102 …" showed in answers)."""
    from kgrag.graph.datasheet.vocab import is_positions

    assert is_positions("U18,19,20,21") and is_positions("Q1, Q2") and is_positions("Q Q J11 J11")
    assert not is_positions("Pressure range") and not is_positions("VIN") and not is_positions("Q")
    x = extract(chunk("U18,19,20,21 | QX13102 solid state relay IC\nQ1, Q2 | MOSFET P-CH 30V 20A 8SO\nQ Q J11 J11 | 66JJ"))
    assert not any(r[1][:1] in "uq" for r in triples(x) if r[0] == "Zephyr Mini Rev2")


def test_a_position_merged_into_a_description_ends_it() -> None:
    """"DL2 | QPHHS-1005 0402 SMD red LED J1 | ADC, SPI and LPIO pin headers": the PDF merged the next position (J1)
    into the LED's cell, and the cell after describes J1, so the LED is no connector."""
    x = extract(chunk("Ref. | Description\nDL2 | QPHHS-1005 0402 SMD red LED J1 | ADC, SPI and LPIO pin headers"))
    assert types(x).get("QPHHS-1005") != "Connector"
    assert ("Zephyr Mini Rev2", "has connector", "QPHHS-1005") not in triples(x)


def test_a_part_is_typed_by_the_head_of_its_first_class_phrase() -> None:
    from kgrag.graph.datasheet.vocab import type_from_words

    assert type_from_words("Crypto chip: cryptographic co-processor with secure key storage") == "Security"
    assert type_from_words("QF26W-45S display connector") == "Connector"  # a connector for a display
    assert type_from_words("6-axis IMU sensor") == "Sensor"
    assert type_from_words("Wi-Fi module based on a dual-core processor") == "Module"
    assert type_from_words("Pressure range") == ""
    x = extract(chunk("Component | Details\nQX608B Crypto Chip | Cryptographic co-processor with secure key storage\n"
                      "Protected storage for up to 16 keys", section="3.3 Security"))
    assert ("Zephyr Mini Rev2", "has secure element", "QX608B") in triples(x)  # a crypto chip, not the MCU
    assert ("Zephyr Mini Rev2", "has microcontroller", "QX608B") not in triples(x)


def test_a_library_row_of_a_reference_table_names_software_not_a_part_of_the_product() -> None:
    """Datasheets copy a reference table ("QSM6DSL Library | https://…") into boards without that sensor: a part
    name followed by "Library" (driver, firmware, datasheet …) is about the part, not on the board."""
    x = extract(chunk("Zephyr Firmware | https://example.com/firmware\nQSM6DSL Library | https://example.com/qsm6dsl\n"
                      "Ref. | Description\nU3 | QSM6DSOX 6-axis IMU"))
    assert ("Zephyr Mini Rev2", "has component", "QSM6DSL") not in triples(x)
    assert ("Zephyr Mini Rev2", "has sensor", "QSM6DSOX") in triples(x)


def test_a_value_in_greek_mu_is_read_and_a_value_after_at_is_its_condition() -> None:
    """PDFs write the micro sign or the Greek mu ("2μA"); "(2μA @ 1 Hz sampling rate)" has one fact, the current: the
    rate after "@" is its condition, not a sampling rate of the board."""
    t = triples(extract(chunk("Low power consumption (2μA @ 1 Hz sampling rate)\nMagnetic field resolution 0.3μT")))
    assert ("Zephyr Mini Rev2", "low power consumption", "2μA") in t
    assert ("Zephyr Mini Rev2", "magnetic field resolution", "0.3μT") in t
    assert not [r for r in t if r[1] == "sampling rate"]
    only_condition = triples(extract(chunk("Current consumption @ 10 Hz in low power preset")))
    assert not [r for r in only_condition if r[2] == "10 Hz"]


def test_a_row_of_column_titles_is_a_header_and_one_such_title_with_a_value_is_a_fact() -> None:
    """"Interfaces | Connector" titles a table's columns; "Interfaces | USB-C, I2C" is a fact of the product."""
    t = triples(extract(chunk("Interfaces | Connector\nEthernet (x1) | RJ45 connector (J18)")))
    assert not [r for r in t if r[2] == "Connector"]
    assert ("Zephyr Mini Rev2", "has interface", "I2C") in triples(extract(chunk("Interfaces | USB-C, I2C")))


def test_a_makers_name_before_a_part_and_its_class_heads_the_parts_figures_until_a_parts_group() -> None:
    """A feature list's "ST QSM6DSOXTR 6-axis IMU" heads the IMU's figures (before, they went to the flash chip listed
    above it); "Relays" starts a group of the product's parts, so the relay figures are the board's again."""
    x = extract(chunk("QT25SF128A 16MB NOR Flash\nQSPI data transfer rate up to 532Mbps\n"
                      "ST QSM6DSOXTR 6-axis IMU\n±2/±4/±8/±16 g full scale\n\nRelays\n2x Kemet relays\n5V Coil voltage"))
    t = triples(x)
    assert ("QSM6DSOXTR", "full scale", "±16 g") in t
    assert ("Zephyr Mini Rev2", "has sensor", "QSM6DSOXTR") in t
    assert not [r for r in t if r[0] == "QT25SF128A" and r[1] == "full scale"]
    assert ("Zephyr Mini Rev2", "coil voltage", "5V") in t
    prose = triples(extract(chunk("The QSM6DSOXTR 6-axis IMU\n±2/±4/±8/±16 g full scale")))
    assert ("QSM6DSOXTR", "full scale", "±16 g") not in prose  # "The" is no maker


def test_a_cue_after_a_new_list_item_is_not_said_of_the_part_before_it() -> None:
    """"containing a QAMD21 processor, a WiFi module based on QSP32": the module is based on it, not the QAMD21."""
    t = triples(extract(chunk("The board is a module containing a QAMD21 processor, a WiFi module based on QSP32.")))
    assert ("QAMD21", "based on", "QSP32") not in t
    assert ("QRF52840", "based on", "Cortex-M4") in triples(extract(chunk("The QRF52840 is based on the Cortex-M4.")))


def test_an_accessory_line_with_its_own_sku_names_no_interface_of_the_product() -> None:
    """"Zephyr USB Type-C Cable 2-in-1 (SKU: ZPX00094)" is another product: its USB is not the board's."""
    t = triples(extract(chunk("Zephyr USB Type-C Cable 2-in-1 (SKU: ZPX00094)")))
    assert ("Zephyr Mini Rev2", "has interface", "USB") not in t
    assert ("Zephyr Mini Rev2", "has interface", "USB") in triples(extract(chunk("The board is powered over USB.")))


def test_a_figure_caption_and_a_pages_tags_are_no_facts() -> None:
    t = triples(extract(chunk("Figure 1: Zephyr Mini Block Diagram\nTags: zephyr datasheet\nInput voltage: 5 V")))
    assert not [r for r in t if r[1].startswith(("figure", "tags"))]
    assert ("Zephyr Mini Rev2", "input voltage", "5 V") in t


def test_a_compatible_product_listed_with_its_sku_is_no_part() -> None:
    """"Kestrel K33: SKU: ZBX00074" in a shield's list of boards it works with names another product."""
    t = triples(extract(chunk("Kestrel K33: SKU: ZBX00074\nKestrel K74: SKU: ZBX00042")))
    assert not [r for r in t if r[1] == "has component"]
    assert ("Zephyr Mini Rev2", "has sensor", "QX210") in triples(extract(chunk("QX210 Barometer\n260 to 1260 hPa")))


def test_a_title_whose_only_number_is_a_software_version_names_a_document_not_a_product() -> None:
    """In a flat folder the title is the chunk's identity: "ZoneLoom SDK 3.1 — Python API Reference" and "Migration
    Guide: v2 → v3" are documents, whose facts have no product; a model number still makes one ("RC-340 … Manual"),
    named without the document's kind."""
    for title, name, kind in [("ZoneLoom SDK 3.1 — Python API Reference", "ZoneLoom SDK 3.1 — Python API Reference",
                               "Document"),
                              ("ZoneLoom Migration Guide: v2 → v3", "ZoneLoom Migration Guide: v2 → v3", "Document"),
                              ("ZoneLoom RC-340 / RC-360 Installation Manual", "ZoneLoom RC-340 / RC-360", "Product"),
                              ("Zephyr Mini Rev2 Datasheet", "Zephyr Mini Rev2", "Product")]:
        c = Chunk(chunk_id="d1-00000", doc_id="d1", text="Supported controllers: RC-340", ord=0)
        assert types(DatasheetExtractor({"d1": title}).extract(c)).get(name) == kind, title


@pytest.mark.parametrize(("title", "identity"), [
    ("KX-410 Edge Gateway – Firmware Release Notes | Korvath Controls", ("KX-410 Edge Gateway", True)),
    ("SENSIO M4 MICROCONTROLLER - SILICON ERRATA", ("SENSIO M4 MICROCONTROLLER", True)),
    ("Sentinel GX-400 firmware changelog", ("Sentinel GX-400", True)),
    ("Datasheet: KX-220 Remote I/O Module", ("KX-220 Remote I/O Module", True)),
    ("ZoneLoom RC-340 / RC-360 Installation and Maintenance Manual", ("ZoneLoom RC-340 / RC-360", True)),
    ("Sentinel GX-400 - Channel partner training, module 2", ("Sentinel GX-400", True)),
    ("Veldmark CR-410 — Industrial LTE Cat 4 Router", ("Veldmark CR-410 — Industrial LTE Cat 4 Router", True)),
    ("Frequently Asked Questions – TS-30 and VM-5 | Lumisk", ("Frequently Asked Questions – TS-30 and VM-5", False)),
    ("Application Note AN-112: Reading the TX-20 over Modbus RTU",
     ("Application Note AN-112: Reading the TX-20 over Modbus RTU", False)),
    ("Service Bulletin SB-CX-2024-03, Revision 1", ("Service Bulletin SB-CX-2024-03, Revision 1", False)),
    ('RC-320 shows "offline" in the cloud after upgrade 2.6.4', ('RC-320 shows "offline" in the cloud after upgrade 2.6.4',
                                                                  False)),
    ("Machine Vision Component Selection Guide 2025", ("Machine Vision Component Selection Guide 2025", False)),
    ("KX-1 — ", ("KX-1", True)),
    ("Zephyr Thread Border Router ZTB-100 — Datasheet", ("Zephyr Thread Border Router ZTB-100", True)),
    ("Training Kit TK-1 — User Manual", ("Training Kit TK-1", True)),
    ("Reference Design RD-7 — Datasheet", ("Reference Design RD-7", True)),
    ("Application Note AN-017", ("Application Note AN-017", False)),
    ("Zephyr Series - Service Technician Training, Level 1", ("Zephyr Series - Service Technician Training, Level 1",
                                                              False)),
    ("", ("", False)),
])
def test_a_flat_folder_title_names_its_product_without_the_document_kind_or_names_a_document(
        title: str, identity: tuple[str, bool]) -> None:
    """The product a title names loses its "— Datasheet" / "| Site" tail; a title led by its kind and naming no one
    product (an FAQ on two, an application note's task), a thread's sentence, or a year or a document's own number
    alone ("Level 1") names a document. A kind word inside a product's name ("Thread", "Training") is the name's."""
    assert title_identity(title) == identity


def test_an_faq_about_two_products_is_a_document_whose_rows_have_no_product() -> None:
    c = Chunk(chunk_id="d1-00000", doc_id="d1", text="| Question | Answer |\n|---|---|\n| Battery life | 5 years |",
              ord=0)
    entities = types(DatasheetExtractor({"d1": "Frequently Asked Questions – TS-30 and VM-5"}).extract(c))
    assert entities.get("Frequently Asked Questions – TS-30 and VM-5") == "Document"
    assert "Product" not in entities.values()


def test_a_records_order_code_from_its_id_is_an_alias_of_its_product() -> None:
    """A pre-chunked record names its product's order code only in its id ("ZPH00077-datasheet::c4"): the loader
    writes it into the record's context line, and every record of the product gives the alias, not only the first."""
    from kgrag.ingest.jsonl import with_code

    text = with_code("[Product: Zephyr Mini Rev2] [Category: Zephyr Boards]\n\nThe board has 8 analog inputs.",
                     "ZPH00077-datasheet::c4")
    assert text.startswith("[Product: Zephyr Mini Rev2] [Category: Zephyr Boards] [SKU: ZPH00077]\n")
    product = next(e for e in extract(chunk(text, ord_=9, page=0)).entities if e.type == "Product")
    assert "ZPH00077" in product.aliases
    assert with_code("The ZPH00077 has 8 analog inputs.", "ZPH00077-datasheet::c4") == "The ZPH00077 has 8 analog inputs."
    assert with_code("Text", "faq-12::c1") == "Text"  # an id that opens with no code adds nothing
    assert with_code("Text", "ZPH00042-ZPH00045-datasheet::c3") == "Text"  # one datasheet of two products: whose?
