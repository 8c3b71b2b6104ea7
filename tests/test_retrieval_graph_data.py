"""A small hand-made graph index (network + board facts) shared by the graph retrieval tests."""

from __future__ import annotations

from kgrag.index import Index
from kgrag.indexing import store_document
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Document, Entity, Relation

CHUNKS = {
    "c1": "The Router provides Internet access to the Laptop. The Router connects to the Modem.",
    "c2": "The Modem connects to the ISP network over a DSL line.",
    "c3": "The Laptop runs Linux and uses Wi-Fi to reach the Router.",
    "c4": "The Nano 33 BLE board uses the nRF52840 microcontroller clocked at 64 MHz.",
    "c5": "The nRF52840 supports Bluetooth 5 and has 1 MB of flash memory.",
    "c6": "Unrelated text about gardening, tomatoes and watering schedules.",
}
ENTITIES = [
    ("router", "Router", "Device", []),
    ("internet", "Internet", "Service", []),
    ("laptop", "Laptop", "Device", []),
    ("modem", "Modem", "Device", []),
    ("isp", "ISP", "Organization", ["Internet Service Provider"]),
    ("dsl", "DSL", "Technology", []),
    ("linux", "Linux", "Software", []),
    ("wifi", "WiFi", "Technology", ["Wi-Fi", "wireless LAN"]),
    ("nano", "Nano 33 BLE", "Board", []),
    ("nrf", "nRF52840", "Chip", []),
    ("bt5", "Bluetooth 5", "Technology", []),
    ("mhz", "64 MHz", "Quantity", []),
    ("flash", "1 MB flash", "Quantity", []),
]
RELATIONS = [
    ("r1", "router", "PROVIDES", "internet", ["c1"]),
    ("r2", "router", "CONNECTS_TO", "laptop", ["c1", "c3"]),
    ("r3", "router", "CONNECTS_TO", "modem", ["c1"]),
    ("r4", "modem", "CONNECTS_TO", "isp", ["c2"]),
    ("r5", "modem", "USES", "dsl", ["c2"]),
    ("r6", "laptop", "RUNS", "linux", ["c3"]),
    ("r7", "laptop", "USES", "wifi", ["c3"]),
    ("r8", "nano", "USES", "nrf", ["c4"]),
    ("r9", "nrf", "CLOCKED_AT", "mhz", ["c4"]),
    ("r10", "nrf", "SUPPORTS", "bt5", ["c5"]),
    ("r11", "nrf", "HAS", "flash", ["c5"]),
]
MENTIONS = {
    "c1": ["router", "internet", "laptop", "modem"],
    "c2": ["modem", "isp", "dsl"],
    "c3": ["laptop", "linux", "wifi", "router"],
    "c4": ["nano", "nrf", "mhz"],
    "c5": ["nrf", "bt5", "flash"],
}


def build_graph_index(index: Index, *, entity_vectors: bool = True) -> Index:
    """Chunks (embedded with the index's hash embedder), entities, relations, mentions and support."""
    doc = Document(doc_id="d1", path="net.md", title="Network and boards", content_hash="h1")
    chunks = [Chunk(chunk_id=cid, doc_id="d1", text=text, ord=i, tokens=count_tokens(text))
              for i, (cid, text) in enumerate(CHUNKS.items())]
    store_document(index, doc, chunks, replacing=None)
    store = index.store
    store.upsert_entities([Entity(eid, name, etype, aliases=aliases) for eid, name, etype, aliases in ENTITIES])
    store.upsert_relations([Relation(rid, s, t, rtype, weight=float(len(cs))) for rid, s, rtype, t, cs in RELATIONS])
    store.add_relation_support([(rid, c) for rid, _, _, _, cs in RELATIONS for c in cs])
    store.add_mentions([(c, e) for c, es in MENTIONS.items() for e in es])
    if entity_vectors:
        ids = [e[0] for e in ENTITIES]
        store.put_vectors("entity", ids, index.embedder.embed([e[1] for e in ENTITIES]))
    return index
