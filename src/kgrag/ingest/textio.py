"""Bounded, streaming reading of text files: size cap, binary sniffing, UTF-8 (BOM) / UTF-16/32 (BOM) decoding."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from pathlib import Path

from kgrag.errors import IngestError
from kgrag.ingest.base import MAX_FILE_BYTES

SNIFF_BYTES = 8192
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_CONTROL = set(range(0, 9)) | set(range(14, 27)) | set(range(28, 32)) | {127}
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?([\w-]+)", re.I)


def check_size(path: Path) -> int:
    """The file size; IngestError for empty files and files over the size cap."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc
    if size == 0:
        raise IngestError(path, "empty file")
    if size > MAX_FILE_BYTES:
        raise IngestError(path, f"file too large ({size / 2**20:.0f} MB, limit {MAX_FILE_BYTES // 2**20} MB)")
    return size


def read_head(path: Path, n: int = SNIFF_BYTES) -> bytes:
    """The first `n` bytes of the file."""
    try:
        with open(path, "rb") as fh:
            return fh.read(n)
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc


def looks_binary(head: bytes) -> bool:
    """True when the bytes contain NUL or many control characters (and no UTF-16/32 byte-order mark)."""
    if any(head.startswith(bom) for bom, _ in _BOMS):
        return False
    if b"\x00" in head:
        return True
    control = sum(1 for b in head if b in _CONTROL)
    return bool(head) and control / len(head) > 0.05


def sniff_encoding(path: Path) -> str:
    """The codec to read `path` with (from its BOM, else UTF-8); IngestError for empty/binary files."""
    check_size(path)
    head = read_head(path)
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    if looks_binary(head):
        raise IngestError(path, "binary file")
    return "utf-8-sig"


def iter_lines(path: Path) -> Iterator[str]:
    """Lines of a text file without their newline, streamed (never the whole file in memory)."""
    encoding = sniff_encoding(path)
    try:
        with open(path, encoding=encoding, errors="strict", newline=None) as fh:
            for line in fh:
                if "\x00" in line:
                    raise IngestError(path, "binary file")
                yield line.rstrip("\n")
    except UnicodeDecodeError as exc:
        raise IngestError(path, _decode_reason(encoding, exc)) from exc
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc


def read_text(path: Path) -> str:
    """The whole (size-capped) text; UTF-8/BOM, else a charset declared in an HTML <meta> tag."""
    encoding = sniff_encoding(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        declared = _declared_charset(data)
        if declared is None:
            raise IngestError(path, _decode_reason(encoding, exc)) from exc
        try:
            text = data.decode(declared)
        except UnicodeDecodeError as exc2:
            raise IngestError(path, f"not {declared} text as declared") from exc2
    if "\x00" in text:
        raise IngestError(path, "binary file")
    return text


def _declared_charset(data: bytes) -> str | None:
    match = _META_CHARSET.search(data[:4096])
    if not match:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    return None if name == "utf-8" else name


def _decode_reason(encoding: str, exc: UnicodeDecodeError) -> str:
    if encoding.startswith("utf-8"):
        return f"not UTF-8 text (invalid byte 0x{exc.object[exc.start]:02x})"
    return f"not {encoding} text"
