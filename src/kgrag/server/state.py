"""The per-process server state: one shared Index, the LLM lock, the upload folder and the job queue."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kgrag.index import Index
from kgrag.models.base import LLM, Completion, Message
from kgrag.progress import Progress
from kgrag.server.jobs import Job, JobQueue

UPLOADS_DIR = "uploads"
DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024


class LockedLLM:
    """Wraps the index's LLM so every call (answers, LLM-based retrieval, indexing stages) is serialized.

    The local llama.cpp model is not thread-safe; retrieval keeps running concurrently around it.
    The wrapped model is created on first use, under the lock, so startup stays fast.
    """

    def __init__(self, factory: Callable[[], LLM], lock: threading.Lock) -> None:
        self._factory = factory
        self._inner: LLM | None = None
        self.lock = lock

    def _llm(self) -> LLM:
        if self._inner is None:
            self._inner = self._factory()
        return self._inner

    @property
    def model_name(self) -> str:
        with self.lock:
            return self._llm().model_name

    def complete(self, messages: Sequence[Message], **kwargs: Any) -> Completion:
        with self.lock:
            return self._llm().complete(messages, **kwargs)

    def stream(self, messages: Sequence[Message], **kwargs: Any) -> Iterator[str]:
        """Holds the lock until the stream ends (or the consumer closes the generator)."""
        with self.lock:
            yield from self._llm().stream(messages, **kwargs)


class ServerState:
    """Everything the routes share; created once per app by `create_app`."""

    def __init__(self, index: Index, *, api_key: str | None, max_upload_bytes: int) -> None:
        self.index = index
        self.api_key = api_key or None
        self.max_upload_bytes = max_upload_bytes
        self.uploads = index.root / UPLOADS_DIR
        self.uploads.mkdir(parents=True, exist_ok=True)
        self.llm_lock = threading.Lock()
        self.write_mutex = threading.Lock()  # in-process writers (upload jobs, deletes) take turns
        self._embedder_lock = threading.Lock()
        self._embedder_ready = False
        # Every LLM user goes through index.llm: replace the lazy property with the serializing wrapper.
        index.llm = LockedLLM(partial(type(index).llm.func, index), self.llm_lock)  # type: ignore[attr-defined]
        self.jobs = JobQueue()

    def ready_embedder(self) -> None:
        """Load the embedder once, under a lock, before concurrent retrievals use it."""
        if not self._embedder_ready:
            with self._embedder_lock:
                self.index.embedder  # noqa: B018 - the cached_property loads the model
                self._embedder_ready = True

    def index_files(self, paths: list[Path], *, stages: Sequence[str] = ()) -> Job:
        """Queue a job that ingests `paths`, then runs the named indexing stages (e.g. the graph)."""

        def work(progress: Progress) -> dict[str, Any]:
            self.ready_embedder()
            with self.write_mutex:
                report = self.index.add(paths, progress=progress).to_dict()
                if stages and (report["added"] or report["replaced"]):
                    report["stages"] = self._run_stages(stages, progress)
            return report

        return self.jobs.submit([p.name for p in paths], work)

    def _run_stages(self, names: Sequence[str], progress: Progress) -> list[str]:
        """Run the named stages in their registered order (each resumes from its recorded progress)."""
        from kgrag.stages import all_stages

        done = []
        with self.index.write_lock():
            for stage in all_stages():
                if stage.name in names:
                    stage.run(self.index, progress)
                    done.append(stage.name)
        return done

    def close(self) -> None:
        self.jobs.stop()
        self.index.close()
