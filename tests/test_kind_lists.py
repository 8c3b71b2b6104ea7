"""Lists by kind of part from the datasheet graph: "Which boards have an IMU?" and "What camera does the Y have?"."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import fast_settings
from tests.test_retrieval_scoping import graph_index

from kgrag.graph.build import build_graph
from kgrag.graph.resolve import resolve_entities
from kgrag.index import Index
from kgrag.retrieve.kind_facts import asked_kinds

EYE = """# Orbit Eye

The Orbit Eye is a vision board based on the QRF52840 microcontroller.

## Components

| Ref. | Description |
|---|---|
| U2 | OVX2640 Camera |
| U3 | QMX6300 6-axis IMU |
| U4 | PDX20 MEMS Microphone |
| J5 | QCON-8 Camera Connector |

## OVX2640 Camera

The OVX2640 camera captures 2 megapixel images at 30 frames per second.
"""

SENSE = """# Orbit Sense

The Orbit Sense is an environmental board based on the QRF52832 microcontroller.

## Components

| Ref. | Description |
|---|---|
| U2 | QMX6300 6-axis IMU |
| U3 | HSX30 Humidity Sensor |
| DL1 | RGB4020 RGB LED |
| U6 | DRV-31 RGB LED Driver |
"""

RELAY = """# Orbit Relay

The Orbit Relay switches loads with its relays and is based on the QRF52832 microcontroller.

## Components

| Ref. | Description |
|---|---|
| K1 | RLX5100 Relay |
| DL2 | RDX-0402 red LED |
"""


COMET = """# Comet Pad

The Comet Pad is a handheld board based on the QRF52832 microcontroller.

## Components

| Ref. | Description |
|---|---|
| U2 | QMX6300 6-axis IMU |
| U3 | BZX1200 Buzzer |
"""


@pytest.fixture(scope="module")
def orbit_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return graph_index(tmp_path_factory.mktemp("orbit"), "Orbit Boards",
                       {"Orbit Eye": EYE, "Orbit Sense": SENSE, "Orbit Relay": RELAY})


def words(question: str) -> set[str]:
    return {kind.word for kind in asked_kinds(question).kinds}


def test_a_which_product_question_asks_the_kinds_of_part_it_names() -> None:
    assert words("Which boards have an IMU and a camera?") == {"imu", "camera"}
    assert asked_kinds("Which boards have an IMU and a camera?").any_of is False  # both, on one board
    assert asked_kinds("Which products have an RGB LED?").qualifiers == {"rgb"}
    assert words("Which boards have a LoRa radio?") == {"lora"}  # one kind of part, not two
    assert words("Which boards have a time-of-flight distance sensor?") == {"time-of-flight"}
    humidity = asked_kinds("Which boards have a humidity sensor?").kinds
    assert [(k.word, k.type) for k in humidity] == [("humidity", "Sensor")]  # the word before a type's own word
    either = asked_kinds("Which products have a gas or air-quality sensor?")
    assert {k.word for k in either.kinds} == {"gas", "air-quality"} and either.any_of
    assert not words("Which boards have an onboard sensor?")  # where it sits, not what it is
    assert words("Which Arduino products have a camera?") == {"camera"}  # "Arduino products" names no kind
    assert not words("Which Arduino products support the cloud interface?")  # interfaces are no parts
    assert not words("Which boards have a CAN bus?")
    assert not words("Which shields fit both the Orbit R1 WiFi and the Orbit Eye?")  # "WiFi" of a product's name
    assert asked_kinds("What board has an IMU?").qualifiers == frozenset()  # the question word qualifies nothing
    assert not words("Which add-on board for the Orbit Eye has a GIGA Display connector?")  # a name, not a kind
    assert not words("Which Orbit board has a camera, and what microcontroller does it use?")  # the bridge answers
    assert not words("Which boards have sensors?")  # a whole type: every board
    assert not words("Which boards have a fast processor?")  # the microcontroller in other words
    assert not words("What camera does the Orbit Eye have?")  # asks a part, not the products


@pytest.mark.parametrize(("question", "answer"), [
    ("Which boards have a camera?", "camera – in product: Orbit Eye (OVX2640) [2]."),  # not its camera connector
    ("Which boards have a relay?", "relay – in product: Orbit Relay (RLX5100) [2]."),
    ("Which boards have an RGB LED?", "RGB LED – in product: Orbit Sense (RGB4020) [2]."),  # not its driver nor a red LED
    ("Which boards have a humidity sensor?", "humidity sensor – in product: Orbit Sense (HSX30) [2]."),
])
def test_the_products_with_a_kind_of_part_are_listed_from_the_graph(orbit_index: Index, question: str,
                                                                    answer: str) -> None:
    result = orbit_index.ask(question, strategy="kg-facts", mode="extractive")
    assert result.context.info["answer_path"] == "graph list"
    assert result.text.startswith(answer)


def test_every_product_with_the_kind_and_only_those_with_each_asked_kind(orbit_index: Index) -> None:
    imu = orbit_index.ask("Which boards have an IMU?", strategy="kg-facts", mode="extractive").text.split("\n")[0]
    assert imu.startswith("IMU – in product: ") and "Orbit Eye (QMX6300)" in imu and "Orbit Sense (QMX6300)" in imu
    assert "Orbit Relay" not in imu
    both = orbit_index.ask("Which boards have a camera and a microphone?", strategy="kg-facts", mode="extractive")
    assert "in product: Orbit Eye (" in both.text and "Orbit Sense" not in both.text.split("\n")[0]
    assert orbit_index.search("Which boards have an IMU?", strategy="kg-facts").info["parts_of_kind"] == \
        {"imu": ["QMX6300"]}
    either = orbit_index.ask("Which boards have a relay or a camera?", strategy="kg-facts", mode="extractive").text
    assert "Orbit Relay (RLX5100)" in either and "Orbit Eye (OVX2640)" in either  # any of the kinds


def test_a_named_products_part_of_a_kind_is_the_one_the_documents_call_so(orbit_index: Index) -> None:
    """The graph types the camera and the microphone alike as sensors; a camera connector's row is no camera."""
    result = orbit_index.ask("What camera does the Orbit Eye have?", strategy="kg-facts", mode="extractive")
    assert result.text.startswith("Orbit Eye – has camera: OVX2640 [")
    assert "PDX20" not in result.text.split("\n")[0]


def test_a_named_family_lists_only_its_products(tmp_path: Path) -> None:
    """ "Which Comet boards have an IMU?": the family the question names scopes the list; none of its products with
    the kind, no list (the passages decide)."""
    docs = tmp_path / "docs"
    for family, product, text in (("Orbit Boards", "Orbit Eye", EYE), ("Comet Boards", "Comet Pad", COMET),
                                  ("Comet Boards", "Comet Relay", RELAY.replace("Orbit", "Comet"))):
        (docs / family / product).mkdir(parents=True)
        (docs / family / product / "datasheet.md").write_text(text, encoding="utf-8")
    index = Index.init(tmp_path / "idx", settings=fast_settings())
    index.add([docs])
    build_graph(index, "datasheet")
    resolve_entities(index.store)
    imu = index.ask("Which Comet boards have an IMU?", strategy="kg-facts", mode="extractive")
    assert imu.text.startswith("IMU – in product: Comet Pad (QMX6300) [") and "Orbit Eye" not in imu.text.split("\n")[0]
    camera = index.ask("Which Comet boards have a camera?", strategy="kg-facts", mode="extractive")
    assert camera.context.info["parts_of_kind"] == {"camera": []} and "Orbit Eye (" not in camera.text
