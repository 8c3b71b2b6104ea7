"""Generate ~100 malformed or hostile input files to prove `kgrag add` never crashes, hangs or bloats.

Run:  python tests/hostile_corpus.py OUT_DIR [--full]   (--full adds a 200 MB text file; then
      `/usr/bin/time -v kgrag add OUT_DIR` shows the peak RSS). Tests import `make_corpus`.
"""

from __future__ import annotations

import argparse
import os
import random
import zlib
from pathlib import Path

GOOD_MD = "# Good note {n}\n\nThe Zephyr board number {n} reads the BMP390 barometer over I2C at 3.3 V.\n"


def _pdf(body: bytes = b"BT /F1 12 Tf 72 720 Td (Hello hostile world) Tj ET") -> bytes:
    """A minimal valid one-page PDF with `body` as its content stream."""
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def _encrypted_pdf() -> bytes | None:
    """A password-protected PDF (needs pypdf; None without it)."""
    try:
        import io

        from pypdf import PdfReader, PdfWriter
    except ImportError:
        return None
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_pdf())))
    writer.encrypt("secret-user-password", "owner")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _big_text(path: Path, kilobytes: int) -> None:
    """A large text file written in 100 KB pieces (never held in memory at once)."""
    line = "The Zephyr Nano measures pressure from 300 hPa to 1250 hPa over I2C at 3.3 V and more words.\n"
    block = line * (100_000 // len(line))
    with path.open("w", encoding="utf-8") as fh:
        for _ in range(max(1, kilobytes // 100)):
            fh.write(block)


def make_corpus(out: Path, *, big_kb: int = 200, long_words: int = 20_000, depth: int = 100_000,
                seed: int = 7) -> dict[str, list[Path]]:
    """Write the hostile corpus under `out`; returns {"good": [...], "bad": [...], "either": [...]}:
    files that must be indexed, must be refused with a reason, or may go either way (encodings)."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    made: dict[str, list[Path]] = {"good": [], "bad": [], "either": []}

    def put(name: str, data: bytes | str, ok: bool | None) -> None:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        made["either" if ok is None else "good" if ok else "bad"].append(path)

    pdf = _pdf()
    for n in range(10):
        put(f"pdf/truncated-{n}.pdf", pdf[: rng.randint(10, len(pdf) - 20)], False)
        put(f"pdf/corrupt-{n}.pdf", b"%PDF-1.4\n" + rng.randbytes(2000), False)
        put(f"bin/random-{n}.pdf", rng.randbytes(rng.randint(1, 5000)), False)
        put(f"bin/random-{n}.md", rng.randbytes(rng.randint(200, 5000)), False)
    encrypted = _encrypted_pdf()
    for n in range(3):
        if encrypted is not None:
            put(f"pdf/encrypted-{n}.pdf", encrypted, False)
    put("pdf/bomb-stream.pdf", _pdf(zlib.compress(b"0" * 5_000_000)), False)
    for ext in ("md", "txt", "html", "pdf", "jsonl"):
        put(f"empty/zero.{ext}", b"", False)
    put("html/deep.html", "<div>" * depth + "deep text about the Zephyr" + "</div>" * depth, None)
    put("html/unclosed.html", "<html><body><p>Unclosed Zephyr paragraph <b><i><table><tr><td>cell", None)
    put("enc/latin1.txt", "Caf\u00e9 cr\u00e8me: the Zephyr \u00b5C at 25 \u00b0C.\n".encode("latin-1"), None)
    put("enc/cp1252.md", "# \u201cQuoted\u201d Zephyr \u2013 notes\n\nSome text.\n".encode("cp1252"), None)
    put("enc/utf16.txt", "The Zephyr Nano UTF-16 text.\n".encode("utf-16"), None)
    put("enc/mixed.md", "# Mixed\n\nutf8 \u00e9 ".encode() + "latin1 \u00e9 ".encode("latin-1") + b"\xff\xfe end\n", None)
    put("enc/nul-bytes.txt", b"Zephyr\x00Nano\x00text " * 50, None)
    put("lines/one-long-line.md", "# Long\n\n" + "Zephyr Nano barometer " * long_words, True)
    put("lines/no-spaces.txt", "x" * 2_000_000, False)
    put("jsonl/broken.jsonl", '{"text": "ok Zephyr record"}\n{not json\n{"text": 5}\n', None)
    names = ["name with spaces.md", "ünïcødé-文档.md", "semi;colon.md", "dollar$(rm -rf ~).md", "quote'\"s.md",
             "back`tick`.md", "star*glob?.md", "-dash-leading.md", "new\nline.md", "tab\tname.md", "emoji-\U0001f600.md",
             "amp&pipe|.md", ".hidden.md", "a" * 200 + ".md"]
    for n, name in enumerate(names):
        put(f"names/{name}", GOOD_MD.format(n=n), None if name.startswith(".") else True)  # hidden: skipped
    for n in range(40):
        put(f"good/note-{n:02d}.md", GOOD_MD.format(n=100 + n), True)
    loops = out / "loops"
    loops.mkdir(exist_ok=True)
    for link, target in (("self", "self"), ("a", "b"), ("b", "a"), ("up", "..")):
        if not (loops / link).is_symlink():
            os.symlink(target, loops / link)
    if big_kb:
        (out / "big").mkdir(exist_ok=True)
        big = out / "big" / f"large-{big_kb}kb.txt"
        _big_text(big, big_kb)
        made["good" if big_kb <= 100_000 else "bad"].append(big)  # ingestion refuses files over 100 MB
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--full", action="store_true", help="include the 200 MB text file")
    args = parser.parse_args()
    made = make_corpus(args.out, big_kb=200_000 if args.full else 200, long_words=400_000 if args.full else 20_000)
    print(f"{len(made['good'])} files to index, {len(made['bad'])} to refuse, {len(made['either'])} either, "
          f"in {args.out}")


if __name__ == "__main__":
    main()
