"""Background indexing jobs: one worker thread runs uploads in order; progress is polled by job id."""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from kgrag.progress import Progress, Task

MAX_KEPT_JOBS = 200

JobWork = Callable[[Progress], dict[str, Any]]  # reports progress, returns the job's report


@dataclass
class Job:
    """One upload being indexed: status queued -> running -> done | failed."""

    job_id: str
    files: list[str]
    status: str = "queued"
    done: int = 0
    total: int = 0
    step: str = ""
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    report: dict[str, Any] = field(default_factory=dict)
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["progress"] = self.done / self.total if self.total else (1.0 if self.status == "done" else 0.0)
        return data


class _JobTask:
    def __init__(self, job: Job) -> None:
        self._job = job

    def advance(self, n: int = 1, **fields: object) -> None:
        self._job.done += n


class JobProgress:
    """The `Progress` protocol, recording counts on the job for `GET /jobs/{id}`."""

    def __init__(self, job: Job) -> None:
        self._job = job

    def task(self, description: str, total: int | None) -> Task:
        self._job.step = description
        self._job.done = 0
        self._job.total = total or 0
        return _JobTask(self._job)


class JobQueue:
    """A FIFO of jobs run one at a time by a daemon thread (indexing writes must not overlap)."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._pending: dict[str, JobWork] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, files: list[str], work: JobWork) -> Job:
        """Queue `work` (run later by the worker thread) as a job about `files`."""
        job = Job(job_id=uuid.uuid4().hex, files=files)
        with self._lock:
            self._jobs[job.job_id] = job
            self._pending[job.job_id] = work
            while len(self._jobs) > MAX_KEPT_JOBS:
                old_id, old = next(iter(self._jobs.items()))
                if old.status in ("queued", "running"):
                    break
                del self._jobs[old_id]
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="kgrag-index-jobs", daemon=True)
                self._thread.start()
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def all(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """True once every submitted job finished (for tests and shutdown)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(j.status in ("done", "failed") for j in self.all()):
                return True
            time.sleep(0.02)
        return False

    def stop(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            job.status, job.started = "running", time.time()
            try:
                with self._lock:
                    work = self._pending.pop(job.job_id)
                job.report = work(JobProgress(job))
                job.status = "done"
            except Exception as exc:  # reported on the job; the worker keeps serving later uploads
                job.error = f"{type(exc).__name__}: {exc}"
                job.status = "failed"
            finally:
                job.finished = time.time()
