"""Product scoping and alias linking (`retrieve/scoping.py`) and the `kg-facts` strategy on a two-sibling fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import add_text_chunks, fast_settings

from kgrag.answer import finish_plan, plan_answer
from kgrag.answering.graph_lists import try_list
from kgrag.answering.refusal import CITE
from kgrag.answering.terms import analyse
from kgrag.graph.adjacency import get_adjacency
from kgrag.graph.build import build_graph
from kgrag.graph.resolve import resolve_entities
from kgrag.index import Index
from kgrag.retrieve.base import make_retriever
from kgrag.retrieve.fact_table import collect_facts, fact_lines, states
from kgrag.retrieve.scoping import link_question
from kgrag.retrieve.strategies.facts import _scoped, _without_name, scope_words

MINI = """# Zephyr Mini

User Manual SKU: ZPH00031

The Zephyr Mini is based on the QRF52832 microcontroller and carries the QX100 barometer.

## QX100 Barometer

| Parameter | Value |
|---|---|
| Pressure range | 300 to 1100 hPa |
| Supply voltage | 1.7 to 3.6 V |

## Power

The board is powered over USB at 5 V.
"""

REV2 = """# Zephyr Mini Rev2

User Manual SKU: ZPH00069

The Zephyr Mini Rev2 is based on the QRF52840 microcontroller and carries the QX210 barometer.

## QX210 Barometer

| Parameter | Value |
|---|---|
| Pressure range | 260 to 1260 hPa |
| Supply voltage | 1.7 to 3.6 V |

## Power

The board is powered over USB-C at 5 V.
"""

OTHER = """# Zephyr Pro

