"""Choosing the next batch of paragraphs: the initial category spread, hierarchical retrieval
around the active sources (documents first, then their paragraphs), and uniform sampling."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from sea.categories import category_prompts
from sea.embeddings import titled_text
from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings


def initial_batch(index: DocumentIndex, paragraphs: ParagraphEmbeddings, size: int, rng: np.random.Generator,
                  docs_per_category: int = 5) -> list[int]:
    """`size` paragraphs spread over the 13 top-level categories: the documents nearest to each
    category's description, their paragraphs drawn in turn, one category after another."""
    _, doc_ids = index.search(paragraphs.embedder.encode(category_prompts()), docs_per_category)
    per_category = []
    for row in doc_ids:
        rows = paragraphs.store.of_documents(row[row >= 0])
        per_category.append([int(p) for p in rng.permutation(rows["para_id"].to_numpy())])
    batch: list[int] = []
    while len(batch) < size and any(per_category):
        for pool in per_category:
            while pool and len(batch) < size:
                candidate = pool.pop()
                if candidate not in batch:
                    batch.append(candidate)
                    break
    return batch


def retrieve(sources: Iterable[int], index: DocumentIndex, paragraphs: ParagraphEmbeddings, visited_docs: set[int],
             visited_paras: set[int], k_docs: int, m_paras: int) -> dict[int, set[int]]:
    """Candidates with provenance (para_id -> the sources that retrieved it). For each source:
    the k_docs nearest unvisited documents by title + abstract, then, among their paragraphs
    (embedded lazily), the m_paras nearest to the source that were never evaluated."""
    sources = sorted(sources)
    if not sources:
        return {}
    table = paragraphs.store.by_para_id
    queries = paragraphs.embedder.encode([titled_text(table.at[s, "title"], table.at[s, "text"]) for s in sources])
    _, doc_ids = index.search(queries, k_docs, exclude=visited_docs)
    candidates: dict[int, set[int]] = {}
    for source, query, docs in zip(sources, queries, doc_ids, strict=True):
        rows, vectors = paragraphs.for_documents(docs[docs >= 0])
        fresh = ~rows["para_id"].isin(visited_paras).to_numpy()
        if not fresh.any():
            continue
        similarity = vectors[fresh] @ query
        nearest = rows["para_id"].to_numpy()[fresh][np.argsort(-similarity, kind="stable")[:m_paras]]
        for para_id in nearest.tolist():
            candidates.setdefault(para_id, set()).add(source)
    return candidates


def draw(candidates: Iterable[int], size: int, rng: np.random.Generator) -> list[int]:
    """A uniform draw of up to `size` candidates, reproducible for a given generator state."""
    pool = sorted(set(candidates))
    if len(pool) <= size:
        return pool
    return [pool[i] for i in sorted(rng.choice(len(pool), size, replace=False))]
