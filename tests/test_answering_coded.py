"""A table row led by the code a question names answers what the code means, and two codes' rows their difference."""

from __future__ import annotations

from kgrag.answering.coded import try_coded_rows
from kgrag.answering.select import focus_units
from kgrag.answering.terms import analyse

ALARMS = ("2 Alarm list\n"
          "Code | Name | Latched | Cause | Remedy\n"
          "E09 | Overrange | No | Pressure more than 15 % of span above the upper range value. | Check the range.\n"
          "E10 | Overload | Yes | Pressure above the overload pressure of the range code. | Return the unit.\n"
          "E14 | Output fault | Yes | External voltage on output pin 4. | Correct the wiring, then clear the alarm.")
MANUAL = "After correcting the wiring, clear E14 with the command alarm clear E14. An overload sets E10."
TITLES = {1: "QX-9 transmitters – alarm codes", 2: "QX-9 transmitters – user manual"}


def _answer(question: str) -> str | None:
    ranked = focus_units(question, {1: ALARMS, 2: MANUAL}, TITLES, 400).ranked
    return try_coded_rows(analyse(question), ranked, TITLES)


def test_the_row_a_code_leads_is_quoted_whole_with_its_column_names() -> None:
    assert _answer("What does alarm code E14 mean on a QX-9 transmitter?") == (
        "QX-9 transmitters – alarm codes: Code: E14; Name: Output fault; Latched: Yes; Cause: External voltage on "
        "output pin 4.; Remedy: Correct the wiring, then clear the alarm [1].")
    assert _answer("what is error E14") == _answer("What does alarm code E14 mean on a QX-9 transmitter?")


def test_two_codes_rows_answer_their_difference_in_the_order_asked() -> None:
    answer = _answer("What is the difference between alarms E10 and E09?")
    assert answer is not None and answer.index("Code: E10") < answer.index("Code: E09")
    assert answer.count("[1]") == 2


def test_no_coded_answer_when_a_code_leads_no_row_or_more_is_asked() -> None:
    assert _answer("What does alarm E21 mean?") is None  # no row
    assert _answer("What is the voltage on pin 4 during E14?") is None  # a value
    assert _answer("Is E14 latched?") is None  # yes/no: the verdict path reads it
    assert _answer("What does E14 mean for the firmware update?") is None  # the rows say nothing of firmware


SERIES = "Declaration of conformity\nSeries | Ordering codes covered | Notes\nZX-220 | ZX-220-*-* | All range codes"


def test_what_to_do_about_a_code_is_its_row_whatever_the_user_writes_around_it() -> None:
    """"My ZX-220 shows E14 after wiring. What should I do?": the code list's E14 row (its Remedy), not the series
    table's row the model's name leads, and not the refusal a small model gave; "E15 what now" without a row stays
    None."""
    titles = {1: "ZX transmitters – alarm codes", 2: "ZX transmitters – declaration of conformity"}
    question = "My ZX-220 shows E14 after wiring. What should I do?"
    ranked = focus_units(question, {1: ALARMS, 2: SERIES}, titles, 400).ranked
    answer = try_coded_rows(analyse(question), ranked, titles)
    assert answer == ("ZX transmitters – alarm codes: Code: E14; Name: Output fault; Latched: Yes; Cause: External "
                      "voltage on output pin 4.; Remedy: Correct the wiring, then clear the alarm [1].")
    assert _answer("E09 on my unit, what now?") is not None and "Check the range" in str(_answer("E09 on my unit, what now?"))
    assert _answer("E21 keeps coming back. How do I fix it?") is None  # no row
    assert _answer("E14 keeps coming back on the relay output. Why?") is None  # a cause asked, not what to do


def test_a_code_rows_remedy_is_followed_by_the_closest_passages() -> None:
    """Auto mode: the row answers without the model, and the passages the closest-passages answer would have shown
    follow it ("clear E14 with the command alarm clear E14")."""
    from kgrag.answer import generate_answer
    from kgrag.models.fake import FakeLLM
    from kgrag.types import Context, ContextItem

    items = [ContextItem(kind="chunk", text=text, score=1.0 - n / 10, chunk_id=f"c{n}", source={"title": TITLES[n]})
             for n, text in ((1, ALARMS), (2, MANUAL))]
    question = "The QX-9 shows E14 after rewiring. What should I do?"
    llm = FakeLLM(replies=["The documents do not contain the answer."])
    answer = generate_answer(llm, question, Context(question=question, strategy="test", items=items, tokens=90,
                                                    budget=2000), mode="auto", focus_tokens=300, passages=2)
    head, _, tail = answer.text.partition("\n\nFrom the documents: ")
    assert llm.calls == 0 and answer.context.info["answer_path"] == "coded row"
    assert "Remedy: Correct the wiring" in head and "alarm clear E14" in tail


def test_a_terse_remedy_question_far_from_every_passage_still_gets_its_codes_row() -> None:
    """"E09 alarm on the QX-9, how to fix": no passage is close to so few words (here every cosine is below the relevance
    floor), yet the row the code leads answers it; without a code the closest passages are shown as before."""
    from kgrag.answer import generate_answer
    from kgrag.models.embedders import HashEmbedder
    from kgrag.models.fake import FakeLLM
    from kgrag.types import Context, ContextItem

    items = [ContextItem(kind="chunk", text=text, score=1.0 - n / 10, chunk_id=f"c{n}", source={"title": TITLES[n]})
             for n, text in ((1, ALARMS), (2, MANUAL))]

    def ask(question: str) -> str:
        answer = generate_answer(FakeLLM(replies=["x"]), question, Context(question=question, strategy="test", items=items,
                                 tokens=90, budget=2000), mode="auto", focus_tokens=300, passages=2,
                                 embedder=HashEmbedder(), min_relevance=0.99)
        return str(answer.context.info.get("answer_path"))

    assert ask("E09 alarm on the QX-9 transmitters, how to fix the range") == "coded row"
    assert ask("what does E09 mean") == "coded row"  # asked what it is, as tersely
    assert ask("Overrange alarm on the QX-9 transmitters, how to fix the range") == "evidence"


def test_a_code_of_several_segments_repeated_in_each_functions_error_table_is_one_record() -> None:
    """An API reference lists "ZL-E-110 | AUTH_FAILED" under every function, its meaning in other words each time;
    two tables giving one code different names still answer nothing."""
    api = ("3.1 connect()\nCode | Name | Meaning\nQZ-E-101 | CONNECTION_REFUSED | Port closed.\n"
           "QZ-E-110 | AUTH_FAILED | Token missing, invalid or revoked.\n"
           "3.2 read_point()\nCode | Name | Meaning\nQZ-E-110 | AUTH_FAILED | Token rejected.")
    titles = {1: "QZ SDK reference"}
    ranked = focus_units("What does QZ-E-110 mean?", {1: api}, titles, 400).ranked
    answer = try_coded_rows(analyse("What does QZ-E-110 mean?"), ranked, titles)
    assert answer is not None and answer.startswith("QZ SDK reference: Code: QZ-E-110; Name: AUTH_FAILED; Meaning: Token")
    clash = api.replace("QZ-E-110 | AUTH_FAILED | Token rejected.", "QZ-E-110 | TIMEOUT | No answer.")
    ranked = focus_units("What does QZ-E-110 mean?", {1: clash}, titles, 400).ranked
    assert try_coded_rows(analyse("What does QZ-E-110 mean?"), ranked, titles) is None
