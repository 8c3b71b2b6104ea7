"""The SQLite file behind the embedding and LLM caches: WAL, shared safely across threads and processes."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


def open_cache_db(path: Path, ddl: str) -> sqlite3.Connection:
    """Open (creating folder, file and table `ddl` if needed) a cache database in WAL mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), timeout=30.0, check_same_thread=False)
    if db.execute("PRAGMA page_count").fetchone()[0] == 0:
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # a new file: evicted rows give their pages back
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(ddl)
    db.commit()
    return db


class CacheFile:
    """What the embedding and LLM caches share: the file, its connection behind a lock, and hit/miss counts."""

    def __init__(self, path: str | Path, ddl: str) -> None:
        self.path = Path(path)
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()
        self._db = open_cache_db(self.path, ddl)

    def _close_db(self) -> None:
        with self._lock:
            self._db.close()
