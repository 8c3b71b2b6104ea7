"""Grounded answers: numbered blocks, [n] citations with quoted sentences, refusal when context is missing."""

from __future__ import annotations

from kgrag.answer import NO_ANSWER, build_blocks, generate_answer, make_citations, question_coverage
from kgrag.answering.cite import cited_numbers, cited_segment
from kgrag.answering.messages import build_messages
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem


def _context() -> Context:
    items = [
        ContextItem("chunk", "The Zephyr Nano uses the BMP390 barometer. It is powered at 3.3 V.", 0.9, "c1", "d1",
                    {"path": "nano.md", "title": "Zephyr Nano", "page_start": 2, "page_end": 2, "section": "Sensors"}),
        ContextItem("chunk", "The BMP390 measures pressure from 300 to 1250 hPa. Its accuracy is 0.5 hPa.", 0.8, "c2",
                    "d2", {"path": "bmp390.pdf", "title": "BMP390", "page_start": 1, "page_end": 1, "section": "Specs"}),
        ContextItem("relation", "Zephyr Nano uses BMP390.", 0.5, None, None, {}),
        ContextItem("relation", "BMP390 measures pressure.", 0.4, None, None, {}),
    ]
    return Context(question="q", strategy="test", items=items, tokens=60, budget=100)


def test_blocks_group_graph_facts_and_number_sources() -> None:
    blocks = build_blocks(_context())
    assert [b.n for b in blocks] == [1, 2, 3]
    assert "Zephyr Nano uses BMP390." in blocks[2].text and "BMP390 measures pressure." in blocks[2].text
    prompt = build_messages("What range?", blocks)[1]["content"]
    assert "[1] (Zephyr Nano, p. 2, section: Sensors)" in prompt
    assert "[2] (BMP390, p. 1, section: Specs)" in prompt


def test_citations_quote_the_supporting_sentence() -> None:
    blocks = build_blocks(_context())
    answer = "The Zephyr Nano's barometer (BMP390) measures 300 to 1250 hPa [2]."
    citations = make_citations(answer, blocks)
    assert [c.n for c in citations] == [2]
    c = citations[0]
    assert (c.document, c.page, c.section, c.chunk_id) == ("bmp390.pdf", 1, "Specs", "c2")
    assert c.quote == "The BMP390 measures pressure from 300 to 1250 hPa."


def test_each_citation_quotes_what_its_marker_stands_behind() -> None:
    """In "…: BPX-210 [2]; HTS-30 [3]" source 3's quote is chosen for "HTS-30", not for the whole answer."""
    assert cited_segment("Zephyr Nano – has sensor: BPX-210 [2]; HTS-30 [3].", 3) == "HTS-30"
    assert cited_segment("It is 5 V [1]. It has USB-C [2].", 2) == "It has USB-C"
    assert cited_segment("Fine. [1] [2]", 2) == "Fine. [1] [2]"  # nothing stands behind [2]: the whole answer
    assert cited_segment("No marker here.", 4) == "No marker here."


def test_cited_numbers_parse_groups_and_ignore_out_of_range() -> None:
    assert cited_numbers("a [1, 3] b [2][9] c [1]", 3) == [1, 3, 2]


def test_uncited_answer_gets_best_supporting_block() -> None:
    citations = make_citations("It runs at 3.3 V.", build_blocks(_context()))
    assert [c.n for c in citations] == [1]


def test_generate_answer_with_fake_llm_and_refusal() -> None:
    llm = FakeLLM(replies=["300 to 1250 hPa [2].", NO_ANSWER])
    answer = generate_answer(llm, "What is the pressure range?", _context())
    assert answer.grounded and answer.citations[0].chunk_id == "c2"
    refusal = generate_answer(llm, "Who founded the company?", _context())
    assert not refusal.grounded and refusal.citations == []


def test_empty_context_refuses_without_calling_the_llm() -> None:
    llm = FakeLLM(replies=[])
    answer = generate_answer(llm, "anything", Context(question="anything", strategy="x"))
    assert answer.text == NO_ANSWER and not answer.grounded


def test_question_coverage_folds_plurals_and_possessives() -> None:
    context = "The Zephyr Nano uses the BPX-210 barometer; pressure range 300 to 1100 hPa."
    assert question_coverage("What is the pressure range of the Zephyr Nano's barometers?", context) == 1.0
    assert question_coverage("What is the retail price of the Zephyr Nano in Japan?", context) == 0.4


def test_question_coverage_reads_topic_words_not_the_users_values_or_instructions() -> None:
    """"Can the Zephyr Nano measure 1200 hPa?": the documents rate the pressure range, they need not write 1200;
    "Summarize" asks for a form, and "pressure-sensing" is found where "pressure" and "sensing" are."""
    context = "The Zephyr Nano uses the BPX-210 barometer for pressure sensing; pressure range 300 to 1100 hPa."
    assert round(question_coverage("Can the Zephyr Nano measure 1200 hPa?", context), 2) == 0.67  # "measure" missing
    assert question_coverage("Summarize the pressure-sensing of the Zephyr Nano.", context) == 1.0
    log = "Ticket 4411: the Zephyr Nano rebooted every three weeks. Cause: a memory leak in firmware 4.0."
    assert question_coverage("zephyr nano rebooting every few weeks", log) == 1.0  # "few" says how a user sees it


def test_question_coverage_leaves_out_requests_and_values_written_in_lower_case() -> None:
    """"barometer specs?", "A vs B", "please" ask for a form, not a topic; "1200hpa" typed in lower case is still the
    user's value, which the documents need not write."""
    context = "The Zephyr Nano uses the BPX-210 barometer; pressure range 300 to 1100 hPa."
    assert question_coverage("Zephyr Nano barometer specs please?", context) == 1.0
    assert question_coverage("zephyr nano vs zephyr mini barometer", context) == 0.75  # "mini" is not written
    assert round(question_coverage("can the zephyr nano measure 1200hpa", context), 2) == 0.67  # "measure" missing


def test_question_coverage_finds_a_model_code_typed_without_its_hyphen() -> None:
    """"warranty dpx260 how long": the documents write "DPX-260"; a "5-point" count keeps its hyphen."""
    context = "Product line: DPX-260 intrinsically safe transmitters; Warranty period: 24 months."
    typed = question_coverage("warranty dpx260 how long", context)  # "long" is no word of the context
    assert typed == question_coverage("warranty dpx-260 how long", context) > question_coverage("warranty dpx270 how long", context)


def test_context_missing_the_question_is_refused_without_the_llm() -> None:
    llm = FakeLLM(replies=["The retail price is 300 hPa [1]."])
    answer = generate_answer(llm, "What is the retail price of the BMP390 in Japan?", _context())
    assert not answer.grounded and answer.text == NO_ANSWER and llm.calls == 0
    assert answer.context.info["question_coverage"] < 0.45
    answer = generate_answer(llm, "What is the retail price of the BMP390 in Japan?", _context(), min_coverage=0)
    assert llm.calls == 1  # the check can be switched off
