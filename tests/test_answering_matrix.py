"""A matrix of marks (compatibility and feature tables): the column a question names is read, not left to the model."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.matrix import mark, try_matrix
from kgrag.answering.select import focus_units
from kgrag.answering.terms import analyse
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

MATRIX = ("Zephyr accessory compatibility\n"
          "Accessory | Part number | ZX-20 | ZX-20S | ZX-40\n"
          "Wall bracket | ACC-101 | ✓ | ✓ | –\n"
          "Pan-tilt mount | ACC-104 | – | ✓ | ✓\n"
          "Germanium window | ACC-210 | ✓ | ✓ | –\n"
          "Cooling jacket | ACC-230 | – | – | ✓")


def _answer(question: str) -> str | None:
    ranked = focus_units(question, {1: MATRIX}, {1: "Zephyr accessory compatibility"}, 300).ranked
    return try_matrix(analyse(question), ranked, {1: "Zephyr accessory compatibility"})


def test_marks_read_as_yes_no_or_text() -> None:
    assert [mark(c) for c in ("✓", " Yes ", "–", "", "✗", "ACC-101")] == [True, True, False, False, False, None]


def test_which_rows_the_named_column_marks_are_listed() -> None:
    """"ZX-20" is named whole: the ZX-20S column is not read for it."""
    answer = _answer("Which accessories fit the ZX-20?")
    assert answer == ("Zephyr accessory compatibility: Accessory marked for the ZX-20: Wall bracket (ACC-101); "
                      "Germanium window (ACC-210) [1].")
    assert "Cooling jacket" in (_answer("Which accessories can I use with a ZX-40?") or "")


def test_a_yes_no_question_naming_a_row_and_a_column_gets_the_cells_verdict() -> None:
    assert (_answer("Does the wall bracket fit the ZX-40?") or "").startswith("No. Zephyr accessory compatibility: "
                                                                             "Accessory: Wall bracket;")
    assert (_answer("Is the pan-tilt mount compatible with the ZX-20S?") or "").startswith("Yes.")


def test_no_matrix_answer_without_exactly_one_named_column() -> None:
    assert _answer("Which accessories fit every Zephyr camera?") is None  # no column named
    assert _answer("Does the wall bracket fit the ZX-20 and the ZX-40?") is None  # two columns: the model or passages


def test_the_answer_path_quotes_the_matrix_without_a_model_call() -> None:
    question = "Which accessories fit the ZX-20?"
    item = ContextItem("chunk", MATRIX, 0.5, "c1", "d-c1", {"path": "acc.html", "title": "Zephyr accessory compatibility"})
    context = Context(question=question, strategy="test", items=[item], tokens=80, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300)
    assert answer.text.startswith("Zephyr accessory compatibility: Accessory marked for the ZX-20: Wall bracket")
    assert context.info["answer_path"] == "mark matrix"


def test_a_question_naming_a_column_but_not_the_kind_of_rows_is_no_matrix_question() -> None:
    """"What is the frame rate of the ZX-20?" names a column of the accessory matrix, and asks something else."""
    assert _answer("What is the frame rate of the ZX-20?") is None


def test_which_columns_the_named_row_marks_are_listed() -> None:
    """"Which cameras take the pan-tilt mount?" names a row and no column: the columns its row marks."""
    assert _answer("Which cameras take the pan-tilt mount?") == (
        "Zephyr accessory compatibility: Pan-tilt mount (ACC-104) is marked for the ZX-20S and the ZX-40 (not the "
        "ZX-20) [1].")


def test_a_question_naming_a_row_and_asking_another_of_its_cells_lists_no_columns() -> None:
    assert _answer("What is the part number of the pan-tilt mount?") is None
    assert _answer("Which part number does the pan-tilt mount have?") is None


def test_a_row_named_by_its_part_number_is_read_as_the_row() -> None:
    """"Does the cooling jacket ACC-230 work with the ZX-20?": the row's name carries words the question does not
    write, its part number names it; a part number no row has gets no verdict."""
    assert _answer("Does the cooling jacket ACC-230 work with the ZX-20?") == (
        "No. Zephyr accessory compatibility: Accessory: Cooling jacket; Part number: ACC-230; ZX-20: –; ZX-20S: –; "
        "ZX-40: ✓ [1].")
    assert str(_answer("Does the ACC-104 fit the ZX-40?")).startswith("Yes. ")
    assert _answer("Does the ACC-999 fit the ZX-40?") is None


def test_a_hyphen_joined_row_label_typed_as_two_words_is_named() -> None:
    """"pan tilt mount" names the "Pan-tilt mount" row: a hyphen-joined label is written when its words are."""
    from kgrag.answering.words import all_written

    assert (_answer("does the pan tilt mount fit the ZX-20S") or "").startswith("Yes. Zephyr accessory compatibility: "
                                                                                "Accessory: Pan-tilt mount;")
    assert all_written({"pan-tilt", "mount"}, {"pan", "tilt", "mount"}) and not all_written({"pan-tilt"}, {"pan"})
    assert not all_written({"wi-fi"}, {"module"})  # a hyphen-joined word of short parts is not its parts