The Zephyr Pro is an industrial board with the QRF52832 microcontroller and an RS-485 port.
Its CAN interface connects it to vehicle networks.
"""


@pytest.fixture(scope="module")
def sibling_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("siblings")
    docs = root / "docs" / "Zephyr Boards"
    for product, text in (("Zephyr Mini", MINI), ("Zephyr Mini Rev2", REV2), ("Zephyr Pro", OTHER)):
        folder = docs / product
        folder.mkdir(parents=True)
        (folder / f"{product.lower().replace(' ', '-')}.md").write_text(text, encoding="utf-8")
    index = Index.init(root / "idx", settings=fast_settings())
    index.add([root / "docs"])
    build_graph(index, "datasheet")
    resolve_entities(index.store)
    return index


def graph_index(root: Path, family: str, sheets: dict[str, str]) -> Index:
    """An index of one Markdown datasheet per product under docs/<family>/<product>/, with its datasheet graph."""
    for product, text in sheets.items():
        folder = root / "docs" / family / product
        folder.mkdir(parents=True)
        (folder / "datasheet.md").write_text(text, encoding="utf-8")
    index = Index.init(root / "idx", settings=fast_settings())
    index.add([root / "docs"])
    build_graph(index, "datasheet")
    resolve_entities(index.store)
    return index


def linked(index: Index, question: str) -> list[tuple[str, str]]:
    adj = get_adjacency(index.store)
    return [(lk.name, lk.match) for lk in link_question(index, question, adj)]


def test_numeric_suffix_links_only_the_named_product(sibling_index: Index) -> None:
    assert linked(sibling_index, "What is the pressure range of the Zephyr Mini Rev2?") == [("Zephyr Mini Rev2", "exact")]
    assert linked(sibling_index, "What is the pressure range of the Zephyr Mini?") == [("Zephyr Mini", "exact")]


def test_a_variant_named_by_what_sets_it_apart_links_after_its_base_product(sibling_index: Index) -> None:
    both = [("Zephyr Mini", "exact"), ("Zephyr Mini Rev2", "variant")]
    assert linked(sibling_index, "Zephyr Mini vs Mini Rev2: which barometer does each one use?") == both
    assert linked(sibling_index, "What changed between the original Zephyr Mini and the Rev2?") == both
    # set aside, or the word elsewhere: only the base product
    assert linked(sibling_index, "What barometer does the Zephyr Mini use, not the Rev2?") == [("Zephyr Mini", "exact")]
    assert linked(sibling_index, "Does the Zephyr Mini log at Rev2 firmware speed?") == [("Zephyr Mini", "exact")]


def test_alias_linking_by_sku_and_document_title(sibling_index: Index) -> None:
    assert ("Zephyr Mini Rev2", "alias") in linked(sibling_index, "Which USB connector does the ZPH00069 use?")
    names = [n for n, _ in linked(sibling_index, "Does the QX210 work at 3.3 V?")]
    assert names == ["QX210"]


def test_an_acronym_links_only_when_written_in_capitals(sibling_index: Index) -> None:
    assert ("CAN", "exact") in linked(sibling_index, "Does the Zephyr Pro support CAN?")
    assert [n for n, _ in linked(sibling_index, "How can I power the Zephyr Pro?")] == ["Zephyr Pro"]


def test_kg_facts_scopes_chunks_and_facts_to_the_named_product(sibling_index: Index) -> None:
    context = make_retriever("kg-facts", sibling_index).retrieve(
        "What is the pressure range of the Zephyr Mini Rev2?", 300)
    chunks = [i for i in context.items if i.kind == "chunk"]
    assert chunks and chunks[0].source["product"] == "Zephyr Mini Rev2"
    facts = "\n".join(i.text for i in context.items if i.kind == "relation")
    assert "pressure range | 260 to 1260 hPa" in facts
    assert "300 to 1100 hPa" not in facts
    assert context.subgraph.nodes  # the page draws what the facts came from


def test_multi_hop_component_to_the_products_that_have_it(sibling_index: Index) -> None:
    context = make_retriever("kg-facts", sibling_index).retrieve("Which boards use the QRF52832?", 400)
    facts = "\n".join(i.text for i in context.items if i.kind == "relation")
    assert "Zephyr Mini" in facts and "Zephyr Pro" in facts
    assert "Zephyr Mini Rev2" not in facts


def test_a_list_question_is_answered_from_the_fact_table(sibling_index: Index) -> None:
    """"Which boards use the X?" lists every product the graph links to X, each cited, without the LLM."""
    question = "Which boards use the QRF52832?"
    context = make_retriever("kg-facts", sibling_index).retrieve(question, 400)
    plan = plan_answer(question, context, mode="auto", focus_tokens=300)
    assert plan.action == "quote" and context.info["answer_path"] == "graph list"
    assert "Zephyr Mini [" in plan.text and "Zephyr Pro [" in plan.text and "Rev2" not in plan.text
    answer = finish_plan(question, context, plan)  # each item keeps its own source number
    assert answer.text == plan.text and len(CITE.findall(answer.text)) == len(plan.text.split(";"))


def test_a_graph_list_is_followed_by_what_the_documents_say_of_its_items(sibling_index: Index) -> None:
    """The fact table gives the names; in auto mode with passages the documents' words on them follow the list."""
    question = "Which boards use the QRF52832?"
    context = make_retriever("kg-facts", sibling_index).retrieve(question, 400)
    plan = plan_answer(question, context, mode="auto", focus_tokens=300, passages=2)
    listed, _, tail = plan.text.partition("\n\nFrom the documents: ")
    assert context.info["answer_path"] == "graph list" and "Zephyr Mini [" in listed and "QRF52832" in tail
    q = analyse("Which sensor of the Zephyr Mini measures pressure?")  # asks more than the list: passages decide
    assert try_list(q, {1: "Zephyr Mini (Product)\nhas sensor | QX100 [2]"}) is None
    q = analyse("Which sensors does the Zephyr Mini have?")
    assert try_list(q, {1: "Zephyr Mini (Product)\nhas sensor | QX100 [2]\nhas microcontroller | QRF52832"}) == \
        "Zephyr Mini – has sensor: QX100 [2]."
    q = analyse("Which boards use the QX-100?")  # the graph writes the part without its hyphen
    assert try_list(q, {1: "QX100 (Sensor)\nin product | Zephyr Mini [3]"}) == "QX100 – in product: Zephyr Mini [3]."
    q = analyse("which boards have wifi?")  # typed in lower case and without the graph's hyphen: still its name
    assert try_list(q, {1: "Wi-Fi (Interface)\nin product | Zephyr Pro [4]"}) == "Wi-Fi – in product: Zephyr Pro [4]."
    assert try_list(analyse("which boards have a fast clock?"), {1: "Wi-Fi (Interface)\nin product | Zephyr Pro"}) is None


