"""A "which <column> …" question is answered by that column's cell of the row its other words describe."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.lookup import asked_column
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

MANUAL = """4 Configuration
The gateway reads its settings from gateway.yaml. The most used keys:

Key | Default | Description
mqtt.qos | 1 | Quality of service level for published messages
log.keep_days | 14 | Days the gateway holds its log files
poll.interval_ms | 1000 | Interval between Modbus polls in milliseconds
buffer.max_mb | 256 | Size of the store-and-forward buffer used when the broker is unreachable

5 LED indicators
LED | State | Meaning
PWR | green | Supply present
RUN | steady green | Connected to the broker
ERR | blinking red | Buffer full, data is being dropped

6 Error codes
Code | Meaning | Action
E07 | Calibration expired | Run a two-point calibration
E12 | Supply voltage too low | Check the supply; it must be at least 9 V"""


def _ask(question: str) -> tuple[str, str]:
    item = ContextItem("chunk", MANUAL, 0.5, "c1", "d-c1", {"path": "c1.md", "title": "GW-9 Gateway Manual",
                                                            "section": "4 Configuration"})
    context = Context(question=question, strategy="test", items=[item], tokens=120, budget=2000)
    reply = "The documents do not contain the answer."  # the model, if asked, refuses
    answer = generate_answer(FakeLLM(replies=[reply]), question, context, mode="auto", focus_tokens=300)
    return answer.context.info.get("answer_path", ""), answer.text


def test_the_asked_columns_cell_of_the_row_the_question_describes_answers() -> None:
    path, text = _ask("Which configuration key sets the size of the store-and-forward buffer?")
    assert path == "table lookup" and "Key: buffer.max_mb." in text and "[1]" in text, text
    path, text = _ask("Which LED shows that the gateway is connected to the broker?")
    assert path == "table lookup" and text.rstrip().endswith("LED: RUN."), text
    path, text = _ask("What does a blinking red ERR LED mean?")  # the meaning column of the row it describes
    assert path == "table lookup" and text.rstrip().endswith("Meaning: Buffer full, data is being dropped."), text
    path, text = _ask("What should I do about error E12?")  # the action column
    assert path == "table lookup" and text.rstrip().endswith("Action: Check the supply; it must be at least 9 V."), text
    path, text = _ask("How do I fix error E07?")
    assert path == "table lookup" and text.rstrip().endswith("Action: Run a two-point calibration."), text
    path, text = _ask("What should I do when error E12 appears?")  # "appears": a word no passage writes
    assert path == "table lookup" and text.rstrip().endswith("Action: Check the supply; it must be at least 9 V."), text
    path, text = _ask("Which key holds the broker's quality of service?")  # "holds" links the column to the row
    assert path == "table lookup" and text.rstrip().endswith("Key: mqtt.qos."), text
    path, text = _ask("What should I do when error E12 appears on the GW-9?")  # the product named by the title only
    assert path == "table lookup" and text.rstrip().endswith("Action: Check the supply; it must be at least 9 V."), text


def test_a_meaning_asked_as_users_type_it_reads_the_row_carrying_most_of_its_words() -> None:
    """"led blinking red meaning": the "RUN | steady green" row also carries "led" and a colour word's neighbour; the
    ERR row carries every word asked."""
    path, text = _ask("led blinking red meaning")
    assert path == "table lookup" and text.rstrip().endswith("Meaning: Buffer full, data is being dropped."), text
    path, text = _ask("meaning of the steady green led")
    assert path == "table lookup" and text.rstrip().endswith("Meaning: Connected to the broker."), text


def test_the_asked_cell_is_said_once_when_the_row_ends_on_it() -> None:
    """"What does … mean?" over "LED | State | Meaning": the quote of the row ends on the meaning, which the lookup then
    says again as its answer; it is said once, last."""
    path, text = _ask("What does a blinking red ERR LED mean?")
    assert path == "table lookup" and text.count("Buffer full") == 1, text
    assert "ERR; State: blinking red [1]. Meaning: Buffer full, data is being dropped." in text, text


def test_no_lookup_without_a_column_named_or_a_row_carrying_the_question() -> None:
    assert asked_column("Which configuration key sets the buffer size?", "Key | Default | Description") == 0
    assert asked_column("What is the poll interval for Modbus?", "Key | Default | Description") is None
    assert _ask("Which key enables TLS client certificates?")[0] != "table lookup"  # no row says so
