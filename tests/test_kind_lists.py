"""Lists by kind of part from the datasheet graph: "Which boards have an IMU?" and "What camera does the Y have?"."""

from __future__ import annotations

import pytest
from tests.test_retrieval_scoping import graph_index

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


@pytest.fixture(scope="module")
def orbit_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return graph_index(tmp_path_factory.mktemp("orbit"), "Orbit Boards",
                       {"Orbit Eye": EYE, "Orbit Sense": SENSE, "Orbit Relay": RELAY})


def test_a_which_product_question_asks_the_kinds_of_part_it_names() -> None:
    assert asked_kinds("Which boards have an IMU and a camera?").kinds == {"imu", "camera"}
    assert asked_kinds("Which products have an RGB LED?").qualifiers == {"rgb"}
    assert asked_kinds("Which boards have a LoRa radio?").kinds == {"lora"}  # one kind of part, not two
    assert not asked_kinds("Which boards have sensors?").kinds  # a whole type: every board
    assert not asked_kinds("Which boards have a fast processor?").kinds  # the microcontroller in other words
    assert not asked_kinds("What camera does the Orbit Eye have?").kinds  # asks a part, not the products


@pytest.mark.parametrize(("question", "answer"), [
    ("Which boards have a camera?", "camera – in product: Orbit Eye (OVX2640) [2]."),  # not its camera connector
    ("Which boards have a relay?", "relay – in product: Orbit Relay (RLX5100) [2]."),
    ("Which boards have an RGB LED?", "RGB LED – in product: Orbit Sense (RGB4020) [2]."),  # not its driver nor a red LED
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


def test_a_named_products_part_of_a_kind_is_the_one_the_documents_call_so(orbit_index: Index) -> None:
    """The graph types the camera and the microphone alike as sensors; a camera connector's row is no camera."""
    result = orbit_index.ask("What camera does the Orbit Eye have?", strategy="kg-facts", mode="extractive")
    assert result.text.startswith("Orbit Eye – has camera: OVX2640 [")
    assert "PDX20" not in result.text.split("\n")[0]