def test_a_narrower_kind_of_part_lists_only_the_parts_the_documents_call_so() -> None:
    """The graph types a camera, an IMU and a ranging sensor alike as sensors: "What camera does the Y have?" lists
    the one the documents write next to "camera", and nothing when none is written so (the passages decide)."""
    facts = {1: "Zephyr Mini (Product)\nhas sensor | QX100 [2]\nhas sensor | GC2200 [3]\nhas sensor | LSM9X [4]"}
    documents = ["GC2200 Camera: 2 Megapixel CMOS camera; 80° view angle.",
                 "It reads motion from the 6-axis IMU (LSM9X) and ranges with the QX100 time-of-flight sensor.",
                 "The board carries a crypto chip, a camera connector and the QX100."]
    assert try_list(analyse("What camera does the Zephyr Mini have?"), facts, documents) == \
        "Zephyr Mini – has camera: GC2200 [3]."
    assert try_list(analyse("Which IMU is on the Zephyr Mini?"), facts, documents) == "Zephyr Mini – has IMU: LSM9X [4]."
    assert try_list(analyse("What time-of-flight sensor does the Zephyr Mini use?"), facts, documents) == \
        "Zephyr Mini – has time-of-flight sensor: QX100 [2]."
    assert try_list(analyse("What microphone does the Zephyr Mini have?"), facts, documents) is None
    modules = {1: "Zephyr Max (Product)\nhas module | LRX-78 [2]\nhas module | TJB1049 [3]\nhas module | SPX335 [4]"}
    written = ["The long range LoRa radio module LRX-78 (U23) runs on 3V3.",
               "A high speed CAN transceiver based on the TJB1049T/3J IC drives the 4P4C connector.",
               "A multi-protocol transceiver supporting RS-232 and RS-485 is based on the SPX335 IC."]
    assert try_list(analyse("What CAN transceiver does the Zephyr Max use?"), modules, written) == \
        "Zephyr Max – has CAN transceiver: TJB1049 [3]."  # the order code written is the graph's part
    assert try_list(analyse("What GPS module does the Zephyr Max have?"), modules, written) is None  # none is GPS
    assert try_list(analyse("What modules does the Zephyr Max have?"), modules, written) == \
        "Zephyr Max – has module: LRX-78 [2]; TJB1049 [3]; SPX335 [4]."
    processors = {1: "Zephyr Mini (Product)\nhas microcontroller | QRF52832 [2]\nhas microcontroller | NDX120 [3]"}
    written = ["The Zephyr Mini integrates a Neural Decision Processor NDX120 next to its QRF52832."]
    assert try_list(analyse("What processor does the Zephyr Mini have?"), processors, written) is None  # the type
    assert try_list(analyse("What camera does the Zephyr Mini have?"), facts) is None  # no document says which
    assert try_list(analyse("Which sensors does the Zephyr Mini have?"), facts, documents) == \
        "Zephyr Mini – has sensor: QX100 [2]; GC2200 [3]; LSM9X [4]."


def test_a_fact_line_cites_only_a_block_that_shows_its_value(sibling_index: Index) -> None:
    """A compacted chunk may no longer show the row a fact came from; its number must then not be cited."""
    adj = get_adjacency(sibling_index.store)
    facts = collect_facts(adj, [adj.names.index("QX210")], "What is the pressure range of the QX210?")
    fact = next(f for f in facts if f.value == "260 to 1260 hPa")
    fact.chunks = ["shows", "lost"]
    shown = {"shows": "Pressure range | 260-1260 hPa", "lost": "The board is powered over USB-C at 5 V."}
    lines = "\n".join(text for _, text, _ in fact_lines(adj, [fact], {"lost": 2, "shows": 5}, shown))
    assert "260 to 1260 hPa [5]" in lines
    assert lines.startswith("QX210 (Sensor, in Zephyr Mini Rev2)\n")  # a part of one product says whose it is
    member = next(f for f in collect_facts(adj, [adj.names.index("QX210")], "Which boards use the QX210?")
                  if f.attribute == "in product")
    assert fact_lines(adj, [member], {})[0][1].startswith("QX210 (Sensor)\n")  # its line says it: not twice
    assert "[5]" not in "\n".join(text for _, text, _ in fact_lines(adj, [fact], {"lost": 2}, shown))
    assert states("0-100%", "0 – 100 % relative humidity") and not states("2A", "12 A")
    member = next(f for f in collect_facts(adj, [adj.names.index("QRF52832")], "Which boards use the QRF52832?")
                  if f.attribute == "in product" and f.value == "Zephyr Pro")
    member.chunks = ["names both", "product only"]
    shown = {"names both": "The Zephyr Pro has the QRF-52832.", "product only": "Zephyr Pro power: 5 V over USB."}
    lines = "\n".join(text for _, text, _ in fact_lines(adj, [member], {"product only": 2, "names both": 3}, shown))
    assert "in product | Zephyr Pro [3]" in lines  # a relation between two things is shown where both are named


