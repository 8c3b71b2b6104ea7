"""Bad inputs: every problem becomes an IngestError naming the file and a one-line reason."""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

import pytest
from reportlab.lib import pdfencrypt
from reportlab.pdfgen import canvas

from kgrag.config import ChunkingSettings
from kgrag.errors import IngestError
from kgrag.ingest import discover, ocr, parse_file, textio

SETTINGS = ChunkingSettings()
SAMPLE_PDF = Path(str(resources.files("kgrag") / "samples")) / "docs" / "Zephyr Boards" / "Zephyr Nano Rev2" / (
    "zephyr-nano-rev2-datasheet.pdf")
TEXT = "A readable sentence about the sensor board and its pressure range for the test file."


def _reason(path: Path) -> str:
    with pytest.raises(IngestError) as info:
        parse_file(path, root=path.parent, settings=SETTINGS)
    assert info.value.path == str(path)
    assert "\n" not in info.value.reason
    return info.value.reason


def _pdf(path: Path, encrypt: object = None) -> Path:
    c = canvas.Canvas(str(path), encrypt=encrypt)
    c.drawString(72, 720, TEXT)
    c.showPage()
    c.save()
    return path


def test_encrypted_pdf(tmp_path: Path) -> None:
    enc = pdfencrypt.StandardEncryption("user-secret", ownerPassword="owner", strength=128)
    assert _reason(_pdf(tmp_path / "locked.pdf", enc)) == "encrypted PDF"


def test_owner_password_only_pdf_is_readable(tmp_path: Path) -> None:
    enc = pdfencrypt.StandardEncryption("", ownerPassword="owner", strength=128)
    parsed = parse_file(_pdf(tmp_path / "owner.pdf", enc), root=tmp_path, settings=SETTINGS)
    assert "pressure range" in parsed.chunks[0].text


def test_corrupt_and_truncated_pdf(tmp_path: Path) -> None:
    data = SAMPLE_PDF.read_bytes()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(data[: len(data) // 3])
    assert _reason(truncated).startswith("corrupt PDF (")
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 20)
    assert _reason(garbage).startswith("corrupt PDF (")


def test_pdf_without_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "scan.pdf"
    c = canvas.Canvas(str(path))
    c.rect(100, 100, 300, 300, fill=1)  # drawing only, like a scanned page
    c.showPage()
    c.save()
    if ocr.ocr_available():  # OCR ran on the page and found nothing
        assert _reason(path) == "no extractable text (scanned PDF? OCR found no text on page 1)"
    monkeypatch.setattr(ocr, "ocr_available", lambda: False)  # without any engine: the message says how to install one
    assert _reason(path) == ("no extractable text (scanned PDF?); install OCR to read it: "
                             "apt-get install tesseract-ocr or pip install 'kgrag[ocr]'")


@pytest.mark.parametrize("name", ["empty.md", "empty.pdf", "empty.txt", "empty.html", "empty.jsonl"])
def test_empty_files(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"")
    assert _reason(path) == "empty file"


def test_whitespace_only_file(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("\n   \n\t\n", encoding="utf-8")
    assert _reason(path) == "no text content"


@pytest.mark.parametrize("name", ["image.md", "archive.txt", "blob.html", "data.jsonl"])
def test_binary_content_with_a_text_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + os.urandom(2000))
    assert _reason(path) == "binary file"


def test_binary_content_with_a_pdf_name(tmp_path: Path) -> None:
    path = tmp_path / "photo.pdf"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF" + os.urandom(2000))
    assert _reason(path) == "corrupt PDF (no PDF header)"


def test_non_utf8_text(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes(("# Notes\n\n" + TEXT + " Temp\u00e9rature: 25 \u00b0C.\n").encode("latin-1"))
    assert _reason(path).startswith("not UTF-8 text")


def test_html_with_declared_legacy_charset_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "legacy.html"
    html = f'<html><head><meta charset="iso-8859-1"><title>T</title></head><body><p>{TEXT} 25 \u00b0C</p></body></html>'
    path.write_bytes(html.encode("latin-1"))
    assert "25 \u00b0C" in parse_file(path, root=tmp_path, settings=SETTINGS).chunks[0].text


def test_jsonl_without_any_valid_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('not json\n{"no_text": 1}\n[1, 2]\n', encoding="utf-8")
    assert _reason(path) == "no valid JSONL record (line 1: invalid JSON (Expecting value))"


def test_too_short_to_index(tmp_path: Path) -> None:
    path = tmp_path / "short.md"
    path.write_text("# Title\n\nJust three words.\n", encoding="utf-8")
    assert _reason(path).startswith("no indexable text")


def test_unknown_extension_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "drawing.dwg"
    path.write_bytes(b"whatever")
    assert _reason(path) == "unsupported file type .dwg"
    assert _reason(tmp_path / "missing.md") == "not a readable file"


def test_file_over_the_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textio, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text(TEXT * 20, encoding="utf-8")
    assert _reason(path).startswith("file too large")


def test_discover_walks_sorted_skips_hidden_and_reports_bad_entries(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    for rel in ["b/z.md", "b/a.txt", "a/deep/x.pdf", "a/y.HTML", "top.jsonl", ".hidden.md"]:
        (tmp_path / rel).write_text(TEXT, encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.md").write_text(TEXT, encoding="utf-8")
    (tmp_path / "b" / "image.png").write_bytes(b"\x89PNG")
    files, errors = discover([tmp_path])
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "a/deep/x.pdf", "a/y.HTML", "b/a.txt", "b/z.md", "top.jsonl"]
    assert [(Path(e.path).name, e.reason) for e in errors] == [("image.png", "unsupported file type .png")]
    again, _ = discover([tmp_path / "b" / "z.md", tmp_path])  # a file given twice is listed once
    assert again[0] == tmp_path / "b" / "z.md" and len(again) == 5


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_discover_symlink_loops_and_broken_links(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "ok.md").write_text(TEXT, encoding="utf-8")
    os.symlink(root, root / "sub" / "back-to-root")  # directory loop
    os.symlink(root / "l1.md", root / "l2.md")
    os.symlink(root / "l2.md", root / "l1.md")  # file symlink loop
    os.symlink(root / "nowhere.md", root / "dangling.md")
    files, errors = discover([root, tmp_path / "absent.md"])
    assert files == [root / "sub" / "ok.md"]
    reasons = {Path(e.path).name: e.reason for e in errors}
    assert reasons == {
        "back-to-root": "symbolic link loop",
        "l1.md": "symbolic link loop",
        "l2.md": "symbolic link loop",
        "dangling.md": "broken symbolic link",
        "absent.md": "no such file or directory",
    }
    with pytest.raises(IngestError, match="l1.md"):
        parse_file(root / "l1.md", root=root, settings=SETTINGS)


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root can read anything")
def test_discover_reports_unreadable_files_and_folders(tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text(TEXT, encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    secret.chmod(0)
    locked.chmod(0)
    try:
        files, errors = discover([tmp_path])
    finally:
        secret.chmod(0o644)
        locked.chmod(0o755)
    assert files == []
    assert sorted((Path(e.path).name, e.reason) for e in errors) == [
        ("locked", "permission denied"), ("secret.md", "permission denied")]
