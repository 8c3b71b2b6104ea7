"""Datasheet-aware, LLM-free graph extraction: products, typed components, spec facts and their relations."""