def chunk_index(root: Path, texts: list[str]) -> tuple[Index, list[str]]:
    """An index of one chunk per text (no graph), and the chunk ids in order."""
    index = Index.init(root / "idx", settings=fast_settings())
    return index, add_text_chunks(index, texts)


def test_a_scope_also_picks_its_chunk_that_holds_the_asked_words(tmp_path: Path) -> None:
    index, ids = chunk_index(tmp_path, [
        "The Zephyr Max is the largest Zephyr board; the Zephyr Max suits big projects.",
        "I/O | 54 Digital | 16 Analog | 15 PWM Output",
        "Declaration of conformity: RoHS and REACH.",
    ])
    question = "How many PWM pins does the Zephyr Max have?"
    qvec = index.embedder.embed([question])[0]
    asked = _without_name(question, "Zephyr Max")
    assert "Zephyr" not in asked and "Max" not in asked and "PWM" in asked
    assert list(_scoped(index, qvec, ids, 1)) == [ids[0]]  # by embedding alone, the chunk that repeats the name
    assert list(_scoped(index, qvec, ids, 1, asked, 0.5)) == [ids[1]]  # with the asked words, the feature list


def test_an_overview_scope_picks_the_rows_written_in_its_aspects_words(tmp_path: Path) -> None:
    index, ids = chunk_index(tmp_path, [
        "Sample sketches for the Zephyr Max are in the Examples menu of the IDE.",
        "Wi-Fi | IEEE 802.11b/g/n, 2.4 GHz | Bluetooth | 4.2 dual mode, 6 dBm output power",
        "Declaration of conformity: RoHS and REACH.",
    ])
    question = "Summarize the wireless connectivity of the Zephyr Max."
    words = scope_words(question, "Zephyr Max")
    assert "Zephyr" not in words and {"wi-fi", "bluetooth"} <= set(words.split())
    assert scope_words(question, "Zephyr Max", aspects=False) == _without_name(question, "Zephyr Max")
    assert "bluetooth" not in scope_words("What Wi-Fi standard does the Zephyr Max support?", "Zephyr Max")  # no overview
    qvec = index.embedder.embed([question])[0]
    plain = _without_name(question, "Zephyr Max")
    assert ids[1] not in _scoped(index, qvec, ids, 2, plain, 0.5)  # no asked word is in the rows
    assert ids[1] in _scoped(index, qvec, ids, 2, words, 0.5)


def test_without_a_graph_kg_facts_is_hybrid_ordering(tmp_path: Path) -> None:
    index = Index.init(tmp_path / "idx", settings=fast_settings())
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(MINI, encoding="utf-8")
    index.add([docs])
    context = make_retriever("kg-facts", index).retrieve("pressure range", 500)
    assert context.items and all(i.kind == "chunk" for i in context.items)


def test_a_model_code_inside_a_product_name_links_that_product(tmp_path: Path) -> None:
    texts = {
        "Zephyr PLC": "# Zephyr PLC\n\nThe Zephyr PLC is a micro PLC with four relays.\n\n"
                      "| Parameter | Value |\n|---|---|\n| Max current per relay | 10 A |\n",
        "Zephyr PLC Expansion Z1608E - Z1608S": "# Zephyr PLC Expansion Z1608E - Z1608S\n\nThe Z1608S variant has "
                                                "solid state relays.\n\n| Parameter | Value |\n|---|---|\n"
                                                "| Max current per relay | 3 A |\n",
        "Zephyr QM21 Connect": "# Zephyr QM21 Connect\n\nThe board is based on the QM21 microcontroller.\n",
    }
    index = graph_index(tmp_path, "Zephyr Family", texts)
    # "Zephyr PLC" alone is the base PLC; the code names the expansion, so the base is not meant
    found = linked(index, "How much current can each relay of the Zephyr PLC Ext Z1608S switch?")
    assert ("Zephyr PLC Expansion Z1608E - Z1608S", "code") in found and ("Zephyr PLC", "exact") not in found
    assert ("Zephyr PLC", "exact") in linked(index, "How much current can each relay of the Zephyr PLC switch?")
    assert "Zephyr QM21 Connect" not in [n for n, _ in linked(index, "Which boards use the QM21?")]  # the chip's name


