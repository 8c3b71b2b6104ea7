"""Kill-and-resume benchmark: SIGKILL a real `kgrag add` + `kgrag index` build of the Arduino chunks at random
times, resume each to completion, and check every resumed index verifies equal (digest) to a clean build.

Regenerate:  .venv/bin/python benchmarks/kill_resume.py --kills 20            (all 11 Arduino files)
             .venv/bin/python benchmarks/kill_resume.py --kills 5 --files 2   (a quicker subset)
Models: the deterministic hash embedder and the fake LLM; graph extractor `rules`; all default stages
(KET-RAG keywords/KNN/core/sub-chunks/keyword graph, graph, skeleton, communities).
Writes benchmarks/results/kill_resume.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {"KGRAG_EMBEDDER__PROVIDER": "hash", "KGRAG_LLM__PROVIDER": "fake", "KGRAG_GRAPH__EXTRACTOR": "rules"}


def data_dir(arg: str | None) -> Path:
    return Path(arg or os.environ.get("KGRAG_DATA") or ROOT.parent / "shared" / "data")


def pipeline(docs: Path, idx: Path) -> list[str]:
    """The shell command of one full build: add, then index."""
    k = f"{sys.executable} -m kgrag"
    return ["sh", "-c", f"{k} add '{docs}' --index '{idx}' -q >/dev/null && {k} index --index '{idx}' -q >/dev/null"]


def run(cmd: list[str], kill_after: float | None = None) -> tuple[float, bool, int]:
    """(seconds, killed?, exit code) of `cmd`; SIGKILL its whole process group after `kill_after` s."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env={**os.environ, **ENV}, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        proc.wait(timeout=kill_after)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return time.monotonic() - start, True, -9
    return time.monotonic() - start, False, proc.returncode


def verify(idx: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "kgrag", "verify", "--index", str(idx), "--json"],
                         env={**os.environ, **ENV}, capture_output=True, text=True)
    return json.loads(out.stdout)


def stage_of(idx: Path) -> str:
    """Which stage the killed build had reached (from its progress records), for the table."""
    import sqlite3

    db = idx / "index.sqlite"
    if not db.exists():
        return "-"
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT stage, COUNT(*) FROM progress WHERE status='done' GROUP BY stage").fetchall()
    return ",".join(f"{s}:{n}" for s, n in rows) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--files", type=int, default=0, help="use only the first N Arduino JSONL files (0: all)")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="kgrag-kill-"))
    docs = work / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    sources = sorted((data_dir(args.data) / "arduino" / "docling_chunks").glob("*.jsonl"))
    for src in sources[: args.files or None]:
        shutil.copy(src, docs / src.name)

    clean = work / "clean"
    clean_s, _, code = run(pipeline(docs, clean))
    assert code == 0, "the clean build failed"
    expected = verify(clean)
    print(f"clean build: {clean_s:.1f} s, digest {expected['digest'][:16]}, counts {expected['counts']}")
    rows = []
    for n in range(args.kills):
        idx = work / f"run{n:02d}"
        at = rng.uniform(0.05, 0.75) * clean_s  # builds vary in speed: stay inside the run
        _, killed, _ = run(pipeline(docs, idx), kill_after=at)
        reached = stage_of(idx)
        resume_s, _, code = run(pipeline(docs, idx))
        got = verify(idx)
        equal = code == 0 and got["ok"] and got["digest"] == expected["digest"]
        diff = [k for k in expected["sections"] if got["sections"].get(k) != expected["sections"][k]]
        rows.append({"kill": n, "at_s": round(at, 2), "killed": killed, "reached": reached,
                     "resume_s": round(resume_s, 1), "consistent": got["ok"], "equal": equal, "differs": diff,
                     "problems": got["problems"]})
        print(f"{n:>3}  kill at {at:6.1f} s  killed={killed!s:<5}  resume {resume_s:6.1f} s  "
              f"equal={equal!s:<5} {','.join(diff)}  [{reached}]", flush=True)
        shutil.rmtree(idx, ignore_errors=True)
    summary = {"files": len(list(docs.glob('*.jsonl'))), "chunks": expected["counts"]["chunks"],
               "clean_s": round(clean_s, 1), "kills": len(rows), "killed_mid_run": sum(r["killed"] for r in rows),
               "all_equal": all(r["equal"] for r in rows), "embedder": "hash", "extractor": "rules", "runs": rows}
    print(f"\n{summary['killed_mid_run']}/{len(rows)} runs killed mid-build; every resumed index equal to the clean "
          f"one: {summary['all_equal']}")
    out = ROOT / "benchmarks" / "results" / "kill_resume.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2))
    print(f"wrote {out}")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
