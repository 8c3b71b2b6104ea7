"""A register map cut between chunks, as a workbook's long sheet is: the record a question numbers ("register 30008")
tells its row apart, and a row of the same table that answers less is not quoted for the one that answers."""

from __future__ import annotations

from kgrag.answering.extract import try_extract
from kgrag.answering.select import focus_units, score_units
from kgrag.answering.terms import analyse
from kgrag.answering.units import block_units

FIRST_CHUNK = """Register | Name | Scaling / unit | Notes
30007 | Sensor remaining life | % | 0-100
30008 | Firmware version | MAJOR×100 + MINOR×10 + PATCH | Example: 252 = 2.5.2"""
SECOND_CHUNK = """Register | Name | Scaling / unit | Notes
40012 | Alarm latching | Bit mask | Writing the Alarm 2 bit over Modbus works from firmware 2.5.2
40022 | Float word order | Code | 0 = ABCD, 1 = CDAB"""
QUESTION = "How is the firmware version encoded in Modbus input register 30008?"
TITLES = {1: "GX-400 parts and service data", 2: "GX-400 parts and service data"}


def test_the_asked_register_number_names_its_row() -> None:
    units = block_units(1, FIRST_CHUNK) + block_units(2, SECOND_CHUNK)
    scored = {s.unit.text.split(" | ")[0]: s for s in score_units(QUESTION, units, {1: "", 2: ""}, titles=TITLES)}
    assert scored["30008"].names >= scored["40012"].names  # "Modbus" in a note does not outweigh the number asked
    assert scored["30008"].names > scored["30007"].names


def test_a_row_of_the_same_table_in_another_chunk_that_answers_less_is_not_quoted() -> None:
    focus = focus_units(QUESTION, {1: FIRST_CHUNK, 2: SECOND_CHUNK}, {1: "", 2: ""}, 600, titles=TITLES)
    found = try_extract(analyse(QUESTION), focus.ranked, TITLES)
    assert found is None or "30008" in found.unit.text  # never "40012 | Alarm latching …"
