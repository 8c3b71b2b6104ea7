"""Storing uploaded files under `<index>/uploads/` with safe, unique names (no traversal, no silent overwrite)."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kgrag.errors import KgragError

MAX_NAME_CHARS = 120
COPY_BLOCK = 1024 * 1024
_UNSAFE = re.compile(r"[^A-Za-z0-9._\-]+")
_NAME_LOCK = threading.Lock()  # choosing a free name and moving the file in is one step


class UploadError(KgragError):
    """An uploaded file was refused; `status` is the HTTP status to answer with."""

    def __init__(self, name: str, reason: str, status: int = 400) -> None:
        self.status = status
        super().__init__(f"{name!r}: {reason}")


def safe_filename(raw: str) -> str:
    """A plain file name from a client-supplied one: last path part, ASCII letters/digits/._- only.

    `../../etc/passwd` -> `passwd`, `C:\\x\\a b.md` -> `a_b.md`, `résumé.txt` -> `resume.txt`, NUL removed,
    no leading dots (no hidden files, never `.` or `..`; `....md` -> `upload.md`).
    """
    name = raw.replace("\x00", "").replace("\\", "/").rsplit("/", 1)[-1]
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem, dot, suffix = _UNSAFE.sub("_", name).rpartition(".")
    if not dot:
        stem, suffix = suffix, ""
    suffix = suffix.strip("._-")[:16]
    stem = stem.strip("._-")[: MAX_NAME_CHARS - len(suffix) - 1] or "upload"
    return f"{stem}.{suffix.lower()}" if suffix else stem


@dataclass
class StoredUpload:
    """Where an upload was saved and whether it replaced, duplicated or renamed an existing file."""

    original: str
    path: Path
    size: int
    outcome: str  # new | identical | replaced | renamed

    def to_dict(self) -> dict[str, object]:
        return {"original": self.original, "name": self.path.name, "size": self.size, "outcome": self.outcome}


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(COPY_BLOCK), b""):
            h.update(block)
    return h.hexdigest()


def _unique(folder: Path, name: str) -> Path:
    stem, suffix = Path(name).stem, Path(name).suffix
    n = 2
    while (folder / f"{stem}-{n}{suffix}").exists():
        n += 1
    return folder / f"{stem}-{n}{suffix}"


def store_upload(
    folder: Path,
    raw_name: str,
    stream: BinaryIO,
    *,
    max_bytes: int,
    allowed_suffixes: frozenset[str] | set[str],
    replace: bool,
) -> StoredUpload:
    """Copy `stream` into `folder` under a safe name, refusing files over `max_bytes` (413) or of unknown type (415).

    Same name, same bytes: the existing file is kept (`identical`). Same name, other bytes: saved as
    `name-2.ext` (`renamed`) unless `replace`, which overwrites it (the document is then re-indexed).
    """
    name = safe_filename(raw_name)
    suffix = Path(name).suffix.lower()
    if suffix not in allowed_suffixes:
        raise UploadError(
            raw_name,
            f"unsupported file type {suffix or '(none)'}; supported: {' '.join(sorted(allowed_suffixes))}",
            415,
        )
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=".upload-", suffix=".part")
    tmp = Path(tmp_name)
    try:
        size = 0
        h = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for block in iter(lambda: stream.read(COPY_BLOCK), b""):
                size += len(block)
                if size > max_bytes:
                    raise UploadError(raw_name, f"larger than the upload limit of {max_bytes} bytes", 413)
                h.update(block)
                out.write(block)
        if size == 0:
            raise UploadError(raw_name, "empty file")
        with _NAME_LOCK:
            target = folder / name
            outcome = "new"
            if target.exists():
                if _digest(target) == h.hexdigest():
                    return StoredUpload(raw_name, target, size, "identical")
                outcome = "replaced" if replace else "renamed"
                if not replace:
                    target = _unique(folder, name)
            os.replace(tmp, target)
        return StoredUpload(raw_name, target, size, outcome)
    finally:
        tmp.unlink(missing_ok=True)
