"""Document routes: upload (indexed by a background job), GET /jobs/{id}, list and delete documents."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Depends, File, Form, HTTPException, UploadFile, status

from kgrag.ingest import SUPPORTED_SUFFIXES, content_hash
from kgrag.ingest.details import document_details
from kgrag.server.deps import get_state
from kgrag.server.state import ServerState
from kgrag.server.uploads import StoredUpload, UploadError, store_upload

MULTIPART_OVERHEAD = 64 * 1024  # boundaries and part headers, on top of the file bytes
DELETE_WAIT_S = 30.0


def stage_selection(spec: str) -> list[str]:
    """Stage names from `graph,keywords` or `default`; 422 naming the unknown ones."""
    from kgrag.stages import all_stages

    known = all_stages()
    if spec.strip() == "default":
        return [s.name for s in known if s.default]
    wanted = [name.strip() for name in spec.split(",") if name.strip()]
    unknown = sorted(set(wanted) - {s.name for s in known})
    if unknown:
        raise HTTPException(422, detail=f"unknown stage(s) {unknown}; known: {[s.name for s in known]}")
    return wanted


def make_router(max_upload_bytes: int) -> APIRouter:
    """The document routes; the upload route's request-size limit is this server's `max_upload_bytes`."""
    router = APIRouter(tags=["documents"])

    @router.post(
        "/documents",
        status_code=status.HTTP_202_ACCEPTED,
        max_body_size=max_upload_bytes + MULTIPART_OVERHEAD,
        summary="Upload one or more files; they are indexed in the background (poll GET /jobs/{job_id})",
    )
    def upload(
        files: list[UploadFile] = File(..., description="PDF, DOCX, PPTX, XLSX, CSV, EML, MBOX, HTML, Markdown, text or pre-chunked JSONL files."),
        replace: bool = Form(False, description="Overwrite a stored upload of the same name instead of renaming."),
        stages: str = Form(
            "",
            description="Indexing stages to run after ingestion, comma-separated (e.g. `graph`), "
            "or `default` for those a plain `kgrag index` runs.",
        ),
        state: ServerState = Depends(get_state),
    ) -> dict[str, Any]:
        stage_names = stage_selection(stages)
        stored: list[StoredUpload] = []
        rejected: list[UploadError] = []
        for f in files:
            try:
                stored.append(
                    store_upload(
                        state.uploads,
                        f.filename or "upload",
                        f.file,
                        max_bytes=state.max_upload_bytes,
                        allowed_suffixes=SUPPORTED_SUFFIXES,
                        replace=replace,
                    )
                )
            except UploadError as exc:
                rejected.append(exc)
        if not stored:
            worst = max(rejected, key=lambda e: e.status)
            raise HTTPException(worst.status, detail="; ".join(str(e) for e in rejected))
        job = state.index_files([s.path for s in stored], stages=stage_names)
        return {
            "job_id": job.job_id,
            "job": job.to_dict(),
            "files": [s.to_dict() for s in stored],
            "rejected": [str(e) for e in rejected],
        }

    @router.get("/jobs", summary="Recent indexing jobs, oldest first")
    def jobs(state: ServerState = Depends(get_state)) -> list[dict[str, Any]]:
        return [j.to_dict() for j in state.jobs.all()]

    @router.get("/jobs/{job_id}", summary="Progress of one indexing job")
    def job(job_id: str, state: ServerState = Depends(get_state)) -> dict[str, Any]:
        found = state.jobs.get(job_id)
        if found is None:
            raise HTTPException(404, detail=f"no job {job_id!r} (jobs are kept in memory until the server restarts)")
        return found.to_dict()

    @router.get("/documents", summary="Indexed documents, each with what it yielded (pages, chunks, OCR pages, tables, warnings)")
    def documents(state: ServerState = Depends(get_state)) -> list[dict[str, Any]]:
        uploaded = {p.name for p in state.uploads.iterdir() if p.is_file()}
        return [{**asdict(d), "uploaded": d.path in uploaded, "details": document_details(d)}
                for d in state.index.store.list_documents()]

    @router.delete("/documents/{doc_id}", summary="Delete a document, its chunks and the graph items only it supported")
    def delete(doc_id: str, state: ServerState = Depends(get_state)) -> dict[str, Any]:
        store = state.index.store
        doc = store.get_document(doc_id)
        if doc is None:
            raise HTTPException(404, detail=f"no document with id {doc_id!r} (see GET /documents)")
        if not state.write_mutex.acquire(timeout=DELETE_WAIT_S):
            raise HTTPException(409, detail="an indexing job is still writing to the index; retry when it finished")
        try:
            state.index.remove(doc.doc_id)
        finally:
            state.write_mutex.release()
        upload = state.uploads / doc.path
        file_deleted = False
        if upload.parent == state.uploads and upload.is_file() and content_hash(upload) == doc.content_hash:
            upload.unlink()
            file_deleted = True
        return {"removed": asdict(doc), "file_deleted": file_deleted, "counts": state.index.stats()["counts"]}

    return router
