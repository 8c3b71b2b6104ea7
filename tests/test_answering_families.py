"""Product families a question names, and their products' parts from the graph's fact table."""

from __future__ import annotations

from kgrag.answering.families import family_overview, member_of, named_families
from kgrag.answering.terms import analyse

FAMILIES = {1: "Zephyr Mini Rev2 (Product)\nhas sensor | QB270 [3]\nhas sensor | QS3003\nhas microcontroller | QRF52840\n\n"
               "Zephyr Mini (Product)\nhas sensor | QSM9DS1 [4]\nhas interface | SPI\n\n"
               "Acme Zephyr Max (Product)\nhas sensor | QMP390 [5]\n\n"
               "Kestrel Voice (Product)\nhas sensor | QM69D130 [6]\nhas microcontroller | QDP120\n\n"
               "Kestrel Pro (Product)\nhas module | QNNA-B112 [2]\n\n"
               "QB270 (Sensor)\nin product | Zephyr Mini Rev2"}


def test_the_families_a_question_names_are_its_name_words_before_family() -> None:
    def families(question: str) -> list[list[str]]:
        return named_families(analyse(question))

    assert families("Summarize the sensing of the Acme Zephyr family and the Kestrel family.") == [
        ["Acme", "Zephyr"], ["Kestrel"]]
    assert families("How does the Zephyr Mini family differ from the Kestrel and Osprey families?") == [
        ["Zephyr", "Mini"], ["Kestrel"], ["Osprey"]]  # a plural after a list: each name
    assert families("Which Zephyr family boards have a microphone?") == [["Zephyr"]]  # not "Which"
    assert families("Compare the Zephyr Mini and the Kestrel Voice.") == []  # products, no family


def test_a_product_is_of_a_family_when_its_name_starts_with_the_familys_words() -> None:
    assert member_of(["Zephyr"], "Acme Zephyr Max") and member_of(["Zephyr", "Mini"], "Zephyr Mini Rev2")
    assert member_of(["Acme", "Zephyr"], "Zephyr Max") and member_of(["Acme", "Zephyr"], "Acme Zephyr Max")  # maker's name
    assert not member_of(["Zephyr"], "Kestrel Voice") and not member_of(["Zephyr", "Mini"], "Zephyr Mini")  # itself
    assert not member_of(["Zephyr"], "Zephyrus One")  # whole words


def test_a_family_question_on_a_kind_of_part_lists_each_products_parts_of_that_kind() -> None:
    q = analyse("Summarize the differences in sensing capabilities between the Zephyr family and the Kestrel family.")
    assert family_overview(q, FAMILIES) == (
        "From the knowledge graph: The Zephyr family: the Zephyr Mini Rev2 lists QB270 [3], QS3003 [1]; the Zephyr Mini "
        "lists QSM9DS1 [4]; the Acme Zephyr Max lists QMP390 [5]. The Kestrel family: the Kestrel Voice lists "
        "QM69D130 [6].")  # the Kestrel Pro lists no sensor; a part's own group is no product
    processors = family_overview(analyse("How do the Zephyr and Kestrel families differ in processors?"), FAMILIES)
    assert processors == ("From the knowledge graph: The Zephyr family: the Zephyr Mini Rev2 lists QRF52840 [1]. "
                          "The Kestrel family: the Kestrel Voice lists QDP120 [1].")
    assert family_overview(analyse("Compare the application domains of the Zephyr family and the Kestrel family."),
                           FAMILIES) == ""  # no kind of part asked: the documents' passages answer
    assert family_overview(analyse("Summarize the sensing capabilities of the Zephyr Mini Rev2."), FAMILIES) == ""
