"""Evaluation formulas on hand-computed cases."""

from __future__ import annotations

import pytest

from kgrag.evaluate import metrics as m


def test_normalisation_exact_match_and_f1() -> None:
    assert m.normalize_answer("The  Cat, sat!") == "cat sat"
    assert m.exact_match("the Warner Music Group.", "Warner Music Group") == 1.0
    assert m.exact_match("Warner", ["Warner Music Group", "Warner"]) == 1.0
    assert m.exact_match("Sony", "Warner Music Group") == 0.0
    assert m.f1_score("warner music", "Warner Music Group") == pytest.approx(0.8)  # P 1, R 2/3
    assert m.f1_score("nothing here", "Warner Music Group") == 0.0


def test_coverage_is_case_and_whitespace_insensitive() -> None:
    context = "It was released by WARNER   music\ngroup in 1990."
    assert m.coverage(context, "Warner Music Group") == 1.0
    assert m.coverage(context, ["Sony", "warner music group"]) == 1.0
    assert m.coverage(context, "Sony Music") == 0.0


def test_gold_fact_terms_and_recall() -> None:
    gold = "The BMP390 supports a sampling rate of up to 200 Hz."
    assert m.gold_fact_terms(gold) == ["200 hz", "bmp390", "sampling", "rate"]
    assert m.gold_fact_terms("Both the Nicla Sense ME and Nicla Voice use the nRF52832.") == [
        "nicla sense me", "nicla voice", "nrf52832"]
    assert m.gold_fact_terms("It operates at 3.3 V.") == ["3.3 v", "operates"]
    assert m.gold_fact_terms("five") == ["five"]  # only stop words: the answer itself
    assert m.gold_fact_recall("The bmp390 runs at 200Hz.", gold) == pytest.approx(0.5)  # 2 of 4 terms
    assert m.gold_fact_recall("BMP390 sampling rate 200 Hz", gold) == 1.0
    assert m.gold_fact_recall("no match", "the a an") == 1.0  # no content terms at all: nothing to miss


def test_a_decimal_comma_is_the_same_value_as_a_decimal_point() -> None:
    """European datasheets write "4,4 V"; the gold's "4.4 V" is that value, "44 V" is not."""
    assert m.gold_fact_recall("Minimum supply 4,4 V", "4.4 V") == 1.0
    assert m.gold_fact_recall("Minimum supply 4.4V", "4.4 V") == 1.0
    assert m.gold_fact_recall("Minimum supply 44 V", "4.4 V") == 0.0


@pytest.mark.parametrize(
    ("sims", "expected"),
    [([0.5, 0.5, 0.5], 3), ([0.875, 0.875, 0.875], 5), ([0.6, 0.7, 0.8], 4), ([-0.2], 1), ([1.3], 5), ([], 1)],
)
def test_relevance_score(sims: list[float], expected: int) -> None:
    assert m.relevance_score(sims) == expected  # round(1 + 4·clip(mean)), halves round up


@pytest.mark.parametrize(
    ("covered", "omitted", "wrong", "expected"),
    [(3, 1, 0, 4), (1, 1, 0, 3), (2, 0, 1, 4), (0, 0, 0, 1), (1, 3, 0, 2), (4, 0, 0, 5), (0, 2, 3, 1)],
)
def test_completeness_score(covered: int, omitted: int, wrong: int, expected: int) -> None:
    assert m.completeness_score(covered, omitted, wrong) == expected


def test_correctness_label_edges() -> None:
    assert m.correctness_label(0.6) == "TP"
    assert m.correctness_label(0.5999) == "PARTIAL"
    assert m.correctness_label(0.2) == "PARTIAL"
    assert m.correctness_label(0.1999) == "FP"
    assert m.correctness_label(1.0, refusal=True) == "FN"
    assert m.correctness_label(1.0, high_severity_error=True) == "FP"
    assert m.correctness_label(0.0, refusal=True, high_severity_error=True) == "FN"


def test_correctness_rates() -> None:
    rates = m.correctness_rates(["TP", "TP", "PARTIAL", "FP", "FN"])
    assert (rates["TP"], rates["PARTIAL"], rates["FP"], rates["FN"]) == (2, 1, 1, 1)
    assert rates["precision"] == pytest.approx(2.5 / 4)
    assert rates["hard_recall"] == pytest.approx(2 / 5)
    assert m.correctness_rates(["FN"])["precision"] == 0.0


def test_faithfulness_and_gated_helpfulness() -> None:
    assert m.faithfulness_score(["yes", "partial", "no"]) == pytest.approx(2 / 3)
    assert m.faithfulness_score(["YES", "yes"]) == 1.0
    assert m.faithfulness_score([]) == 1.0
    assert m.gated_helpfulness(4, 0.5) == pytest.approx(3.0)  # 4·(0.5 + 0.5·0.5)
    assert m.gated_helpfulness(4, 1.0) == 4.0
    assert m.gated_helpfulness(4, 0.0) == 2.0
    assert m.gated_helpfulness(4, 0.0, beta=0.2) == pytest.approx(0.8)
