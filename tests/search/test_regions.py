"""sea_plus's region retrieval: regions and documents per source on a hand-made DAG, and the
retrieval they steer on the sample."""

from sea.search.dag import RelationDAG
from sea.search.regions import documents_per_source, source_regions
from sea.search.retrieval import retrieve


def _dag() -> RelationDAG:
    """1 led to 10 (a source) and 11; 10 led to 20 (a source) and 21, 22, 23; 2 led to 30, 31, 32, 33."""
    dag = RelationDAG()
    dag.add_evaluated(0, {1: 1.0, 2: 0.8}, {})
    dag.add_evaluated(1, {10: 0.8, 11: 0.0, 30: 0.2, 31: 0.0, 32: 0.0, 33: 0.2}, {10: {1}, 11: {1}, 30: {2}, 31: {2}, 32: {2}, 33: {2}})
    dag.add_evaluated(2, {20: 1.0, 21: 0.0, 22: 0.2, 23: 0.0}, {20: {10}, 21: {10}, 22: {10}, 23: {10}})
    return dag


SOURCES = {1, 2, 10, 20}


def test_a_region_is_a_source_and_the_sources_it_led_to():
    regions = source_regions(_dag(), {1, 2, 20, 99}, SOURCES)
    assert regions == {1: [10, 20], 2: [], 20: [], 99: []}  # 11 failed too little; 99 is not in the DAG yet


def test_documents_widen_with_yield_and_narrow_without_it():
    # yields (hits, misses): 1 (1, 1), 2 (0, 4), 10 (1, 3), 20 nothing retrieved; the arm's: 2 of 10
    k = documents_per_source(_dag(), {1, 2, 10, 20}, SOURCES, 50)
    assert k[1] == 100  # posterior mean 2/4 = 2.5 x the arm's: capped at twice
    assert k[2] == round(50 * (1 / 6) / 0.2) == 42
    assert k[10] == round(50 * (2 / 6) / 0.2) == 83
    assert k[20] == 50  # no evidence yet: k_documents
    low = RelationDAG()
    low.add_evaluated(0, {1: 1.0, 2: 1.0}, {})
    hits = range(50, 60)  # 2 led to ten sources, 1 to none of thirty
    low.add_evaluated(1, {p: 0.0 for p in range(10, 40)} | {p: 1.0 for p in hits}, {p: {1} for p in range(10, 40)} | {p: {2} for p in hits})
    assert documents_per_source(low, {1}, {1, 2, *hits}, 50) == {1: 25}  # 1/32 against 10/40: narrowed to half, no less
    no_hits = RelationDAG()
    no_hits.add_evaluated(0, {1: 1.0}, {})
    no_hits.add_evaluated(1, {5: 0.0}, {5: {1}})
    assert documents_per_source(no_hits, {1}, {1}, 50) == {1: 50}  # nothing to compare with


def test_region_retrieval_queries_from_the_centroid_with_the_sources_own_k(parts):
    index, paragraphs = parts
    table = paragraphs.store.rows(paragraphs.store.para_ids())
    war = table[table["title"].str.contains("War")]["para_id"].tolist()
    source, led_to = int(war[0]), [int(p) for p in table[table["title"].str.contains("Music")]["para_id"].tolist()[:3]]
    plain = retrieve([source], index, paragraphs, set(), {source}, k_docs=10, m_paras=20)
    assert retrieve([source], index, paragraphs, set(), {source}, 10, 20, {source: []}, {source: 10}) == plain
    region = retrieve([source], index, paragraphs, set(), {source}, 10, 20, {source: led_to}, {source: 10})
    assert set(region) != set(plain)  # the query moved towards what the source led to
    narrow = retrieve([source], index, paragraphs, set(), {source}, 10, 50, {source: []}, {source: 2})
    wide = retrieve([source], index, paragraphs, set(), {source}, 10, 50, {source: []}, {source: 20})
    documents = lambda found: set(table.loc[list(found), "doc_id"])  # noqa: E731
    assert len(documents(narrow)) <= 2 < len(documents(wide))
