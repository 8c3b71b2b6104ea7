"""An overview of one product quotes its datasheet's features list after the answer: "What connectors and features
does the Zephyr Breakout provide?" was answered from three scattered sentences while the "Features" section listing
the USB-A port, the RJ45 jack and the microSD slot stayed out."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.blocks import build_blocks
from kgrag.answering.features import MAX_FEATURE_WORDS, features_lines, features_quote
from kgrag.answering.messages import with_product_name
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

BREAKOUT = ("2 Features\nPower ON button\nBoot mode DIP switch\nConnectors\nUSB-A host port\n"
            "RJ45 Ethernet up to 1 Gb/s\nmicroSD card slot\nPower\nCR2032 RTC battery backup\n"
            "2.1 Contents\nSKU | Name | Quantity\nZX00031 | Zephyr Breakout | 1")
INTRO = ("The Zephyr Breakout board exposes the high-density connectors of the Zephyr boards on both sides, so "
         "developers can measure and control every signal while they prototype.")
SENSOR = ("Features\nUses the TF-40 time-of-flight sensor for distance measurements (0-1200 mm).\n"
          "I2C interface at 3.3 V.")


def _context(question: str, *texts_titles: tuple[str, str]) -> Context:
    items = [ContextItem(chunk_id=f"c{i}", text=text, score=1.0 - i / 10, kind="chunk", source={"title": title})
             for i, (text, title) in enumerate(texts_titles)]
    return Context(question=question, strategy="test", items=items, tokens=200, budget=2000)


def _quote(question: str, *texts_titles: tuple[str, str]) -> str:
    blocks = build_blocks(_context(question, *texts_titles))
    return features_quote(question, blocks, {b.n: b.title for b in blocks})


def test_the_features_section_is_read_up_to_the_next_numbered_section() -> None:
    lines = features_lines(f"Zephyr Breakout datasheet\n{BREAKOUT}")
    assert lines[0] == "Power ON button" and "microSD card slot" in lines and lines[-1] == "CR2032 RTC battery backup"
    assert not any("Contents" in line or "ZX00031" in line for line in lines)  # the next section is another list
    assert features_lines(INTRO) == []
    module = features_lines("Features\nZX-112 Bluetooth module\n64 MHz Arm Cortex-M4F microcontroller\n512 KB Flash\n"
                            "4 Digital inputs at 24 V\n3 Board Operation\nThe board boots from flash.")
    assert module == ["ZX-112 Bluetooth module", "64 MHz Arm Cortex-M4F microcontroller", "512 KB Flash",
                      "4 Digital inputs at 24 V"]  # a value line is no numbered section
    long = features_lines("Key Features\n" + "The kit offers sensors, nodes and a board to start with. " * 30)
    assert len(long) == 1 and len(long[0].split()) == MAX_FEATURE_WORDS + 1  # a prose paragraph: its first words


def test_an_overview_or_features_question_about_one_product_gets_its_features_list() -> None:
    quote = _quote("What connectors and features does the Zephyr Breakout provide?",
                   (INTRO, "Zephyr Breakout"), (BREAKOUT, "Zephyr Breakout"))
    assert quote.startswith("Zephyr Breakout: features: Power ON button; Boot mode DIP switch;") and quote.endswith("[2].")
    # a user's situation around the request does not hide the list it asks for
    assert _quote("Building a teaching bench with the Zephyr Distance. List its main features.",
                  (SENSOR, "Zephyr Distance")).startswith("Zephyr Distance: features: Uses the TF-40")
    assert _quote("What are the key specs of the Zephyr Distance?", (SENSOR, "Zephyr Distance"))
    assert _quote("Summarise the key specs of the Zephyr Distance for a robotics lab.", (SENSOR, "Zephyr Distance"))
    assert _quote("What hardware is on the Zephyr Distance?", (SENSOR, "Zephyr Distance"))


def test_no_features_list_for_one_fact_another_aspect_or_two_products() -> None:
    assert _quote("What is the Ethernet speed of the Zephyr Breakout?", (BREAKOUT, "Zephyr Breakout")) == ""
    assert _quote("What Ethernet speed does the Zephyr Breakout reach according to the specifications?",
                  (BREAKOUT, "Zephyr Breakout")) == ""
    # an overview of an aspect the list does not name: its lines would not answer it
    assert _quote("Summarize how the Zephyr Breakout handles CAN bus termination.", (BREAKOUT, "Zephyr Breakout")) == ""
    assert _quote("Summarize the Zephyr Breakout's RTC battery backup.", (BREAKOUT, "Zephyr Breakout"))  # named
    assert _quote("Compare the features of the Zephyr Breakout and the Zephyr Distance.",
                  (BREAKOUT, "Zephyr Breakout"), (SENSOR, "Zephyr Distance")) == ""
    assert _quote("What features does the Zephyr Breakout provide?", (BREAKOUT, "Zephyr Carrier")) == ""  # not its own


def test_a_small_models_overview_is_followed_by_the_features_list_first() -> None:
    question = "What connectors and features does the Zephyr Breakout provide?"
    context = _context(question, (INTRO, "Zephyr Breakout"), (BREAKOUT, "Zephyr Breakout"))
    reply = "The Zephyr Breakout exposes the high-density connectors of the Zephyr boards [1]."
    answer = generate_answer(FakeLLM(replies=[reply]), question, context, mode="auto", focus_tokens=200, passages=2)
    head, _, tail = answer.text.partition("\n\nFrom the documents: ")
    assert head == reply
    assert tail.startswith("Zephyr Breakout: features: Power ON button;") and "RJ45 Ethernet up to 1 Gb/s" in tail


def test_a_quoted_overview_is_followed_by_the_features_list_first() -> None:
    """"Give me a rundown of the Zephyr Distance specs: range and supply voltage" is answered by a quote for each asked
    word; the product's features list comes first after them, before the other passages."""
    question = "Give me a rundown of the Zephyr Distance specs: range and supply voltage."
    spec = "Technical Specifications\nRange | 0-1200 mm\nSupply voltage | 2.6 V to 3.5 V"
    context = _context(question, (spec, "Zephyr Distance"), (SENSOR, "Zephyr Distance"))
    answer = generate_answer(FakeLLM(replies=["unused"]), question, context, mode="auto", focus_tokens=200, passages=2)
    assert context.info["answer_path"] == "extractive"
    head, _, tail = answer.text.partition("\n\nFrom the documents: ")
    assert "2.6 V to 3.5 V" in head and tail.startswith("Zephyr Distance: features: Uses the TF-40")


