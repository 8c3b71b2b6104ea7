"""Which-variant questions over a variant table: the variants whose cells hold what is asked, quoted with the rows."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.variants import asks_which_variant
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

TABLE = """Zephyr Gate variants
The Zephyr Gate family has three variants for different needs of each application.
Name | Zephyr Gate Lite | Zephyr Gate Serial | Zephyr Gate Air
SKU | ZG001 | ZG002 | ZG003
RS-485 | N/A | Half-duplex | Half-duplex
Wi-Fi | N/A | N/A | 802.11 b/g/n
Ethernet | 10/100BASE-T | 10/100BASE-T | 10/100BASE-T"""
MANUAL = """Zephyr Gate serial bus
Modbus RTU communication is supported using the Zephyr Gate's RS-485 physical interface."""


def _answer(question: str, replies: list[str] | None = None) -> tuple[str, str]:
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.pdf", "title": "Zephyr Gate"})
             for n, text in enumerate((TABLE, MANUAL), 1)]
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    answer = generate_answer(FakeLLM(replies=replies or []), question, context, mode="auto", focus_tokens=300)
    return answer.text, str(answer.context.info.get("answer_path"))


def test_the_variants_whose_cell_is_filled_are_the_answer_with_the_row() -> None:
    text, path = _answer("Which Zephyr Gate variants can I use for Modbus RTU over RS-485?")
    assert path == "variant table"
    assert text.startswith("The Zephyr Gate Serial and the Zephyr Gate Air [1]. Name: RS-485; Zephyr Gate Lite: N/A;")
    assert "Zephyr Gate Lite [" not in text.split("Name:")[0]


def test_every_row_the_question_names_must_be_filled() -> None:
    text, path = _answer("Which Zephyr Gate variant has both RS-485 and Wi-Fi?")
    assert path == "variant table" and text.startswith("The Zephyr Gate Air [1].")
    assert "Name: RS-485;" in text and "Name: Wi-Fi;" in text  # both rows, so the user sees why


def test_a_row_of_what_the_question_rules_out_must_be_empty() -> None:
    """"RS-485, but the lab doesn't want any wireless radios": the variant with RS-485 and an empty Wi-Fi row (the
    aspect "wireless" read as the rows datasheets write for it), not every variant with RS-485."""
    text, path = _answer("I need RS-485 on a Zephyr Gate, but the lab doesn't want any wireless radios. "
                         "Which Zephyr Gate variant should I order?")
    assert path == "variant table" and text.startswith("The Zephyr Gate Serial [1].")
    assert "Name: RS-485;" in text and "Name: Wi-Fi;" in text
    text, path = _answer("Which Zephyr Gate variant comes without Wi-Fi?")
    assert path == "variant table" and text.startswith("The Zephyr Gate Lite and the Zephyr Gate Serial [1].")


def test_a_row_every_variant_fills_singles_none_out() -> None:
    text, path = _answer("Which Zephyr Gate versions have Ethernet?", replies=["All three variants have Ethernet [1]."])
    assert path != "variant table"


def test_only_a_pick_among_variants_asks_for_the_table() -> None:
    assert asks_which_variant("Which Opta variant should I buy, and why not the others?")
    assert asks_which_variant("which of the three versions has Wi-Fi?")
    assert not asks_which_variant("Which connector carries RS-485 on the Zephyr Gate Serial?")


PROBES = """Probe comparison
Parameter | QS-200 | QS-200X
Operating temperature | 0 to 50 °C | 0 to 80 °C
Conductivity range | 0 to 2000 µS/cm | 0 to 200 mS/cm
Ingress protection | IP68 | IP68"""


def test_the_variants_whose_row_rates_the_written_value_are_the_answer() -> None:
    """"Which QS-200 model can work at 70 °C?": one-word model codes of one family ("QS-200", "QS-200X") are the
    variants, and the row rating temperatures decides, though the question writes no word of its label; a value
    both rate, or none, singles nothing out."""
    def ask(question: str) -> tuple[str, str]:
        item = ContextItem("chunk", PROBES, 0.5, "c1", "d1", {"path": "1.md", "title": "QS-200 FAQ"})
        context = Context(question=question, strategy="test", items=[item], tokens=80, budget=2000)
        answer = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context,
                                 mode="auto", focus_tokens=300)
        return answer.text, str(answer.context.info.get("answer_path"))

    text, path = ask("Which QS-200 model can work at 70 °C?")
    assert path == "variant table" and text.startswith("The QS-200X: 70 °C is within its rating [1]. Parameter: "
                                                       "Operating temperature; QS-200: 0 to 50 °C"), text
    text, path = ask("Which QS-200 model measures 150 mS/cm?")
    assert path == "variant table" and text.startswith("The QS-200X: 150 mS/cm is within its rating"), text
    assert ask("Which QS-200 model can work at 20 °C?")[1] != "variant table"  # both do


