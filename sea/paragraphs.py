"""Paragraphs of retrieved documents and their embeddings, computed lazily.

Only documents a search actually retrieves get their paragraphs embedded; the embedder's
vector cache keeps them, so asking again (or resuming a run) costs a lookup, not a model call."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from sea.embeddings import Embedder, titled_text
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE


class ParagraphStore:
    """All paragraphs of a knowledge base with their document's title, looked up by document."""

    def __init__(self, kb_dir: Path):
        titles = pd.read_parquet(kb_dir / DOCUMENTS_FILE, columns=["doc_id", "title"])
        paragraphs = pd.read_parquet(kb_dir / PARAGRAPHS_FILE)
        self.table = paragraphs.merge(titles, on="doc_id", how="left").set_index("doc_id", drop=False).sort_index()

    @cached_property
    def by_para_id(self) -> pd.DataFrame:
        """The same rows indexed by para_id."""
        return self.table.set_index("para_id", drop=False)

    def of_documents(self, doc_ids: Iterable[int]) -> pd.DataFrame:
        wanted = pd.Index([int(d) for d in doc_ids if d >= 0], dtype="int64")
        return self.table.loc[self.table.index.intersection(wanted)].reset_index(drop=True)


class ParagraphEmbeddings:
    """Paragraph vectors for a given set of documents, embedded on first request."""

    def __init__(self, store: ParagraphStore, embedder: Embedder):
        self.store = store
        self.embedder = embedder

    def for_documents(self, doc_ids: Iterable[int]) -> tuple[pd.DataFrame, np.ndarray]:
        """The documents' paragraphs (para_id, doc_id, section, text, title) and their vectors, row-aligned."""
        paragraphs = self.store.of_documents(doc_ids)
        texts = [titled_text(title, text) for title, text in zip(paragraphs["title"], paragraphs["text"], strict=True)]
        return paragraphs, self.embedder.encode(texts)