def test_a_product_named_without_its_revision_links_the_revision_the_documents_hold(tmp_path: Path) -> None:
    """Users write "Zephyr Max" for the "Zephyr Max Rev3" when the documents hold that one revision; a base name that
    is a product of its own ("Zephyr Mini" beside "Zephyr Mini Rev2") still links only itself."""
    texts = {
        "Zephyr Max Rev3": "# Zephyr Max Rev3\n\nThe Zephyr Max Rev3 carries the QM64 microcontroller.\n\n"
                           "| Parameter | Value |\n|---|---|\n| Analog inputs | 16 |\n",
        "Zephyr Giga": "# Zephyr Giga\n\nThe Zephyr Giga brings the QM75 to the Max form factor.\n\n"
                       "| Parameter | Value |\n|---|---|\n| Analog inputs | 14 |\n",
    }
    index = graph_index(tmp_path, "Zephyr Family", texts)
    assert linked(index, "How many analog inputs does the Zephyr Max have?") == [("Zephyr Max Rev3", "alias")]
    assert linked(index, "How many analog inputs does the Zephyr Max Rev3 have?") == [("Zephyr Max Rev3", "exact")]


def test_a_product_name_with_a_kind_word_inside_links_as_written(tmp_path: Path) -> None:
    """"Zephyr Proto Kit ME": its key drops the kind word ("zephyr proto me"), but a question writes the name whole."""
    texts = {
        "Zephyr Proto Kit ME": "# Zephyr Proto Kit ME\n\nThe kit ships a 24 VDC 1 A supply and the Zephyr Sense ME.\n",
        "Zephyr Sense ME": "# Zephyr Sense ME\n\nThe Zephyr Sense ME is a sensor board.\n\n| Parameter | Value |\n"
                           "|---|---|\n| VIN | 3.5 to 5.5 V |\n",
    }
    index = graph_index(tmp_path, "Zephyr Family", texts)
    found = linked(index, "Can the Zephyr Proto Kit ME supply feed the Zephyr Sense ME's VIN pin?")
    assert ("Zephyr Proto Kit ME", "exact") in found and ("Zephyr Sense ME", "exact") in found


def test_a_name_that_is_a_product_and_a_component_links_the_product() -> None:
    from kgrag.retrieve.scoping import Link, _longest

    component = Link(3, "Zephyr C33", "Component", "exact", 1.0, 4, 6)  # a carrier's datasheet lists it as a part
    product = Link(7, "Zephyr C33", "Product", "exact", 1.0, 4, 6)
    assert [lk.type for lk in _longest([component, product])] == ["Product"]


def test_a_parts_fact_whose_value_measures_the_asked_quantity_is_collected_without_a_shared_word(
        sibling_index: Index) -> None:
    adj = get_adjacency(sibling_index.store)
    mini = [n for n, name in enumerate(adj.names) if name == "Zephyr Mini"]
    question = "What VDD does the Zephyr Mini take on its barometer?"  # "vdd" asks a voltage; the row says "Supply voltage"
    values = {f.value for f in collect_facts(adj, mini, question)}
    assert "1.7 to 3.6 V" in values and "300 to 1100 hPa" not in values
    assert "1.7 to 3.6 V" not in {f.value for f in collect_facts(adj, mini, question, unit_weight=0)}


@pytest.fixture(scope="module")
def family_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("family")
    sheets = {"Orbit": "# Orbit\n\nThe Orbit is a PLC with four relays.\n\n| Parameter | Value |\n|---|---|\n"
                       "| RTC retention | 10 days |\n| Supply voltage | 12 to 24 V |\n| Weight | 67 g |\n"
                       "| Operating temperature | -20 to 70 °C |\n",
              "Orbit Digital Expansion": "# Orbit Digital Expansion\n\nThe Orbit Digital Expansion adds 16 inputs.\n"}
    return graph_index(root, "Orbit Family", sheets)


def test_a_yes_no_question_writing_a_temperature_collects_the_temperature_rating_without_the_word(
        family_index: Index) -> None:
    """A user writes the surroundings as a value ("a cabinet that reaches 75 °C"), not as "operating temperature": the
    named product's rating of that quantity is collected all the same, for a yes/no or a choice question only."""
    adj = get_adjacency(family_index.store)
    orbit = [n for n, name in enumerate(adj.names) if name == "Orbit"]
    asked = {f.value for f in collect_facts(adj, orbit, "Our cabinet reaches 75 °C in summer. Is that OK for the Orbit?")}
    assert "-20 to 70 °C" in asked and "67 g" not in asked
    assert "-20 to 70 °C" not in {f.value for f in collect_facts(adj, orbit, "How heavy is the Orbit at 75 °C?")}