def test_a_features_list_cut_by_the_chunker_goes_on_in_the_chunks_its_section_path_puts_under_features() -> None:
    """A datasheet's chunker cut the "Features" heading and a note from the list itself ("Features > 3.97" TFT
    Display"): the quote held the note only. The other retrieved chunks under the heading follow, each cited."""
    question = "What hardware is on the Zephyr Display Shield?"
    items = [
        ContextItem(chunk_id="d-00000", text="Description\nA touchscreen for Zephyr boards.\nFeatures\nNote: It needs a "
                    "Zephyr board to function.", score=0.9, kind="chunk",
                    source={"title": "Zephyr Display Shield", "section": "Features"}),
        ContextItem(chunk_id="d-00007", text="8 IMU\nThe shield has a 6-axis IMU.", score=0.8, kind="chunk",
                    source={"title": "Zephyr Display Shield", "section": "8 IMU"}),
        ContextItem(chunk_id="d-00001", text="3.97\" TFT Display\n480x800 resolution\nCapacitive touch sensor\n"
                    "TX-270 6-axis IMU", score=0.7, kind="chunk",
                    source={"title": "Zephyr Display Shield", "section": "Features > 3.97\" TFT Display"}),
    ]
    blocks = build_blocks(Context(question=question, strategy="test", items=items, tokens=200, budget=2000))
    quote = features_quote(question, blocks, {b.n: b.title for b in blocks})
    assert "Note: It needs a Zephyr board to function [1]" in quote
    assert "480x800 resolution; Capacitive touch sensor; TX-270 6-axis IMU [3]" in quote
    assert "The shield has a 6-axis IMU" not in quote  # a numbered section of its own is no part of the list


def test_a_product_asked_by_its_order_code_alone_gets_its_features_and_the_model_reads_its_name() -> None:
    """"Overview of ZXB00031 please": the retriever linked the code to the Zephyr Breakout (whose contents table writes
    it); the overview quotes that product's features list, and the model reads "ZXB00031 (Zephyr Breakout)" so it does
    not answer that the documents lack the code. Two linked products leave the question as it is."""
    question = "Overview of ZXB00031 please"
    context = _context(question, (INTRO, "Zephyr Breakout"),
                       (BREAKOUT.replace("ZX00031", "ZXB00031"), "Zephyr Breakout"))
    context.info["linked"] = [{"name": "Zephyr Breakout", "type": "Product", "match": "code"}]
    blocks = build_blocks(context)
    assert features_quote(question, blocks, {b.n: b.title for b in blocks}, context.info["linked"]).startswith(
        "Zephyr Breakout: features: Power ON button;")
    assert features_quote(question, blocks, {b.n: b.title for b in blocks}) == ""  # no product linked
    seen: list[str] = []

    def respond(messages, schema):  # type: ignore[no-untyped-def]
        seen.append(messages[-1]["content"])
        return "The Zephyr Breakout exposes the high-density connectors of the Zephyr boards [1]."

    generate_answer(FakeLLM(respond=respond), question, context, mode="auto", focus_tokens=200, passages=2)
    assert seen and "Question: Overview of ZXB00031 (Zephyr Breakout) please" in seen[0]
    two = [*context.info["linked"], {"name": "Zephyr Carrier", "type": "Product", "match": "code"}]
    assert with_product_name(question, two) == question
    assert with_product_name("Overview of ZXB00031 (Zephyr Breakout)", context.info["linked"]).count("Breakout") == 1


def test_an_overviews_passages_stating_values_or_parts_come_before_the_ones_that_praise() -> None:
    """After a small model's overview, the passages quoted first are the ones an overview can give facts from ("runs a
    QX-9 at 84 MHz"), then the ones that only praise the product, however close they score."""
    question = "Give me an overview of the Zephyr Due."
    praise = ("The Zephyr Due serves as an invaluable tool for quickly iterating and testing new ideas for projects of "
              "every kind, and makers love the Zephyr Due.")
    specs = "The Zephyr Due runs a QX-9 microcontroller at 84 MHz with 512 KB of flash."
    context = _context(question, (praise, "Zephyr Due"), (specs, "Zephyr Due"))
    reply = "The Zephyr Due is a board for makers [1]."
    answer = generate_answer(FakeLLM(replies=[reply]), question, context, mode="auto", focus_tokens=200, passages=1)
    tail = answer.text.partition("\n\nFrom the documents: ")[2]
    assert tail.startswith("The Zephyr Due runs a QX-9") and "invaluable" in tail  # first, not instead
