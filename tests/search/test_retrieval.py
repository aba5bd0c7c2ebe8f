import numpy as np

from sea.paragraphs import ParagraphStore
from sea.search.retrieval import draw, draw_unvisited, initial_batch, retrieve


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


def test_drawing_among_unvisited_paragraphs_draws_what_drawing_from_their_list_would(parts):
    store = parts[1].store
    ids = store.para_ids().tolist()
    picker = np.random.default_rng(7)
    for visited_share, size in [(0.0, 40), (0.1, 40), (0.5, 400), (0.97, 40), (0.999, 40), (1.0, 40)]:
        visited = set(picker.choice(ids, round(visited_share * len(ids)), replace=False).tolist())
        listed, drawn = np.random.default_rng(11), np.random.default_rng(11)
        expected = draw([p for p in ids if p not in visited], size, listed)
        assert draw_unvisited(store, visited, size, drawn) == (expected, len(ids) - len(visited))
        assert drawn.bit_generator.state == listed.bit_generator.state  # the generator left as the listing draw leaves it
    assert draw_unvisited(store, {12345}, 5, np.random.default_rng(0))[1] == len(ids)  # an id not in the store excludes nothing
    repeated = [ids[5]] * 901 + ids[100:300]  # an id given again in another lookup (of 900 ids each)
    assert draw_unvisited(store, repeated, 10, np.random.default_rng(0)) == draw_unvisited(store, set(repeated), 10, np.random.default_rng(0))


def test_draw_is_uniform_reproducible_and_bounded():
    rng = np.random.default_rng(3)
    picked = draw(range(100), 40, rng)
    assert len(picked) == len(set(picked)) == 40 and picked == draw(range(100), 40, np.random.default_rng(3))
    assert draw([5, 1, 3], 40, rng) == [1, 3, 5]


def test_ranked_draw_takes_the_highest_weights_and_breaks_ties_by_the_generator():
    weights = {c: 1.0 for c in range(20)} | {7: 3.0, 11: 2.0}  # 7 and 11 first, then 2 of the 18 tied
    picked = draw(range(20), 4, np.random.default_rng(5), weights, ranked=True)
    assert len(picked) == 4 and {7, 11} <= set(picked) and picked == sorted(picked)
    assert picked == draw(range(20), 4, np.random.default_rng(5), weights, ranked=True)
    assert {tuple(draw(range(20), 4, np.random.default_rng(seed), weights, ranked=True)) for seed in range(10)} != {tuple(picked)}
    assert draw(range(20), 4, np.random.default_rng(5), None, ranked=True) == draw(range(20), 4, np.random.default_rng(5))


def test_initial_batch_fills_a_batch_larger_than_the_nearest_documents_hold(parts):
    # a bug hunt: step 0 never exceeded the paragraphs of 5 documents a category (62 on the default knowledge base)
    index, paragraphs = parts
    every = list(paragraphs.store.para_ids())
    nearest = len(initial_batch(index, paragraphs, len(every), np.random.default_rng(0), docs_per_category=index.size))
    assert nearest == len(every)  # with every document, every paragraph
    batch = initial_batch(index, paragraphs, len(every) - 1, np.random.default_rng(0))
    assert len(batch) == len(set(batch)) == len(every) - 1
