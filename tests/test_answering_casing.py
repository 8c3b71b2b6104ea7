"""Product names typed in lower case are read as the documents write them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from tests.conftest import fast_settings

from kgrag.answering.casing import known_names, sole_revisions, with_known_casing, with_sole_revisions
from kgrag.answering.shorthand import written_out
from kgrag.answering.terms import analyse
from kgrag.index import Index


def test_products_and_title_runs_ending_on_a_code_are_known_names() -> None:
    names = known_names(["Opta", "Due"], ["Arduino Portenta H7 Datasheet", "LogPoint LP-4 Firmware Release Notes"])
    assert {"Opta", "Due", "Portenta H7", "Arduino Portenta H7", "LogPoint LP-4"} <= set(names)  # "lp-4" is one anyway
    assert not {"LP-4 Firmware", "Portenta H7 Datasheet"} & set(names)  # "firmware" stays an asked word
    assert names.index("Arduino Portenta H7") < names.index("Portenta H7")  # longest first


def test_a_lower_case_product_name_is_written_back_and_read_as_a_name() -> None:
    names = known_names(["Opta", "Due"], ["Arduino Portenta H7 Datasheet"])
    question = with_known_casing("what's the operating temp of the opta", names)
    assert question == "what's the operating temp of the Opta" and analyse(question).names == ["Opta"]
    assert with_known_casing("does the portenta h7 have wifi", names) == "does the Portenta H7 have wifi"
    assert with_known_casing("the reset is due to the watchdog", names) == "the reset is due to the watchdog"
    assert with_known_casing("does the due have a DAC?", names) == "does the Due have a DAC?"


def test_a_name_typed_without_the_one_revision_the_documents_hold_is_that_revision() -> None:
    """Users write "Mega 2560" for the "Mega 2560 Rev3" datasheet; read as another product's name, that datasheet's
    passages were a variant's and "How many analog inputs …" was answered from a pin row. A name the documents also
    hold unrevised ("Zephyr Mini" beside "Zephyr Mini Rev2") or in two revisions stays as typed."""
    products = ["Zephyr 2560 Rev3", "Zephyr Mini", "Zephyr Mini Rev2", "Relay Pack Rev1", "Relay Pack Rev2"]
    titles = ["Acme Zephyr 2560 Rev3", "Acme Zephyr Mini", "Acme Zephyr Mini Rev2", "Acme Vision Shield Rev 2"]
    revisions = sole_revisions(products, titles)
    assert revisions["Zephyr 2560"] == "Zephyr 2560 Rev3" and revisions["Vision Shield"] == "Vision Shield Rev 2"
    assert not {"Zephyr Mini", "Relay Pack", "2560"} & set(revisions)
    names = known_names(products, titles)
    def read(question: str) -> str:
        return with_sole_revisions(with_known_casing(question, names), revisions)
    assert read("how many analog inputs does the zephyr 2560 have?") == \
        "how many analog inputs does the Zephyr 2560 Rev3 have?"
    assert read("Acme Zephyr 2560 pinout") == "Acme Zephyr 2560 Rev3 pinout"
    assert read("Zephyr 2560 Rev3 pins, Zephyr 2560 R3") == "Zephyr 2560 Rev3 pins, Zephyr 2560 R3"  # written already
    assert read("zephyr mini pins") == "Zephyr Mini pins"


def test_the_index_reads_its_documents_names_for_the_question(sample_index: Index) -> None:
    context = sample_index.search("what sensors does the zephyr pro have?")
    assert context.question == "what sensors does the Zephyr Pro have?"
    assert sample_index.ask("what sensors does the zephyr pro have?").question == context.question


def test_support_shorthand_typed_in_lower_case_is_written_out() -> None:
    assert written_out("cmd to clear all latched alarms") == "command to clear all latched alarms"
    assert written_out("whats err E32") == "what is error E32"
    assert written_out("default pw for service login, fw 3.2 w/o cfg") == \
        "default password for service login, firmware 3.2 without configuration"
    assert written_out("Is the ERR LED lit? PN16 flange, pump-cmd line") == "Is the ERR LED lit? PN16 flange, pump-cmd line"
    # a file's or a key's name keeps its parts: "rc3xx.cfg" is no "rc3xx.configuration"
    assert written_out("How big can rc3xx.cfg be? What does info.level set?") == \
        "How big can rc3xx.cfg be? What does info.level set?"


def test_firmware_shorthand_glued_to_its_version_is_written_out() -> None:
    """"default apdu timeout fw3": "fw3" is no product the documents lack, it is firmware 3; "sw1" stays a switch."""
    assert written_out("default apdu timeout fw3") == "default apdu timeout firmware 3"
    assert written_out("rc320 hw2 on fw3.1.2?") == "rc320 hardware 2 on firmware 3.1.2?"
    assert written_out("set sw1 to on, FW3 label, fw3x board") == "set sw1 to on, FW3 label, fw3x board"
    assert analyse(written_out("default apdu timeout fw3")).parts == []


def test_the_index_writes_shorthand_out_before_searching(sample_index: Index) -> None:
    assert sample_index.search("whats the temp range of the zephyr pro").question == \
        "what is the temperature range of the Zephyr Pro"


def test_a_unit_typed_in_lower_case_after_a_number_is_written_as_documents_write_it() -> None:
    """"4-20ma" names no topic the documents lack: it is the 4 … 20 mA output; "12v" is a voltage to check."""
    assert written_out("pn for dpx220 0-10 bar 4-20ma output") == "part number for dpx220 0-10 bar 4-20mA output"
    assert written_out("can it take 12v, 2.4 ghz and 512kb?") == "can it take 12V, 2.4 GHz and 512KB?"
    assert written_out("a 10 ms timeout, pin v3, 5 m cable") == "a 10 ms timeout, pin v3, 5 m cable"
    assert analyse(written_out("can the board take 12v")).dimensions == {"voltage"}


def test_the_known_names_are_read_again_when_a_document_is_added(tmp_path: Path) -> None:
    index = Index.init(tmp_path / "idx", settings=fast_settings())
    docs = tmp_path / "docs"
    docs.mkdir()
    filler = "It has a sensor with a low-noise mode, an I2C interface, a USB connector and a wide supply range. " * 3
    (docs / "a.md").write_text(f"# Zephyr X1 datasheet\n\nThe Zephyr X1 measures pressure. {filler}\n", encoding="utf-8")
    index.add([docs])
    assert index.cased("what does the zephyr x1 measure") == "what does the Zephyr X1 measure"
    assert index.cased("what does the orbit max2 measure") == "what does the orbit max2 measure"
    (docs / "b.md").write_text(f"# Orbit Max2 datasheet\n\nThe Orbit Max2 measures humidity. {filler}\n", encoding="utf-8")
    index.add([docs])
    assert index.cased("what does the orbit max2 measure") == "what does the Orbit Max2 measure"


def test_threads_casing_questions_while_the_names_are_read_all_get_them(
    sample_index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server answers questions on threads over one index: a thread arriving while another reads the names
    must not find them half set (CI once saw `'Index' object has no attribute '_names'`)."""
    import kgrag.answering.casing as casing

    read = casing.known_names

    def slow_known_names(*args: object) -> list[str]:
        time.sleep(0.05)  # widen the window in which the first reader is between its assignments
        return read(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(casing, "known_names", slow_known_names)
    index = Index.open(sample_index.root)  # a fresh facade: nothing read yet
    errors: list[BaseException] = []
    results: list[str] = []

    def ask() -> None:
        try:
            results.append(index.cased("what sensors does the zephyr pro have"))
        except BaseException as error:  # noqa: BLE001 - the test reports any failure of a thread
            errors.append(error)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for i, thread in enumerate(threads):
        thread.start()
        if i == 0:
            time.sleep(0.01)  # the first thread is inside the slow read when the others arrive
    for thread in threads:
        thread.join()
    index.close()
    assert errors == []
    assert results == ["what sensors does the Zephyr Pro have"] * 6
