"""OCR benchmark: speed and quality of each OCR engine on PDFs without a text layer, side by side, and proof
that PDFs with text are parsed exactly as before.

Regenerate:  git worktree add --detach ../i15-before 25a90da   (once: the code before OCR, for the comparison)
             .venv/bin/python benchmarks/ocr.py [--engines tesseract rapidocr] [--before-src ../i15-before/src]
Part 1 generates three outlined-glyph PDFs (text drawn as vector glyph outlines with fontTools + reportlab,
known text, so character accuracy is measured) into benchmarks/.cache/ocr/, and reads them plus the
WisGate Edge Lite 2 datasheet of the shared data with every installed engine; per PDF and engine: OCR'd
pages, wall and CPU seconds per page of the whole parse (CPU = user+sys of this process and of its child
processes, i.e. the tesseract binary; each engine runs on one thread), characters, mean confidence, accuracy,
and the agreement of the engines' WisGate texts.
Part 2 parses the 44 Arduino datasheets with this code and with the code at --before-src (a subprocess)
and compares chunk counts and chunk texts. Writes benchmarks/results/ocr.json.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the outlined-PDF generator

from common import CACHE, data_dir, print_table, write_json  # noqa: E402

WISGATE = Path("arduino/documents/Pro Solutions Kits/WisGate Edge Lite 2/WisGate Edge Lite 2.pdf")
SENTENCES = [
    "The {p} accepts a supply voltage of {v} V on its input terminal and draws {c} mA in normal operation.",
    "Its radio transmits at up to {d} dBm and receives down to -{s} dBm at the lowest data rate.",
    "The operating temperature range is -{t} to +85 degrees Celsius without forced cooling.",
    "Firmware updates are installed over the USB-C port or remotely through the management interface.",
    "A watchdog restarts the device when the application stops responding for more than {w} seconds.",
]


def _facts(seed: int) -> dict[str, Any]:
    return {"p": f"Model K{seed}{seed + 3}", "v": 5 + seed * 2, "c": 40 + seed * 35, "d": 14 + seed * 3,
            "s": 120 + seed * 5, "t": 20 + seed * 5, "w": 4 + seed * 4}


def make_outlined_pdfs(folder: Path) -> list[tuple[Path, str]]:
    """Three 2-page A4 PDFs (headings, paragraphs, a table) drawn as glyph outlines; (path, true text)."""
    from reportlab.pdfgen import canvas

    from outline_pdf import PAGE_H, draw_outlined, outlined_table

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for seed in range(1, 4):
        path = folder / f"outlined-{seed}.pdf"
        facts = _facts(seed)
        truth: list[str] = []
        c = canvas.Canvas(str(path))
        for page in range(2):
            y = PAGE_H - 80
            heading = f"{facts['p']} {'Overview' if page == 0 else 'Specifications'}"
            draw_outlined(c, heading, 60, y, 18, "VeraBd.ttf")
            truth.append(heading)
            for n in range(14):
                line = f"{n + 1 + 14 * page}. " + SENTENCES[(n + page) % len(SENTENCES)].format(**facts)
                y -= 22
                draw_outlined(c, line[:95], 60, y, 9.5)
                truth.append(line[:95])
            rows = [("Parameter", "Value", "Unit"), ("Supply voltage", str(facts["v"]), "V"),
                    ("Current", str(facts["c"]), "mA"), ("TX power", str(facts["d"]), "dBm")] if page == 0 else [
                    ("Interface", "Connector", "Speed"), ("Ethernet", "RJ45", f"{facts['c']} Mbit/s"),
                    ("Console", "USB-C", f"{facts['w']}00 baud"), ("Radio", "SMA", f"{facts['s']} kbit/s")]
            outlined_table(c, rows, y - 30, 10, left=60)
            truth.extend(" ".join(r) for r in rows)
            c.showPage()
        c.save()
        made.append((path, "\n".join(truth)))
    return made


def _accuracy(found: str, truth: str) -> float:
    """Character similarity of the recognised and the true text (whitespace and ' | ' ignored)."""
    norm = lambda s: re.sub(r"[\s|]+", "", s)  # noqa: E731
    return difflib.SequenceMatcher(None, norm(found), norm(truth), autojunk=False).ratio()


def _cpu() -> float:
    """CPU seconds (user + sys) of this process and its finished child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def ocr_run(path: Path, truth: str | None, engine: str) -> dict[str, Any]:
    """Parse one PDF (OCR where needed, by `engine`) and measure it."""
    from kgrag.ingest.pdf import parse_pdf

    wall, cpu = time.perf_counter(), _cpu()
    parsed = parse_pdf(path, ocr_engine=engine)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    ocr = parsed.meta.get("ocr", {})
    pages = len(ocr.get("pages", [])) or 1
    text = "\n".join(b.text for b in parsed.blocks)
    return {"engine": ocr.get("engine", engine), "pdf": path.name, "ocr_pages": len(ocr.get("pages", [])),
            "text": text, "wall_s_per_page": wall / pages,
            "cpu_s_per_page": cpu / pages, "chars": len(text), "mean_confidence": ocr.get("mean_confidence"),
            "char_accuracy": _accuracy(text, truth) if truth else None, "blocks": len(parsed.blocks),
            "tables": sum(b.kind == "table" for b in parsed.blocks)}