def test_a_name_shared_by_a_product_and_its_family_means_the_product_unless_members_are_meant(
        family_index: Index) -> None:
    assert linked(family_index, "What is the supply voltage of the Orbit?")[0][0] == "Orbit"
    assert linked(family_index, "Whose clock lasts longer, the Orbit's or the Zephyr's?")[0][0] == "Orbit"
    for question in ("Which Orbit boards have relays?", "Summarise the Orbit family.",
                     "How do I program the Orbit Analog Expansion?"):  # members, or one the graph does not know
        assert linked(family_index, question)[0][0] == "Orbit Family", question


def test_a_fact_is_found_by_the_initials_of_the_question_words(family_index: Index) -> None:
    adj = get_adjacency(family_index.store)
    orbit = [n for n, name in enumerate(adj.names) if name == "Orbit"]
    facts = collect_facts(adj, orbit, "How long does the real-time clock of the Orbit keep time?")
    assert "10 days" in {f.value for f in facts}


def test_initials_are_taken_only_across_a_hyphenated_compound() -> None:
    from kgrag.retrieve.fact_table import _prefixes

    assert "rtc" in _prefixes("How long does the real-time clock keep time?")
    assert "rcm" not in _prefixes("Why is it relevant for current measurements?")  # a regulatory mark, not asked


def test_a_quantity_asked_with_an_adjective_meets_the_noun_a_datasheet_labels_it_with(family_index: Index) -> None:
    adj = get_adjacency(family_index.store)
    orbit = [n for n, name in enumerate(adj.names) if name == "Orbit"]
    assert "67 g" in {f.value for f in collect_facts(adj, orbit, "How heavy is the Orbit?")}


def test_a_which_board_question_asking_more_of_that_board_scopes_to_it(sibling_index: Index) -> None:
    """"Which board carries the QX210, and what microcontroller is it based on?": the board that has the named part
    (not one the question names) is found from the first clause, and its own chunks and facts answer the second."""
    question = "Which board carries the QX210 barometer, and what microcontroller is it based on?"
    context = sibling_index.search(question, strategy="kg-facts", budget=400)
    assert context.info["bridge"] == "Zephyr Mini Rev2" and "QRF52840" in context.text()
    assert "bridge" not in sibling_index.search("Which board carries the QX210 barometer?", strategy="kg-facts",
                                                budget=400).info  # nothing more asked of it: no second step


def test_a_difference_question_collects_both_products_parts_and_answers_from_them(sibling_index: Index) -> None:
    adj = get_adjacency(sibling_index.store)
    seeds = [adj.names.index("Zephyr Mini Rev2"), adj.names.index("Zephyr Mini")]
    question = "How does the Zephyr Mini Rev2 differ from the Zephyr Mini?"
    plain = {(adj.names[f.subject], f.value) for f in collect_facts(adj, seeds, question)}
    whole = {(adj.names[f.subject], f.value) for f in collect_facts(adj, seeds, question, parts=True)}
    assert {("Zephyr Mini Rev2", "QX210"), ("Zephyr Mini", "QX100")} <= whole - plain  # no shared word, still asked
    context = make_retriever("kg-facts", sibling_index).retrieve(question, 2000)
    plan = plan_answer(question, context, mode="auto", focus_tokens=300)
    answer = finish_plan(question, context, plan)
    assert context.info["answer_path"] == "graph list" and "QX210" in answer.text and "QX100" in answer.text


def test_an_overview_collects_the_named_things_own_facts_and_a_large_group_shows_its_best_rows(sibling_index: Index) -> None:
    """"Summarize what the QX100 offers" shares no word with its rows; an overview asks them all. A group larger than the
    fact share keeps its best rows instead of being dropped whole, and a row extracted twice shows once."""
    from kgrag.retrieve.fact_table import fit_facts

    adj = get_adjacency(sibling_index.store)
    part = [adj.names.index("QX100")]
    assert not collect_facts(adj, part, "What does the QX100 offer?")
    facts = collect_facts(adj, part, "Summarize what the QX100 offers.")
    assert {"300 to 1100 hPa", "1.7 to 3.6 V"} <= {f.value for f in facts}
    rows = fit_facts(adj, [*facts, facts[0]], 40)
    assert rows and len(rows) == len({(f.attribute, f.value) for f in rows})
    assert fit_facts(adj, facts, 1000) == facts and len(fit_facts(adj, facts, 22)) < len(facts)


