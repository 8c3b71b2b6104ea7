"""A local chat model on llama.cpp (llama-cpp-python), loaded lazily once per process and used under a lock."""

from __future__ import annotations

import ctypes
import json
import math
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kgrag.errors import ModelError
from kgrag.models.base import Completion, Message, Usage, usable_threads
from kgrag.models.gguf import DEFAULT_QUANT, REGISTRY, effective_quant, import_llama, resolve_model

YES_WORDS = ("yes", "Yes", " yes", " Yes", "YES")
NO_WORDS = ("no", "No", " no", " No", "NO")


@dataclass
class LoadedLlama:
    """One llama.cpp model + context shared by every LocalLLM in the process with the same settings."""

    llama: Any
    lock: threading.Lock = field(default_factory=threading.Lock)
    formatter: Any = None
    head: list[int] = field(default_factory=list)  # the prompt head in the KV cache, evaluated on its own
    yes_ids: list[int] = field(default_factory=list)
    no_ids: list[int] = field(default_factory=list)


_LOADED: dict[tuple[str, int, int, int, bool], LoadedLlama] = {}
_LOAD_LOCK = threading.Lock()
_GRAMMARS: dict[str, Any] = {}


def load_llama(path: Path, n_ctx: int, threads: int, batch_threads: int = 1, flash_attn: bool = True) -> LoadedLlama:
    """The process-wide llama.cpp instance for these settings, created on first use.

    Flash attention reads a 550-token prompt in 2.75 instead of 3.2 s on two vCPUs here (same generation speed)."""
    key = (str(path.resolve()), n_ctx, threads, batch_threads, flash_attn)
    with _LOAD_LOCK:
        loaded = _LOADED.get(key)
        if loaded is None:
            llama_cpp = import_llama()
            try:
                llama = llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads,
                                        n_threads_batch=batch_threads, flash_attn=flash_attn, verbose=False)
            except (ValueError, RuntimeError, OSError) as exc:
                raise ModelError(f"{path}: llama.cpp cannot load this model: {exc}") from exc
            loaded = _LOADED[key] = LoadedLlama(llama)
        return loaded


def _token_ids(llama: Any, words: Sequence[str]) -> list[int]:
    """Ids of the words that are one token each."""
    ids = {tuple(llama.tokenize(w.encode(), add_bos=False, special=False)) for w in words}
    return sorted({t[0] for t in ids if len(t) == 1})


def _chat_formatter(llama: Any) -> Any:
    """A formatter rendering messages with the model's own chat template (ChatML if it has none)."""
    from llama_cpp import llama_chat_format

    template = llama.metadata.get("tokenizer.chat_template")
    if not template:
        return llama_chat_format.format_chatml

    def text(token_id: int) -> str:
        return llama._model.token_get_text(token_id) if token_id != -1 else ""

    return llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=text(llama.token_eos()),
                                                 bos_token=text(llama.token_bos()))


def _grammar(schema: dict[str, Any]) -> Any:
    """The llama.cpp grammar for a JSON schema (generic JSON if the converter cannot handle it), cached."""
    key = json.dumps(schema)  # key order matters: the grammar emits properties in schema order
    grammar = _GRAMMARS.get(key)
    if grammar is None:
        from llama_cpp.llama_grammar import JSON_GBNF, LlamaGrammar

        try:
            grammar = LlamaGrammar.from_json_schema(key, verbose=False)
        except Exception:  # unsupported schema feature: still force valid JSON
            grammar = LlamaGrammar.from_string(JSON_GBNF, verbose=False)
        _GRAMMARS[key] = grammar
    return grammar


