"""Reading JSON from LLM output: tolerant parsing, a small JSON-schema check, and one repair round-trip."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from kgrag.errors import LLMOutputError
from kgrag.models.base import LLM, Message

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "null": (type(None),),
}


def _type_ok(value: Any, name: str) -> bool:
    """JSON-schema type check (booleans are not numbers)."""
    if name in ("number", "integer") and isinstance(value, bool):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES.get(name, (object,)))


def schema_errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Violations of the common JSON-schema keywords (type, required, properties, items, enum, anyOf...)."""
    errors: list[str] = []
    if "anyOf" in schema or "oneOf" in schema:
        options = schema.get("anyOf") or schema.get("oneOf") or []
        if options and all(schema_errors(value, opt, where) for opt in options):
            errors.append(f"{where}: matches none of the allowed shapes")
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        if not any(_type_ok(value, n) for n in names):
            return errors + [f"{where}: expected {' or '.join(names)}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        errors += [f"{where}: missing required key {k!r}" for k in schema.get("required", []) if k not in value]
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in value and isinstance(sub, dict):
                errors += schema_errors(value[key], sub, f"{where}.{key}")
        if schema.get("additionalProperties") is False:
            errors += [f"{where}: unexpected key {k!r}" for k in value if k not in props]
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{where}: needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{where}: allows at most {schema['maxItems']} items")
        items = schema.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(value):
                errors += schema_errors(item, items, f"{where}[{i}]")
    if isinstance(value, str) and "minLength" in schema and len(value) < schema["minLength"]:
        errors.append(f"{where}: shorter than {schema['minLength']} characters")
    return errors


def _candidates(text: str) -> list[str]:
    """The text itself, the insides of code fences, then from the first brace and the first bracket on."""
    out = [text.strip()]
    out += [m.group(1).strip() for m in _FENCE.finditer(text)]
    out += [text[i:] for i in sorted(j for j in (text.find("{"), text.find("[")) if j >= 0)]
    return [c for c in out if c]


def parse_json_output(text: str, schema: dict[str, Any] | None = None) -> Any:
    """The JSON value in `text` (code fences and trailing chatter tolerated), checked against `schema`."""
    decoder = json.JSONDecoder()
    first_errors: list[str] | None = None
    for candidate in _candidates(text or ""):
        try:
            value, _ = decoder.raw_decode(candidate)
        except json.JSONDecodeError:
            continue
        errors = schema_errors(value, schema) if schema is not None else []
        if not errors:
            return value
        if first_errors is None:
            first_errors = errors
    if first_errors:
        raise LLMOutputError("the model's JSON does not match the schema: " + "; ".join(first_errors[:5]))
    snippet = (text or "").strip().replace("\n", " ")[:120]
    raise LLMOutputError(f"the model's output is not valid JSON: {snippet!r}")


def schema_instruction(schema: dict[str, Any]) -> str:
    """A prompt line asking for JSON matching `schema` (for servers without constrained output)."""
    return ("Return only a JSON value (no prose, no code fences) matching this JSON schema:\n"
            + json.dumps(schema, ensure_ascii=False))


def complete_json(llm: LLM, messages: Sequence[Message], schema: dict[str, Any], *,
                  repair_attempts: int = 1, max_tokens: int = 512, temperature: float = 0.0) -> Any:
    """Ask `llm` for JSON matching `schema`; on invalid output, say why and ask again (up to N times)."""
    history: list[Message] = list(messages)
    last_error: LLMOutputError | None = None
    for attempt in range(repair_attempts + 1):
        completion = llm.complete(history, schema=schema, max_tokens=max_tokens, temperature=temperature)
        try:
            return parse_json_output(completion.text, schema)
        except LLMOutputError as exc:
            last_error = exc
            if attempt == repair_attempts:
                break
            history = history + [
                {"role": "assistant", "content": completion.text},
                {"role": "user", "content": f"Your output was invalid because {exc}. "
                 "Return only the corrected JSON, nothing else."},
            ]
    assert last_error is not None
    raise LLMOutputError(f"{llm.model_name}: no valid JSON after {repair_attempts + 1} attempt(s): {last_error}")
