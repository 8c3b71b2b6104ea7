"""Run `kgrag serve` in a child process on a free local port (browser tests, the load benchmark)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from kgrag.errors import KgragError


def free_port() -> int:
    """A TCP port nobody listens on right now (127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kgrag_command(*args: str) -> list[str]:
    """The `kgrag` console script of this interpreter's environment (or the same via `python -c`)."""
    script = Path(sys.executable).parent / "kgrag"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-c", "from kgrag.cli import main; main()", *args]


@contextmanager
def serve_in_background(
    index: str | Path, *args: str, log_level: str = "warning", start_timeout_s: float = 60.0
) -> Iterator[str]:
    """Start `kgrag serve --index INDEX ARGS` on a free port, yield its base URL, stop it afterwards."""
    port = free_port()
    cmd = kgrag_command("serve", "--index", str(index), "--port", str(port), "--log-level", log_level, *args)
    proc = subprocess.Popen(
        cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if proc.poll() is not None:
                output = proc.stdout.read() if proc.stdout else ""
                raise KgragError(f"kgrag serve exited with code {proc.returncode}: {output.strip()[-2000:]}")
            try:
                if httpx.get(url + "/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise KgragError(f"kgrag serve did not answer on {url} within {start_timeout_s:.0f} s")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