KITS = """Zephyr Core variants
 | Zephyr Core | Zephyr Core Lite | Zephyr Core Lite Connected
SKU | ZX00042 | ZX00045 | ZX00046
Connectivity | Ethernet PHY / Wi-Fi / Bluetooth LE | Ethernet PHY | Ethernet PHY / Wi-Fi / Bluetooth LE
Memory | 8 MB SDRAM | 8 MB SDRAM | 8 MB SDRAM"""


def test_a_yes_no_question_naming_one_variant_is_answered_by_its_cell() -> None:
    """"We ordered the Zephyr Gate Lite (ZG001). Can it talk Modbus RTU over RS-485?": the Lite's empty RS-485 cell says
    no, and which variants have it; a filled cell says yes. A row of cells listing what each variant has ("Connectivity
    | Ethernet PHY / Wi-Fi") answers for the most specific name written ("Zephyr Core Lite", not "Zephyr Core")."""
    text, path = _answer("We ordered the Zephyr Gate Lite (ZG001). Can it talk Modbus RTU over RS-485 to our drives?")
    assert path == "variant table", path
    assert text.startswith("No. The Zephyr Gate Lite: RS-485: N/A [1]; the Zephyr Gate Serial and the Zephyr Gate Air "
                           "have it [1]. Name: RS-485;"), text
    text, path = _answer("Does the Zephyr Gate Air have RS-485?")
    assert path == "variant table" and text.startswith("Yes. The Zephyr Gate Air: RS-485: Half-duplex [1]."), text

    def ask(question: str) -> tuple[str, str]:
        item = ContextItem("chunk", KITS, 0.5, "c1", "d1", {"path": "1.pdf", "title": "Zephyr Core"})
        context = Context(question=question, strategy="test", items=[item], tokens=80, budget=2000)
        answer = generate_answer(FakeLLM(replies=["Yes, it has Wi-Fi [1]."]), question, context, mode="auto",
                                 focus_tokens=300)
        return answer.text, str(answer.context.info.get("answer_path"))

    text, path = ask("Does the Zephyr Core Lite have Wi-Fi?")
    assert path == "variant table" and text.startswith("No. The Zephyr Core Lite: Connectivity: Ethernet PHY [1]"), text
    text, path = ask("Does the Zephyr Core Lite Connected have Wi-Fi?")
    assert path == "variant table" and text.startswith("Yes. The Zephyr Core Lite Connected: Connectivity:"), text
    assert ask("Does the Zephyr Core Lite have 8 MB SDRAM?")[1] != "variant table"  # every variant has it
    assert ask("Does the Zephyr Core family have Wi-Fi?")[1] != "variant table"  # no one variant named


def test_a_support_matrix_answers_a_yes_no_question_naming_one_of_its_boards() -> None:
    """A carrier's "Function | Zephyr Core M4 Support | Zephyr Core M7 Support | Notes" table: each column is what one
    board supports on it (the notes column is no board), and a label listing alternatives with slashes
    ("NBIoT/CatM1/2G") names what a question writes as "NB-IoT"."""
    from conftest import offline_answer

    matrix = ("Features supported by Zephyr Core boards\nFunction | Zephyr Core M4 Support | Zephyr Core M7 Support | Notes\n"
              "NBIoT/CatM1/2G | No | Yes | The modem talks over USB, no firmware for the Core M4\n"
              "Ethernet | Fast Ethernet | 1 Gbps | Fast Ethernet - 100 Mbps")
    text, path = offline_answer("Our Zephyr Core M4 sits on the Zephyr Base. Can it send data over the base's NB-IoT "
                                "modem?", matrix, "Zephyr Base")
    assert path == "variant table"
    assert text.startswith("No. The Zephyr Core M4: NBIoT/CatM1/2G: No [1]; the Zephyr Core M7 has it [1].")