def test_in_a_flat_folder_a_model_code_links_its_datasheet_not_an_faq_that_names_it(tmp_path: Path) -> None:
    """Flat folder, products only from titles: the FAQ on two products is a document, so "TS-30" is one product's code
    (the datasheet's), named without its "— Datasheet" tail."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, code, years in (("ts30", "TS-30 LoRaWAN Node", 5), ("vm5", "VM-5 Vibration Monitor", 3)):
        (docs / f"{name}.md").write_text(f"# {code} — Datasheet\n\nThe {code} is a battery powered wireless sensor "
                                         "for industrial sites.\n\n| Parameter | Value |\n|---|---|\n"
                                         f"| Battery life | {years} years |\n| Radio | LoRaWAN EU868 |\n",
                                         encoding="utf-8")
    (docs / "faq.md").write_text("# Frequently Asked Questions – TS-30 and VM-5\n\n## Why does my node not join?\n\n"
                                 "Check the join key of the TS-30 and the gateway's frequency plan.\n", encoding="utf-8")
    index = Index.init(tmp_path / "idx", settings=fast_settings())
    index.add([docs])
    build_graph(index, "datasheet")
    resolve_entities(index.store)
    assert linked(index, "What is the battery life of the TS-30?") == [("TS-30 LoRaWAN Node", "code")]


@pytest.fixture(scope="module")
def carrier_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("carrier")
    sheets = {"Zephyr Arm Carrier": "# Zephyr Arm Carrier\n\nThe Zephyr Arm Carrier drives six servo motors.\n\n"
                                    "## Processor\n\nA Zephyr Nano Core sits at the heart of the Zephyr Arm Carrier and "
                                    "stores the programs that run the arm.\n",
              "Zephyr Nano Core": "# Zephyr Nano Core\n\nThe Zephyr Nano Core is a small board.\n\n| Parameter | Value |\n"
                                  "|---|---|\n| Microcontroller | QRP2040 dual-core at 133 MHz |\n",
              "Zephyr Nano": "# Zephyr Nano\n\nThe Zephyr Nano is the oldest board.\n\n| Parameter | Value |\n|---|---|\n"
                             "| Microcontroller | QMEGA328 at 16 MHz |\n"}
    return graph_index(root, "Zephyr Family", sheets)


def test_the_board_another_products_documents_name_is_the_bridge(carrier_index: Index) -> None:
    """"Which board sits at the heart of the A, and what microcontroller does that board use?": the A's own chunks
    name the board ("A Zephyr Nano Core sits at the heart of the A"), read whole (not the Zephyr Nano), and its facts
    answer the second clause; the clause may ask which product anywhere ("What board acts as …")."""
    for question in ("Which Zephyr board sits at the heart of the Zephyr Arm Carrier, and what microcontroller does that board use?",
                     "What board runs the Zephyr Arm Carrier's programs, and what microcontroller does that board use?"):
        context = carrier_index.search(question, strategy="kg-facts", budget=600)
        assert context.info.get("bridge") == "Zephyr Nano Core", question
        assert "QRP2040" in context.text()
    question = "Which display shield sits at the heart of the Zephyr Arm Carrier, and what resolution does it have?"
    assert carrier_index.search(question, strategy="kg-facts", budget=600).info.get("bridge") != "Zephyr Nano Core"


def test_a_product_a_relative_clause_describes_before_a_colon_is_the_bridge(carrier_index: Index) -> None:
    """"The board that runs the A's programs: what microcontroller does it use?" asks of the board the clause describes,
    as "Which board runs …, and …?" does; "the shield that …" must be a product named a shield, not the A's board."""
    question = "The board that runs the Zephyr Arm Carrier's programs: what microcontroller does it use?"
    context = carrier_index.search(question, strategy="kg-facts", budget=600)
    assert context.info.get("bridge") == "Zephyr Nano Core" and "QRP2040" in context.text()
    question = "The shield that sits at the heart of the Zephyr Arm Carrier - what resolution does it have?"
    assert carrier_index.search(question, strategy="kg-facts", budget=600).info.get("bridge") is None
