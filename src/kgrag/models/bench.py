"""Speed of the local models on this machine: `python -m kgrag.models.bench [--no-llm] [--model NAME]`."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from kgrag.models.embedders import MiniLMEmbedder
from kgrag.tokens import count_tokens

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
    start = time.perf_counter()
    emb.embed(sentences)
    sent_rate = n_sentences / (time.perf_counter() - start)
    start = time.perf_counter()
    emb.embed(chunks)
    chunk_rate = n_chunks / (time.perf_counter() - start)
    return {"sentences_per_s": round(sent_rate, 1), "chunks300_per_s": round(chunk_rate, 1)}


TRIPLES = {
    "type": "object",
    "properties": {"triples": {"type": "array", "maxItems": 12, "items": {
        "type": "object",
        "properties": {"subject": {"type": "string"}, "relation": {"type": "string"},
                       "object": {"type": "string"}},
        "required": ["subject", "relation", "object"]}}},
    "required": ["triples"],
}


def bench_llm(model: str = "qwen2.5-coder-0.5b", repeats: int = 2) -> dict[str, Any]:
    """Prompt and generation tokens/s, JSON extraction latency on a 300-token chunk, P(yes) pairs/s."""
    from kgrag.models.local_llm import LocalLLM

    llm = LocalLLM(model, n_ctx=4096)
    start = time.perf_counter()
    llama = llm._get().llama
    out: dict[str, Any] = {"model": llm.model_name, "load_s": round(time.perf_counter() - start, 2)}
    chunk = _chunk(300)
    prompt = [{"role": "user", "content": f"Summarise this text.\n\n{chunk}"}]
    llama.reset()
    start = time.perf_counter()
    first = llm.complete(prompt, max_tokens=1)
    prompt_s = time.perf_counter() - start
    out["prompt_tokens_per_s"] = round(first.usage.prompt_tokens / prompt_s, 1)
    llama.reset()
    start = time.perf_counter()
    full = llm.complete(prompt, max_tokens=128)
    gen_s = time.perf_counter() - start - prompt_s
    out["generation_tokens_per_s"] = round(max(1, full.usage.completion_tokens - 1) / gen_s, 1)

    messages = [
        {"role": "system", "content": "Extract up to 12 (subject, relation, object) triples about the technical "
                                      "entities in the text. Reply as JSON."},
        {"role": "user", "content": chunk},
    ]
    latencies, tokens = [], []
    for i in range(repeats):
        llama.reset()
        messages[1]["content"] = _chunk(300, i * 5)
        start = time.perf_counter()
        completion = llm.complete(messages, schema=TRIPLES, max_tokens=600)
        latencies.append(time.perf_counter() - start)
        tokens.append(completion.usage.completion_tokens)
        json.loads(completion.text)
    out["json_extraction_s_per_300tok_chunk"] = round(sum(latencies) / len(latencies), 2)
    out["json_extraction_output_tokens"] = round(sum(tokens) / len(tokens))

    question = "What supply voltage does the sensor need?"
    pairs = [[{"role": "system", "content": "Judge whether the passage helps answer the question. "
                                            "Reply with one word: yes or no."},
              {"role": "user", "content": f"Question: {question}\n\nPassage:\n{_chunk(n, i)}\n\nRelevant (yes/no)?"}]
             for i, n in enumerate([150] * 4 + [300] * 4)]
    llm.yes_probability(pairs[0])
    for label, group in (("yes_probability_pairs_per_s_150tok", pairs[:4]),
                         ("yes_probability_pairs_per_s_300tok", pairs[4:])):
        start = time.perf_counter()
        for p in group:
            llm.yes_probability(p)
        out[label] = round(len(group) / (time.perf_counter() - start), 2)
    return out


def main() -> None:
    """Print the measurements as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-llm", action="store_true", help="only the embedder")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="local model name or .gguf path")
    args = parser.parse_args()
    result: dict[str, Any] = {"embedder": bench_embedder()}
    if not args.no_llm:
        result["llm"] = bench_llm(args.model)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