def _pick(logits: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """Greedy at temperature 0, else a sample from the top 40 tokens at that temperature."""
    if temperature <= 0:
        return int(np.argmax(logits))
    top = np.argpartition(logits, -40)[-40:]
    scaled = logits[top] / temperature
    weights = np.exp(scaled - np.max(scaled))
    return int(top[rng.choice(len(top), p=weights / weights.sum())])


def prompt_tokens(loaded: LoadedLlama, messages: Sequence[Message | dict[str, Any]]) -> list[int]:
    """The chat prompt as tokens, in the model's own template."""
    llama = loaded.llama
    if loaded.formatter is None:
        loaded.formatter = _chat_formatter(llama)
        loaded.yes_ids = _token_ids(llama, YES_WORDS)
        loaded.no_ids = _token_ids(llama, NO_WORDS)
    formatted = loaded.formatter(messages=[dict(m) for m in messages])
    return llama.tokenize(formatted.prompt.encode("utf-8"), add_bos=not formatted.added_special, special=True)


def keep_prompt_head(loaded: LoadedLlama, messages: Sequence[Message | dict[str, Any]]) -> list[int]:
    """The prompt's tokens, with the KV cache cut back to the prompt's head (all but the last message's text),
    evaluated on its own. llama.cpp reuses the longest cached prefix of the previous prompt, and a prompt read
    from another split point gets slightly other logits: the same question got another reply after another
    question. Reusing only the head, always read alone, keeps the saving and makes a reply depend on its prompt
    alone. ValueError when the prompt does not fit the context."""
    llama = loaded.llama
    tokens = prompt_tokens(loaded, messages)
    if len(tokens) >= llama.n_ctx():
        raise ValueError(f"the prompt has {len(tokens)} tokens")
    empty = [*messages[:-1], {**messages[-1], "content": ""}] if messages else []
    head = tokens[:min(llama.longest_token_prefix(prompt_tokens(loaded, empty), tokens), len(tokens) - 1)]
    if head != loaded.head or llama._input_ids[: len(head)].tolist() != head:  # not cached, or reset since
        llama.reset()
        if head:
            llama.eval(head)
        loaded.head = head
    llama.n_tokens = len(head)
    return tokens


class LocalLLM:
    """llama.cpp chat completions: JSON-schema-constrained output, streaming, and P(yes) scoring."""

    def __init__(self, model: str = "qwen2.5-coder-0.5b", *, n_ctx: int = 4096, threads: int = 1,
                 model_dir: Path | None = None, seed: int = 0, lazy_grammar: bool = True,
                 quant: str = DEFAULT_QUANT, batch_threads: int = 0, flash_attn: bool = True) -> None:
        self.model = model
        self.quant = quant  # weight format of a registry model (models/gguf.py QUANTS); a .gguf path is used as is
        self.model_name = Path(model).stem
        if model in REGISTRY:  # the name keys the LLM call cache: other weights give other answers
            weights = effective_quant(REGISTRY[model], quant)
            self.model_name = model if weights == "packaged" else f"{model}-{weights}"
        self.n_ctx = n_ctx
        self.threads = max(1, threads)  # generation: 1 is fastest on small shared CPUs (2 measured 10x slower)
        self.batch_threads = usable_threads(batch_threads)  # the prompt read splits across cores
        self.flash_attn = flash_attn
        self.model_dir = model_dir
        self.seed = seed
        self.lazy_grammar = lazy_grammar  # False: llama-cpp-python's response_format path (masks every step)
        self._loaded: LoadedLlama | None = None

    def _get(self) -> LoadedLlama:
        """Assemble/locate the GGUF and load it (once per process)."""
        if self._loaded is None:
            _, path = resolve_model(self.model, self.model_dir, self.quant)
            self._loaded = load_llama(path, self.n_ctx, self.threads, self.batch_threads, self.flash_attn)
        return self._loaded

    def _kwargs(self, messages: Sequence[Message], schema: dict[str, Any] | None, max_tokens: int,
                temperature: float) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"messages": [dict(m) for m in messages], "max_tokens": max_tokens,
                                  "temperature": temperature, "seed": self.seed}
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
            kwargs["repeat_penalty"] = 1.0  # JSON legitimately repeats keys and punctuation
        return kwargs

    def _error(self, exc: Exception) -> ModelError:
        return ModelError(f"{self.model_name}: {exc} (n_ctx={self.n_ctx}; send less context or raise "
                          "[llm] n_ctx)")

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """One chat completion; with `schema`, output is constrained by a grammar built from it."""
        loaded = self._get()
        start = time.perf_counter()
        if schema is not None and self.lazy_grammar:
            with loaded.lock:
                text, n_prompt, n_out, finish = self._constrained(loaded, messages, schema, max_tokens,
                                                                  temperature)
            return Completion(text=text, usage=Usage(n_prompt, n_out), model=self.model_name,
                              meta={"finish_reason": finish, "seconds": time.perf_counter() - start})
        with loaded.lock:
            try:
                self._keep_head(loaded, messages)
                result = loaded.llama.create_chat_completion(**self._kwargs(messages, schema, max_tokens,
                                                                            temperature))
            except ValueError as exc:
                raise self._error(exc) from exc
        choice = result["choices"][0]
        usage = result.get("usage") or {}
        return Completion(
            text=choice["message"].get("content") or "",
            usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
            model=self.model_name,
            meta={"finish_reason": choice.get("finish_reason"), "seconds": time.perf_counter() - start},
        )

    def _keep_head(self, loaded: LoadedLlama, messages: Sequence[Message]) -> list[int]:
        """keep_prompt_head, with a prompt longer than the context reported as this model's error."""
        try:
            return keep_prompt_head(loaded, messages)
        except ValueError as exc:
            raise self._error(exc) from exc

    def _prompt(self, loaded: LoadedLlama, messages: Sequence[Message]) -> list[int]:
        """The chat prompt as tokens, evaluated into the KV cache after its cached head."""
        tokens = self._keep_head(loaded, messages)
        loaded.llama.eval(tokens[len(loaded.head):])
        return tokens

    def _constrained(self, loaded: LoadedLlama, messages: Sequence[Message], schema: dict[str, Any],
                     max_tokens: int, temperature: float) -> tuple[str, int, int, str]:
        """Grammar-constrained decoding that checks the grammar on the chosen token first.

        Masking all 152k vocabulary entries with the grammar costs ~20% of a decode step; the model's
        own choice is usually valid JSON, so the full mask is applied only when it is not. Greedy output
        is identical to masking every step.
        """
        llama = loaded.llama
        lc = import_llama()
        from llama_cpp._internals import LlamaTokenDataArray

        tokens = self._prompt(loaded, messages)
        budget = min(max_tokens, llama.n_ctx() - len(tokens))
        grammar = _grammar(schema)
        vocab = llama._model.vocab
        sampler = lc.llama_sampler_init_grammar(vocab, grammar._grammar.encode(), grammar._root.encode())
        if not sampler:
            raise ModelError(f"{self.model_name}: llama.cpp rejected the grammar built from the JSON schema")
        n_vocab = llama.n_vocab()
        full = LlamaTokenDataArray(n_vocab=n_vocab)
        one = (lc.llama_token_data * 1)()
        one_array = lc.llama_token_data_array(data=ctypes.cast(one, lc.llama_token_data_p), size=1,
                                              selected=-1, sorted=False)
        rng = np.random.default_rng(self.seed)
        out: list[int] = []
        finish = "length"
        try:
            for _ in range(budget):
                logits = np.ctypeslib.as_array(lc.llama_get_logits_ith(llama.ctx, -1), shape=(n_vocab,))
                token = _pick(logits, temperature, rng)
                one[0].id, one[0].logit, one[0].p = token, 0.0, 0.0
                one_array.size, one_array.selected = 1, -1
                lc.llama_sampler_apply(sampler, ctypes.byref(one_array))
                if not math.isfinite(one[0].logit):  # not allowed here: mask the whole distribution
                    full.copy_logits(logits)
                    lc.llama_sampler_apply(sampler, ctypes.byref(full.candidates))
                    masked = np.asarray(full.candidates_data.logit)
                    if not np.isfinite(masked).any():
                        finish = "stop"
                        break
                    token = _pick(masked, temperature, rng)
                if lc.llama_vocab_is_eog(vocab, token):
                    finish = "stop"
                    break
                lc.llama_sampler_accept(sampler, token)
                out.append(token)
                if len(out) < budget:
                    llama.eval([token])
        finally:
            lc.llama_sampler_free(sampler)
        text = llama.detokenize(out, prev_tokens=tokens).decode("utf-8", errors="replace")
        return text, len(tokens), len(out), finish

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """Yield the answer piece by piece (the model stays locked until the stream ends or is closed)."""
        loaded = self._get()
        with loaded.lock:
            try:
                self._keep_head(loaded, messages)
                chunks = loaded.llama.create_chat_completion(
                    stream=True, **self._kwargs(messages, None, max_tokens, temperature))
                for chunk in chunks:
                    piece = chunk["choices"][0].get("delta", {}).get("content")
                    if piece:
                        yield piece
            except ValueError as exc:
                raise self._error(exc) from exc

    def yes_probability(self, messages: Sequence[Message]) -> float:
        """P("yes") / (P("yes") + P("no")) for the assistant's first token (one forward pass, no sampling)."""
        loaded = self._get()
        llama = loaded.llama
        llama_cpp = import_llama()
        with loaded.lock:
            self._prompt(loaded, messages)
            logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llama.ctx, -1),
                                           shape=(llama.n_vocab(),))
            yes = [float(logits[i]) for i in loaded.yes_ids]
            no = [float(logits[i]) for i in loaded.no_ids]
        top = max(yes + no)
        p_yes = sum(math.exp(v - top) for v in yes)
        p_no = sum(math.exp(v - top) for v in no)
        return p_yes / (p_yes + p_no) if p_yes + p_no > 0 else 0.5
