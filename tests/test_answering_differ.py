"""How two named products differ, read from the graph's fact table."""

from __future__ import annotations

from kgrag.answering.asks import asks_difference
from kgrag.answering.differ import graph_kinds, part_kinds, same_part, try_differences
from kgrag.answering.terms import analyse

TABLE = {1: "Zephyr Mini Rev2 (Product)\nhas sensor | QB270 [3]\nhas sensor | QS3003\nhas sensor | QPS22HB [3]\n"
            "has module | QINA-B306 [2]\nhas interface | I2C\n\n"
            "Zephyr Mini (Product)\nhas sensor | QSM9DS1 [4]\nhas sensor | QTS221\nhas sensor | QPS22HBTR [4]\n"
            "has module | QINA B306 [5]\nhas interface | SPI"}


def test_the_parts_each_product_lists_and_the_other_does_not_answer_how_they_differ() -> None:
    q = analyse("Is the Zephyr Mini Rev2 just a renamed Zephyr Mini, or did its components change?")
    text = try_differences(q, TABLE) or ""
    assert text.startswith("The Zephyr Mini Rev2 and the Zephyr Mini differ in the parts the documents list [1].")
    assert "The Zephyr Mini Rev2 has QB270 (sensor) [3], QS3003 (sensor) [1], which the Zephyr Mini does not list." in text
    assert "The Zephyr Mini has QSM9DS1 (sensor) [4], QTS221 (sensor) [1], which the Zephyr Mini Rev2 does not list." in text
    assert "Both list QPS22HB (sensor) [3], QINA-B306 (module) [2]." in text  # one part written two ways; no buses
    sensors = try_differences(analyse("Do the Zephyr Mini and the Zephyr Mini Rev2 have the same sensors?"), TABLE) or ""
    assert "QINA" not in sensors and "QB270 [3]" in sensors  # only the asked kind, which needs no saying


def test_each_part_is_listed_with_what_the_documents_call_it() -> None:
    """A parts list row "U3 | QS3003 Humidity Sensor IC" says what the part is: the difference lists "QS3003 (humidity
    sensor)"; a part no passage describes gets the class of its fact ("has sensor | QB270": "QB270 (sensor)")."""
    rows = ["Ref. | Description\nU3 | QS3003 Humidity Sensor IC\nU4 | QSM9DS1 9-axis IMU\nU5 | QTS221 and the QX1 sensors",
            "The QINA-B306 Bluetooth module talks to the host."]
    kinds = part_kinds(["QS3003", "QSM9DS1", "QTS221", "QB270", "QINA-B306"], rows + [TABLE[1]])
    assert kinds == {"QS3003": "humidity sensor", "QSM9DS1": "9-axis IMU", "QINA-B306": "bluetooth module"}
    q = analyse("Is the Zephyr Mini Rev2 just a renamed Zephyr Mini, or did its components change?")
    text = try_differences(q, TABLE, rows) or ""
    assert "The Zephyr Mini Rev2 has QB270 (sensor) [3], QS3003 (humidity sensor) [1], which the Zephyr Mini does not list." in text
    assert "The Zephyr Mini has QSM9DS1 (9-axis IMU) [4], QTS221 (sensor) [1]," in text


def test_no_difference_answer_without_two_products_lists_or_a_difference_asked() -> None:
    assert try_differences(analyse("Which sensors does the Zephyr Mini have?"), TABLE) is None
    one = {1: TABLE[1].split("\n\n")[0]}
    assert try_differences(analyse("How does the Zephyr Mini Rev2 differ from the Zephyr Mini?"), one) is None
    assert not asks_difference("I need four serial ports at the same time: the A or the B?")
    assert not asks_difference("What do I need to change on the carrier?")
    assert asks_difference("Did its components change?") and asks_difference("What is the difference between A and B?")
    assert not asks_difference("Which secure element does the A use, and which member of the B family has the same chip?")
    assert asks_difference("Are the A and the B equivalent, and which one has the same connector?")  # asked before


def test_an_order_code_suffix_is_the_same_part_a_shorter_family_name_is_not() -> None:
    assert same_part("LPS22HB", "LPS22HBTR") and same_part("APDS-9960", "APDS9960")
    assert not same_part("BMI", "BMI270") and not same_part("HS3003", "HS4001")


