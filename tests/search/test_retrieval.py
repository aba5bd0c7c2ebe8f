import numpy as np

from sea.paragraphs import ParagraphStore
from sea.search.retrieval import draw, initial_batch, retrieve


def everything(store: ParagraphStore):
    """The sample's every paragraph, indexed by para_id (it is small)."""
    return store.rows(store.para_ids())


def test_initial_batch_spreads_over_categories(parts):
    index, paragraphs = parts
    batch = initial_batch(index, paragraphs, 40, np.random.default_rng(0))
    assert len(batch) == len(set(batch)) == 40
    table = everything(paragraphs.store)
    documents = table["doc_id"]
    assert len(set(table.loc[batch, "doc_id"])) >= 13 and set(table.loc[batch, "doc_id"]) <= set(documents)
    assert batch == initial_batch(index, paragraphs, 40, np.random.default_rng(0))  # seeded


def test_retrieval_follows_sources_and_skips_visited(parts):
    index, paragraphs = parts
    table = everything(paragraphs.store)
    source = int(table[table["title"].str.contains("War")]["para_id"].iloc[0])
    source_doc = int(table.at[source, "doc_id"])
    candidates = retrieve([source], index, paragraphs, visited_docs={source_doc}, visited_paras={source},
                          k_docs=10, m_paras=5)
    assert 0 < len(candidates) <= 5 and all(set(s) == {source} and 0 < s[source] <= 1 for s in candidates.values())
    retrieved_docs = set(table.loc[list(candidates), "doc_id"])
    assert source_doc not in retrieved_docs
    again = retrieve([source], index, paragraphs, visited_docs={source_doc} | retrieved_docs, visited_paras={source},
                     k_docs=10, m_paras=5)
    assert not set(again) & set(candidates)  # visited documents never come back


def test_shared_candidates_remember_every_source(parts):
    index, paragraphs = parts
    table = everything(paragraphs.store)
    two = [int(p) for p in table[table["title"].str.contains("War")]["para_id"].iloc[:2]]
    candidates = retrieve(two, index, paragraphs, visited_docs=set(), visited_paras=set(two), k_docs=20, m_paras=20)
    assert any(len(sources) == 2 for sources in candidates.values())


def test_draw_is_uniform_reproducible_and_bounded():
    rng = np.random.default_rng(3)
    picked = draw(range(100), 40, rng)
    assert len(picked) == len(set(picked)) == 40 and picked == draw(range(100), 40, np.random.default_rng(3))
    assert draw([5, 1, 3], 40, rng) == [1, 3, 5]