def chunk_digest(docs: Path) -> dict[str, Any]:
    """Per datasheet: chunk count and a digest of the chunk texts and pages (or the error), with this code."""
    from kgrag.config import ChunkingSettings
    from kgrag.errors import IngestError
    from kgrag.ingest import parse_file

    out: dict[str, Any] = {}
    for path in sorted(docs.rglob("*.pdf")):
        rel = path.relative_to(docs).as_posix()
        try:
            parsed = parse_file(path, root=docs, settings=ChunkingSettings())
        except IngestError as exc:
            out[rel] = {"chunks": 0, "error": exc.reason}
            continue
        blob = json.dumps([[c.text, c.section, c.page_start, c.page_end] for c in parsed.chunks])
        out[rel] = {"chunks": len(parsed.chunks), "digest": hashlib.sha256(blob.encode()).hexdigest()[:16]}
    return out


def compare_before(docs: Path, before_src: Path) -> dict[str, Any]:
    """Chunk counts and texts of every datasheet, before (subprocess on the old code) and now."""
    env = {**os.environ, "PYTHONPATH": str(before_src.resolve())}
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--digest-only", str(docs)], env=env, capture_output=True,
                          text=True, check=True)
    before = json.loads(proc.stdout)
    before_s = time.perf_counter() - started
    started = time.perf_counter()
    after = chunk_digest(docs)
    after_s = time.perf_counter() - started
    rows = []
    for rel in sorted(after):
        b, a = before.get(rel, {}), after[rel]
        same = b.get("digest") is not None and b.get("digest") == a.get("digest")
        rows.append({"pdf": rel, "before": b.get("chunks", 0), "after": a["chunks"], "identical": same,
                     "before_error": b.get("error", ""), "after_error": a.get("error", "")})
    with_text = [r for r in rows if not r["before_error"]]
    return {"rows": rows, "pdfs": len(rows), "with_text": len(with_text),
            "identical_with_text": sum(r["identical"] for r in with_text),
            "chunks_before": sum(r["before"] for r in rows), "chunks_after": sum(r["after"] for r in rows),
            "seconds_before": round(before_s, 1), "seconds_after": round(after_s, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", help="shared evaluation data folder (default: $KGRAG_DATA or ../shared/data)")
    parser.add_argument("--before-src", type=Path, help="src/ of the code to compare chunk counts with")
    parser.add_argument("--engines", nargs="+", choices=["tesseract", "rapidocr"],
                        help="OCR engines to compare (default: every installed one)")
    parser.add_argument("--digest-only", type=Path, help=argparse.SUPPRESS)  # internal: the comparison subprocess
    args = parser.parse_args()
    if args.digest_only:
        print(json.dumps(chunk_digest(args.digest_only)))
        return
    from kgrag.ingest.ocr import engine_available
    from kgrag.ingest.ocr_rapid import load
    from kgrag.ingest.ocr_tesseract import version

    data = data_dir(args.data)
    engines = args.engines or [e for e in ("tesseract", "rapidocr") if engine_available(e)]
    pdfs = [*make_outlined_pdfs(CACHE / "ocr"), (data / WISGATE, None)]
    runs, totals = [], []
    for engine in engines:
        loaded = time.perf_counter()
        load() if engine == "rapidocr" else version()  # models / binary version once, outside the per-page numbers
        load_s = time.perf_counter() - loaded
        mine = [ocr_run(path, truth, engine) for path, truth in pdfs]
        pages = sum(r["ocr_pages"] for r in mine)
        totals.append({"engine": mine[0]["engine"], "load_s": load_s, "pages": pages,
                       "cpu_s_per_page": sum(r["cpu_s_per_page"] * r["ocr_pages"] for r in mine) / pages,
                       "wall_s_per_page": sum(r["wall_s_per_page"] * r["ocr_pages"] for r in mine) / pages,
                       "char_accuracy": min(r["char_accuracy"] for r in mine if r["char_accuracy"] is not None)})
        runs.extend(mine)
    print_table(["engine", "PDF", "OCR pages", "wall s/page", "CPU s/page", "chars", "mean conf", "char accuracy",
                 "tables"],
                [[r["engine"], r["pdf"], r["ocr_pages"], r["wall_s_per_page"], r["cpu_s_per_page"], r["chars"],
                  r["mean_confidence"], r["char_accuracy"] if r["char_accuracy"] is not None else "-", r["tables"]]
                 for r in runs])
    print()
    print_table(["engine", "load s", "OCR pages", "CPU s/page", "wall s/page", "lowest char accuracy"],
                [[t["engine"], t["load_s"], t["pages"], t["cpu_s_per_page"], t["wall_s_per_page"], t["char_accuracy"]]
                 for t in totals])
    wisgate = [r["text"] for r in runs if r["pdf"] == WISGATE.name]
    agreement = _accuracy(wisgate[0], wisgate[1]) if len(wisgate) == 2 else None
    if agreement is not None:
        print(f"\nWisGate text agreement between the two engines: {agreement:.3f}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    result: dict[str, Any] = {"engines": totals, "ocr": [{k: v for k, v in r.items() if k != "text"} for r in runs],
                              "wisgate_agreement": agreement, "loadavg": os.getloadavg()[0]}
    if args.before_src:
        cmp = compare_before(data / "arduino" / "documents", args.before_src)
        print()
        print_table(["PDF", "chunks before", "chunks after", "identical", "before error"],
                    [[r["pdf"], r["before"], r["after"], r["identical"], r["before_error"]]
                     for r in cmp["rows"] if not r["identical"]])
        print(f"\n{cmp['identical_with_text']}/{cmp['with_text']} datasheets with text: identical chunks "
              f"(count, text, section, pages); chunks {cmp['chunks_before']} -> {cmp['chunks_after']} over "
              f"{cmp['pdfs']} PDFs; parse time {cmp['seconds_before']} s -> {cmp['seconds_after']} s")
        result["before_after"] = cmp
    print(f"\nwrote {write_json('ocr', result)}")


if __name__ == "__main__":
    main()
