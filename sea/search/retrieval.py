"""Choosing the next batch of paragraphs: the initial category spread, hierarchical retrieval
around the active sources (documents first, then their paragraphs), and uniform sampling (of
the candidates, or of every paragraph not visited yet)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from sea.categories import category_prompts
from sea.embeddings import titled_text
from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings, ParagraphStore


def initial_batch(index: DocumentIndex, paragraphs: ParagraphEmbeddings, size: int, rng: np.random.Generator,
                  docs_per_category: int = 5) -> list[int]:
    """`size` paragraphs spread over the 13 top-level categories: the documents nearest to each
    category's description, their paragraphs drawn in turn, one category after another. Should those
    documents hold too few paragraphs, twice as many per category are taken, until the batch is full or
    every document is."""
    prompts = paragraphs.embedder.encode(category_prompts())
    while True:
        batch = _spread_over_categories(index, paragraphs, prompts, size, rng, docs_per_category)
        if len(batch) >= size or docs_per_category >= index.size:
            return batch
        docs_per_category *= 2


def _spread_over_categories(index: DocumentIndex, paragraphs: ParagraphEmbeddings, prompts: np.ndarray, size: int,
                            rng: np.random.Generator, docs_per_category: int) -> list[int]:
    _, doc_ids = index.search(prompts, docs_per_category)
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
             visited_paras: set[int], k_docs: int, m_paras: int, regions: dict[int, list[int]] | None = None,
             k_by_source: dict[int, int] | None = None) -> dict[int, dict[int, float]]:
    """Candidates with provenance: para_id -> {source that retrieved it: cosine similarity}. For
    each source: the k_docs nearest unvisited documents by title + abstract, then, among their
    paragraphs (embedded lazily), the m_paras nearest to the source that were never evaluated.
    sea_plus's region retrieval: the query is the centroid of the source and `regions[source]`,
    and a source retrieves `k_by_source[source]` documents."""
    sources = sorted(sources)
    if not sources:
        return {}
    queries = _queries(sources, paragraphs, regions)
    limits = [k_by_source[s] for s in sources] if k_by_source else [k_docs] * len(sources)
    _, doc_ids = index.search(queries, max(limits), exclude=visited_docs)
    candidates: dict[int, dict[int, float]] = {}
    for source, query, docs, limit in zip(sources, queries, doc_ids, limits, strict=True):
        docs = docs[:limit]
        rows, vectors = paragraphs.for_documents(docs[docs >= 0])
        fresh = ~rows["para_id"].isin(visited_paras).to_numpy()
        if not fresh.any():
            continue
        similarity = vectors[fresh] @ query
        order = np.argsort(-similarity, kind="stable")[:m_paras]
        for para_id, score in zip(rows["para_id"].to_numpy()[fresh][order].tolist(), similarity[order].tolist(), strict=True):
            candidates.setdefault(para_id, {})[source] = score
    return candidates


def _queries(sources: list[int], paragraphs: ParagraphEmbeddings, regions: dict[int, list[int]] | None) -> np.ndarray:
    if not regions:
        table = paragraphs.store.rows(sources)
        return paragraphs.embedder.encode([titled_text(table.at[s, "title"], table.at[s, "text"]) for s in sources])
    centroids = np.stack([paragraphs.vectors_of([s, *regions[s]]).mean(axis=0) for s in sources])
    return centroids / np.linalg.norm(centroids, axis=1, keepdims=True)


def draw(candidates: Iterable[int], size: int, rng: np.random.Generator, weights: dict[int, float] | None = None,
         ranked: bool = False) -> list[int]:
    """A draw of up to `size` candidates without replacement, uniform or in proportion to
    `weights`, reproducible for a given generator state. `ranked`: the `size` of highest weight
    instead, equal weights in the generator's order."""
    pool = sorted(set(candidates))
    if len(pool) <= size:
        return pool
    if ranked and weights is not None:
        order = rng.permutation(len(pool))
        top = sorted(order, key=lambda i: -weights.get(pool[i], 0.0))[:size]  # stable: ties keep the permutation's order
        return [pool[i] for i in sorted(top)]
    p = None
    if weights is not None:
        w = np.array([max(weights.get(c, 0.0), 0.0) for c in pool]) + 1e-9  # every candidate keeps a chance
        p = w / w.sum()
    return [pool[i] for i in sorted(rng.choice(len(pool), size, replace=False, p=p))]


def draw_unvisited(store: ParagraphStore, visited: Iterable[int], size: int, rng: np.random.Generator) -> tuple[list[int], int]:
    """What `draw` over every paragraph not visited would draw, and how many those are, without
    listing them (the full dump has 28.8M): the i-th unvisited paragraph in para_id order lies
    i places after as many visited ones as come before it."""
    taken = np.unique(store.id_places(visited))  # sorted, an id given twice counted once
    unvisited = len(store) - len(taken)
    picks = np.arange(unvisited) if unvisited <= size else np.sort(rng.choice(unvisited, size, replace=False))
    places = picks + np.searchsorted(taken - np.arange(len(taken)), picks, side="right")
    return store.ids_at(places.tolist()), unvisited


def candidate_weights(candidates: dict[int, dict[int, float]], source_error: dict[int, float]) -> dict[int, float]:
    """sea_plus's batch selection: a candidate counts for each source that retrieved it, by how
    similar it is to that source times how often the testee failed that source. Candidates close
    to strongly failed sources, or found by several of them, are drawn first."""
    return {c: sum(max(sim, 0.0) * source_error[s] for s, sim in sources.items()) for c, sources in candidates.items()}
