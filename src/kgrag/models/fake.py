"""A deterministic scripted LLM for tests and offline demos: no model, counts its calls."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from kgrag.errors import ModelError
from kgrag.models.base import Completion, Message, Usage
from kgrag.tokens import count_tokens

Responder = Callable[[Sequence[Message], "dict[str, Any] | None"], str]
# the passage marked [1], after its header line "(Title, p. 4, section: …)" when the prompt writes one
_CITED = re.compile(r"\[1\]\s*(?:\([^\n]*\)\n)?(.+?)(?=\n\s*\n|\[2\]|$)", re.DOTALL)
_SENTENCE = re.compile(r"(.+?[.!?])(\s|$)", re.DOTALL)
NO_ANSWER = "I could not find this in the provided documents."


def example_for_schema(schema: dict[str, Any]) -> Any:
    """The smallest value that satisfies `schema` (required keys only, empty arrays, zero values)."""
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return example_for_schema(schema[key][0])
    kind = schema.get("type", "object")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        return {k: example_for_schema(props.get(k, {"type": "string"})) for k in schema.get("required", [])}
    if kind == "array":
        return [example_for_schema(schema.get("items", {}))] * int(schema.get("minItems", 0))
    return {"string": "", "number": 0, "integer": 0, "boolean": False, "null": None}.get(kind, "")


def grounded_answer(messages: Sequence[Message]) -> str:
    """The first sentence of the passage marked [1] in the prompt, cited; a refusal without context."""
    for message in reversed(messages):
        match = _CITED.search(message.get("content", ""))
        if match:
            passage = " ".join(match.group(1).split())
            sentence = _SENTENCE.match(passage)
            words = (sentence.group(1) if sentence else passage).split()[:30]
            return " ".join(words).rstrip(".!?") + " [1]."
    return NO_ANSWER


class FakeLLM:
    """Scripted replies (a list consumed in order, or a dict of prompt substring -> reply) or a function.

    Without a script it answers JSON requests with the smallest schema-valid value and other requests
    with the first sentence of the `[1]` passage, cited. `calls` and `requests` record what it was asked.
    """

    def __init__(self, replies: Sequence[str] | Mapping[str, str] | None = None, *,
                 respond: Responder | None = None, yes: Callable[[Sequence[Message]], float] | None = None,
                 model_name: str = "fake") -> None:
        self.model_name = model_name
        self._list = list(replies) if replies is not None and not isinstance(replies, Mapping) else None
        self._map = dict(replies) if isinstance(replies, Mapping) else None
        self._respond = respond
        self._yes = yes
        self.calls = 0
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def _reply(self, messages: Sequence[Message], schema: dict[str, Any] | None) -> str:
        """The scripted or default reply to one request."""
        if self._respond is not None:
            return self._respond(messages, schema)
        if self._list is not None:
            if not self._list:
                raise ModelError("FakeLLM: no scripted reply left")
            return self._list.pop(0)
        if self._map is not None:
            prompt = "\n".join(m.get("content", "") for m in messages)
            for needle, reply in self._map.items():
                if needle in prompt:
                    return reply
        if schema is not None:
            return json.dumps(example_for_schema(schema))
        return grounded_answer(messages)

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """Answer from the script; usage counted with cl100k."""
        with self._lock:
            self.calls += 1
            self.requests.append({"messages": list(messages), "schema": schema, "max_tokens": max_tokens,
                                  "temperature": temperature})
            text = self._reply(messages, schema)
        usage = Usage(sum(count_tokens(m.get("content", "")) for m in messages), count_tokens(text))
        return Completion(text=text, usage=usage, model=self.model_name)

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """The complete() answer, word by word."""
        text = self.complete(messages, max_tokens=max_tokens, temperature=temperature).text
        for i, word in enumerate(text.split(" ")):
            yield word if i == 0 else " " + word

    def yes_probability(self, messages: Sequence[Message]) -> float:
        """The `yes` function's value for these messages, else 0.5."""
        with self._lock:
            self.calls += 1
            self.requests.append({"messages": list(messages), "kind": "yes_probability"})
        return float(self._yes(messages)) if self._yes is not None else 0.5
