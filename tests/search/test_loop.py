"""The core loop on the 500-article sample with the offline generator and the simulated testee."""


import pytest

from sea.index import DocumentIndex
from sea.llm.registry import build_models
from sea.paragraphs import ParagraphEmbeddings
from sea.questions.generate import QuestionGenerator
from sea.search.loop import ArmSearch, QuestionBank
from sea.search.state import SearchState


@pytest.fixture(scope="module")
def setup(vital_sample):
    params = vital_sample.model_copy(update={
        "simulated": {"probe": vital_sample.simulated["paper-regime"].model_copy(update={"blind_spot_share": 0.1})},
        "search": vital_sample.search.model_copy(update={"batch_size": 6, "k_documents": 10, "m_paragraphs": 4}),
    })
    params = params.model_copy(update={"models": params.models.model_copy(update={
        "testee": params.models.testee.model_copy(update={"model": "simulated:probe"})})})
    models = build_models(params, roles=("testee",))
    embedder = models.clients["testee"].provider.embedder
    generator = QuestionGenerator(params, embedder)
    paragraphs = ParagraphEmbeddings(generator.store, embedder)  # one paragraph table in memory, not two
    index = DocumentIndex.load(params.paths.index_dir, params.index)
    return params, models, QuestionBank(generator), paragraphs, index


def run(setup, arm, steps, calls, state=None):
    params, models, bank, paragraphs, index = setup
    testee = models.clients["testee"]
    from sea.llm.ledger import Budget

    testee.budget = Budget(calls=calls)
    search = ArmSearch(state or SearchState(arm=arm, seed=0), params.search, index, paragraphs, bank, testee)
    results = [testee.run(search.step()) for _ in range(steps)]
    return search, results, testee.budget


@pytest.mark.parametrize("arm", ["sea", "no_pruning", "random"])
def test_steps_visit_new_paragraphs_and_promote_sources(setup, arm):
    search, results, budget = run(setup, arm, steps=4, calls=10_000)
    batches = [p for r in results for p in r.batch]
    assert len(batches) == len(set(batches)) and 12 < len(batches) <= 24  # nothing is evaluated twice
    state = search.state
    assert state.step == 4 and set(state.error_rates) <= set(batches)
    promoted = {p for r in results for p in r.new_sources}
    assert promoted == {p for p, rate in state.error_rates.items() if rate > 0.5}
    assert state.sources == promoted
    edges = list(state.dag.graph.edges)
    if arm == "random":
        assert not edges
    for source, target in edges:
        assert source in promoted and state.dag.graph.nodes[source]["step"] < state.dag.graph.nodes[target]["step"]
    if arm != "sea":
        assert not state.pruned_sources


def test_budget_is_never_exceeded_and_the_last_batch_is_cut(setup):
    search, results, budget = run(setup, "sea", steps=6, calls=300)
    asked = sum(len(r.answers) for r in results)
    assert asked == budget.spent.calls <= 300
    assert budget.calls_left < 25  # less than one more paragraph's questions were left unspent
    assert any(len(r.batch) < 6 for r in results)  # a batch was cut to fit


def test_a_restored_search_continues_exactly(setup, tmp_path):
    straight, straight_results, _ = run(setup, "sea", steps=4, calls=10_000)
    first, first_results, _ = run(setup, "sea", steps=2, calls=10_000)
    first.state.save(tmp_path / "state.json")
    resumed, resumed_results, _ = run(setup, "sea", steps=2, calls=10_000, state=SearchState.load(tmp_path / "state.json"))
    assert [r.batch for r in first_results + resumed_results] == [r.batch for r in straight_results]
    def outcomes(results):
        return [[(a["question_id"], a["raw_reply"], a["outcome"]) for a in r.answers] for r in results]

    assert outcomes(first_results + resumed_results) == outcomes(straight_results)
    assert resumed.state.to_json() == straight.state.to_json()
