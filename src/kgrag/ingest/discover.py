"""Finding the files to ingest: explicit files plus folders walked recursively, deterministic order."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from kgrag.errors import IngestError

SUPPORTED_SUFFIXES: frozenset[str] = frozenset(
    {".pdf", ".html", ".htm", ".md", ".markdown", ".txt", ".text", ".jsonl", ".docx", ".pptx", ".xlsx", ".xlsm",
     ".csv", ".tsv", ".eml", ".mbox"}
)


def discover(paths: Sequence[str | Path]) -> tuple[list[Path], list[IngestError]]:
    """Supported files under `paths` (files as given, folders walked sorted, hidden entries skipped)
    and one IngestError per entry that cannot be used; never raises for a single bad entry."""
    files: list[Path] = []
    errors: list[IngestError] = []
    seen: set[tuple[int, int]] = set()
    for given in paths:
        path = Path(given)
        kind, reason, st = _probe(path)
        if kind == "dir":
            _walk(path, files, errors, seen, {(st.st_dev, st.st_ino)} if st else set())
        elif kind == "file":
            _add_file(path, st, files, errors, seen)
        else:
            errors.append(IngestError(path, reason))
    return files, errors


def _probe(path: Path) -> tuple[str, str, os.stat_result | None]:
    """('file'|'dir'|'bad', reason, stat) for one entry, following symlinks safely."""
    try:
        st = path.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "bad", "symbolic link loop", None
        if path.is_symlink():
            return "bad", "broken symbolic link", None
        if exc.errno in (errno.EACCES, errno.EPERM):
            return "bad", "permission denied", None
        if exc.errno == errno.ENOENT:
            return "bad", "no such file or directory", None
        return "bad", f"cannot read ({exc.strerror or exc})", None
    if stat.S_ISDIR(st.st_mode):
        return "dir", "", st
    if stat.S_ISREG(st.st_mode):
        return "file", "", st
    return "bad", "not a regular file", None


def _add_file(
    path: Path, st: os.stat_result | None, files: list[Path], errors: list[IngestError],
    seen: set[tuple[int, int]],
) -> None:
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        suffix = path.suffix.lower() or "(none)"
        errors.append(IngestError(path, f"unsupported file type {suffix}"))
        return
    if not os.access(path, os.R_OK):
        errors.append(IngestError(path, "permission denied"))
        return
    key = (st.st_dev, st.st_ino) if st else (0, hash(path))
    if key not in seen:  # the same file reached twice (given twice, hard/symbolic link)
        seen.add(key)
        files.append(path)


def _walk(
    folder: Path, files: list[Path], errors: list[IngestError], seen: set[tuple[int, int]],
    ancestors: set[tuple[int, int]],
) -> None:
    """Depth-first, entries sorted by name; a symlinked folder pointing back up is reported, not followed."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        reason = "permission denied" if exc.errno in (errno.EACCES, errno.EPERM) else (
            f"cannot list folder ({exc.strerror or exc})")
        errors.append(IngestError(folder, reason))
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        kind, reason, st = _probe(path)
        if kind == "bad":
            errors.append(IngestError(path, reason))
        elif kind == "dir" and st is not None:
            key = (st.st_dev, st.st_ino)
            if key in ancestors:
                errors.append(IngestError(path, "symbolic link loop"))
                continue
            _walk(path, files, errors, seen, ancestors | {key})
        else:
            _add_file(path, st, files, errors, seen)
