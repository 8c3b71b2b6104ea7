"""Speed of the local models on this machine: `python -m kgrag.models.bench [--no-llm] [--model NAME]`.

Every rate is given twice: per wall-clock second, and per CPU second of this process (`*_cpu`), which
is what an otherwise idle core would reach (everything runs on one thread).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from kgrag.models.embedders import MiniLMEmbedder
from kgrag.models.gguf import DEFAULT_QUANT
from kgrag.tokens import count_tokens

T = TypeVar("T")


class _Clock:
    """Wall and CPU seconds of a block."""

    def __enter__(self) -> _Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def _rates(out: dict[str, Any], name: str, amount: float, clock: _Clock, digits: int = 1) -> None:
    out[name] = round(amount / clock.wall, digits)
    out[name + "_cpu"] = round(amount / max(clock.cpu, 1e-9), digits)


def _timed(fn: Callable[[], T]) -> tuple[T, _Clock]:
    with _Clock() as clock:
        result = fn()
    return result, clock


SENTENCES = [
    "The BMI270 accelerometer supports output data rates from 12.5 Hz to 1.6 kHz.",
    "Set bit 3 of the PWR_CTRL register to enable the gyroscope.",
    "The device enters suspend mode when no interrupt is pending for 20 ms.",
    "Connect SDO to GND to select the I2C address 0x68.",
    "The FIFO can store up to 6 KB of sensor data in headerless mode.",
    "Firmware version 2.1 fixes the watchdog reset after a brown-out.",
    "Each channel of the ADC samples at 1 MSPS with 12-bit resolution.",
    "The supply voltage must stay between 1.71 V and 3.6 V during operation.",
    "Use the CLI command `config set timeout 30` to change the session timeout.",
    "When the temperature exceeds 85 degrees Celsius, the driver throttles the clock.",
    "The bootloader verifies the image signature before jumping to the application.",
    "Calibration offsets are stored in non-volatile memory and loaded at power-on.",
]


def _chunk(n_tokens: int = 300, shift: int = 0) -> str:
    """About `n_tokens` cl100k tokens of technical prose."""
    words: list[str] = []
    i = shift
    while count_tokens(" ".join(words)) < n_tokens:
        words.extend(SENTENCES[i % len(SENTENCES)].split())
        i += 1
    return " ".join(words)


def bench_embedder(n_sentences: int = 480, n_chunks: int = 48) -> dict[str, float]:
    """MiniLM sentences/s and ~300-token chunks/s (one thread)."""
    emb = MiniLMEmbedder()
    sentences = [f"{SENTENCES[i % len(SENTENCES)]} (note {i})" for i in range(n_sentences)]
    chunks = [_chunk(300, i) + f" section {i}" for i in range(n_chunks)]
    emb.embed(sentences[:8])
    out: dict[str, float] = {}
    _rates(out, "sentences_per_s", n_sentences, _timed(lambda: emb.embed(sentences))[1])
    _rates(out, "chunks300_per_s", n_chunks, _timed(lambda: emb.embed(chunks))[1])
    return out


TRIPLES = {
    "type": "object",
    "properties": {"triples": {"type": "array", "maxItems": 12, "items": {
        "type": "object",
        "properties": {"subject": {"type": "string"}, "relation": {"type": "string"},
                       "object": {"type": "string"}},
        "required": ["subject", "relation", "object"]}}},
    "required": ["triples"],
}


def bench_llm(model: str = "qwen2.5-coder-0.5b", repeats: int = 2, quant: str = DEFAULT_QUANT) -> dict[str, Any]:
    """Prompt and generation tokens/s, JSON extraction latency on a 300-token chunk, P(yes) pairs/s."""
    from kgrag.models.local_llm import LocalLLM

    llm = LocalLLM(model, n_ctx=4096, quant=quant)
    loaded, clock = _timed(llm._get)
    llama = loaded.llama
    out: dict[str, Any] = {"model": llm.model_name, "load_s": round(clock.wall, 2)}
    chunk = _chunk(300)
    prompt = [{"role": "user", "content": f"Summarise this text.\n\n{chunk}"}]
    llama.reset()
    first, prompt_clock = _timed(lambda: llm.complete(prompt, max_tokens=1))
    _rates(out, "prompt_tokens_per_s", first.usage.prompt_tokens, prompt_clock)
    llama.reset()
    full, clock = _timed(lambda: llm.complete(prompt, max_tokens=128))
    clock.wall -= prompt_clock.wall
    clock.cpu -= prompt_clock.cpu
    _rates(out, "generation_tokens_per_s", max(1, full.usage.completion_tokens - 1), clock)

    messages = [
        {"role": "system", "content": "Extract up to 12 (subject, relation, object) triples about the technical "
                                      "entities in the text. Reply as JSON."},
        {"role": "user", "content": chunk},
    ]
    total, tokens = _Clock(), []
    total.wall = total.cpu = 0.0
    for i in range(repeats):
        llama.reset()
        messages[1]["content"] = _chunk(300, i * 5)
        completion, clock = _timed(lambda: llm.complete(messages, schema=TRIPLES, max_tokens=600))
        total.wall += clock.wall
        total.cpu += clock.cpu
        tokens.append(completion.usage.completion_tokens)
        json.loads(completion.text)
    out["json_extraction_s_per_300tok_chunk"] = round(total.wall / repeats, 2)
    out["json_extraction_s_per_300tok_chunk_cpu"] = round(total.cpu / repeats, 2)
    out["json_extraction_output_tokens"] = round(sum(tokens) / len(tokens))

    question = "What supply voltage does the sensor need?"
    pairs = [[{"role": "system", "content": "Judge whether the passage helps answer the question. "
                                            "Reply with one word: yes or no."},
              {"role": "user", "content": f"Question: {question}\n\nPassage:\n{_chunk(n, i)}\n\nRelevant (yes/no)?"}]
             for i, n in enumerate([150] * 4 + [300] * 4)]
    llm.yes_probability(pairs[0])
    for label, group in (("yes_probability_pairs_per_s_150tok", pairs[:4]),
                         ("yes_probability_pairs_per_s_300tok", pairs[4:])):
        _, clock = _timed(lambda group=group: [llm.yes_probability(p) for p in group])
        _rates(out, label, len(group), clock, digits=2)
    return out


def main() -> None:
    """Print the measurements as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-llm", action="store_true", help="only the embedder")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="local model name or .gguf path")
    parser.add_argument("--quant", default=DEFAULT_QUANT, help="weights of a registry model: auto | q4_0 | q8_0 | packaged")
    args = parser.parse_args()
    result: dict[str, Any] = {"embedder": bench_embedder()}
    if not args.no_llm:
        result["llm"] = bench_llm(args.model, quant=args.quant)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