def test_an_overview_of_the_asked_kind_of_parts_follows_a_small_models_answer() -> None:
    from kgrag.answer import generate_answer
    from kgrag.answering.differ import parts_overview
    from kgrag.models.fake import FakeLLM
    from kgrag.types import Context, ContextItem

    q = analyse("Summarize the sensing capabilities of the Zephyr Mini Rev2.")
    assert parts_overview(q, TABLE) == "From the knowledge graph: the Zephyr Mini Rev2 lists QB270 [3], QS3003 [1], QPS22HB [3]."
    rows = ["Ref. | Description\nU2 | QB270 6-axis IMU\nU9 | QPS22HB Pressure Sensor IC"]  # what the parts are, if said
    assert parts_overview(q, TABLE, rows) == ("From the knowledge graph: the Zephyr Mini Rev2 lists QB270 (6-axis IMU) [3], "
                                              "QS3003 [1], QPS22HB (pressure sensor) [3].")
    # no kind asked: every part but the buses, then the spec rows (values first, no compliance marks)
    specs = {1: TABLE[1].split("\n\n")[0] + "\nfcc usa | Yes [4]\nxshut | Shutdown\npressure range | 260 to 1260 hPa [3]"}
    assert parts_overview(analyse("Summarize what the Zephyr Mini Rev2 provides."), specs) == (
        "From the knowledge graph: the Zephyr Mini Rev2 lists QB270 (sensor) [3], QS3003 (sensor) [1], QPS22HB (sensor) [3], "
        "QINA-B306 (module) [2]; pressure range 260 to 1260 hPa [3]; xshut Shutdown [1].")  # each part's class said
    assert parts_overview(analyse("Give an overview of the Zephyr Mini."), {1: "Zephyr Mini (Product)\nweight | 5 g [2]"}) == ""
    table = TABLE[1].replace("[3]", "[2]")  # cite the chunk below
    items = [ContextItem("relation", table, 1.0, None, "d1", {"title": ""}),
             ContextItem("chunk", "The Zephyr Mini Rev2 senses motion (QB270), humidity and pressure (QPS22HB) with its sensors.", 0.5,
                         "c2", "d1", {"title": "Zephyr Mini Rev2"})]
    question = "Summarize the sensing capabilities of the Zephyr Mini Rev2."
    context = Context(question, "test", items, 100, 2000)
    llm = FakeLLM(replies=["The Zephyr Mini Rev2 senses motion, humidity and pressure [2]."])
    text = generate_answer(llm, question, context, mode="auto", focus_tokens=300).text
    assert text.endswith("\n\nFrom the knowledge graph: the Zephyr Mini Rev2 lists QB270 [2], QS3003 [1], QPS22HB [2].")
    prompt = "\n".join(m["content"] for m in llm.requests[0]["messages"])
    assert "QS3003" not in prompt and "senses motion" in prompt  # the graph's rows follow the answer; the model reads the documents
    refused = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context,
                              mode="auto", focus_tokens=300)
    assert "closest passages" in refused.text and refused.text.endswith("QS3003 [1], QPS22HB [2].")  # the rows still follow


def test_an_overview_of_an_aspect_lists_its_parts_then_the_rows_of_that_aspect_that_state_a_value() -> None:
    from kgrag.answering.differ import parts_overview

    table = {1: TABLE[1].split("\n\n")[0] + "\npressure range | 260 to 1260 hPa [3]\nhumidity accuracy | ± 3.5% rH [3]"
                                            "\ninput voltage from usb connector | 4.8 to 5.5 V [2]\ntemperature sensor | Internal"}
    text = parts_overview(analyse("Summarize the onboard sensors of the Zephyr Mini Rev2."), table)
    # the sensing rows with a value; not the USB input (another aspect), nor "temperature sensor | Internal"
    assert text == ("From the knowledge graph: the Zephyr Mini Rev2 lists QB270 [3], QS3003 [1], QPS22HB [3]; "
                    "pressure range 260 to 1260 hPa [3]; humidity accuracy ± 3.5% rH [3].")


def test_a_parts_class_comes_from_its_fact_unless_it_is_a_bare_component_or_the_asked_class() -> None:
    facts = [("has sensor", "QB270", 3), ("has power component", "QP2322", 1), ("has component", "QX1", 1)]
    assert graph_kinds(facts, set()) == {"QB270": "sensor", "QP2322": "power component"}
    assert graph_kinds(facts, {"sensor"}) == {"QP2322": "power component"}


def test_an_overview_lists_no_restricted_substance_limits() -> None:
    """A RoHS table's rows ("mercury hg maximum limit ppm | 1000") are graph facts of the product, but a declaration
    about its materials: an overview's spec rows leave them out and list its specs."""
    from kgrag.answering.differ import parts_overview

    specs = {1: TABLE[1].split("\n\n")[0] + "\nmercury hg maximum limit ppm | 1000 [4]\npressure range | 260 to 1260 hPa [3]"}
    text = parts_overview(analyse("Summarize what the Zephyr Mini Rev2 provides."), specs)
    assert "pressure range 260 to 1260 hPa [3]" in text and "mercury" not in text
