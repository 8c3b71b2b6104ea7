"""A question naming a document by its title or kind ("according to the partner training deck", "in the support ticket
export") gets that document's best passages among the first, though other documents' passages share more of its words."""

from __future__ import annotations

from pathlib import Path

from kgrag.index import Index
from kgrag.retrieve.named_documents import interleaved, named_documents
from kgrag.types import Document


def _doc(doc_id: str, title: str, fmt: str) -> Document:
    return Document(doc_id=doc_id, path=f"{doc_id}.{fmt}", title=title, content_hash="", meta={"format": fmt})


DOCS = {d.doc_id: d for d in [
    _doc("spec", "Sentinel GX-400 Series Fixed Gas Transmitters - Product Specification", "docx"),
    _doc("deck", "Sentinel GX-400 - Channel partner training, module 2", "pptx"),
    _doc("log", "Sentinel GX-400 firmware changelog", "md"),
    _doc("tickets", "sentinel_gx400_support_tickets_export", "csv"),
    _doc("mail", "[GXT-10857] GX-430 zero drifting negative - Blackmoor STW", "eml"),
]}


def test_a_document_is_named_by_its_kind_and_a_word_of_its_own_title() -> None:
    assert named_documents(DOCS, "According to the partner training deck, what share of sales did the GX-430 have?") == [
        "deck"]
    assert named_documents(DOCS, "Which tickets in the support export were not closed?") == ["tickets"]
    assert named_documents(DOCS, "How does the changelog describe the fix in firmware 2.5.2?") == ["log"]
    assert named_documents(DOCS, "Summarise the actions agreed in the Blackmoor e-mail thread.") == ["mail"]
    assert named_documents(DOCS, "What is the supply current of the GX-430 according to the product specification?") == [
        "spec"]


def test_no_document_is_named_without_a_kind_or_by_words_every_title_has() -> None:
    assert named_documents(DOCS, "What zero deadband did support recommend for the Blackmoor GX-430 units?") == []
    assert named_documents(DOCS, "What does the Sentinel GX-400 documentation say about warm-up?") == []
    assert named_documents(DOCS, "Which deck covers it?") == []  # a kind alone names none of them


def test_named_passages_take_every_other_place_and_scores_still_fall() -> None:
    ranked = [("a", 0.9), ("b", 0.8), ("c", 0.5)]
    merged = interleaved([("n1", 0.3), ("b", 0.2)], ranked)
    assert [c for c, _ in merged] == ["n1", "a", "b", "c"]
    scores = [s for _, s in merged]
    assert scores == sorted(scores, reverse=True) and scores[0] == 0.9


def test_search_brings_the_named_documents_passage_to_the_top(empty_index: Index, tmp_path: Path) -> None:
    """The manual's sections share more words with the question than the deck's one passage, which ranked below them
    all (past the places a named passage may already hold)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    sections = "\n\n".join(
        f"## Calibration step {i}\n\nCalibration guidance {i}: the calibration of channel {i} uses the calibration gas "
        f"and the calibration flow cap; calibration guidance for channel {i} is repeated at every calibration."
        for i in range(1, 90))
    (docs / "manual.md").write_text(f"# Kestrel K-10 Operating Manual\n\n{sections}\n", encoding="utf-8")
    (docs / "deck.md").write_text(
        "# Kestrel K-10 - Partner training\n\nSlide 7. Field service: bump test every 30 days and swap cells after "
        "two years in the field; partners stock no more than a quarter's cells.\n", encoding="utf-8")
    assert empty_index.add([docs]).added == 2
    question = "What calibration guidance does the partner training give?"
    hits = empty_index.search(question, strategy="hybrid", budget=8000).items
    assert "bump test every 30 days" in hits[0].text
