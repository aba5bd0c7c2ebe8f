"""One arm of the search, step by step: choose a batch, question it, evaluate, update, prune.

Orchestration (Prefect tasks, MLflow, checkpoint files) wraps these methods; nothing here knows
about it. Every random choice comes from the state's generator, so a search restored from its
saved state continues exactly as an uninterrupted one would."""

from __future__ import annotations

from dataclasses import dataclass, field

from sea.index import DocumentIndex
from sea.llm.client import ModelClient
from sea.paragraphs import ParagraphEmbeddings
from sea.questions.generate import QuestionGenerator
from sea.questions.grading import CORRECT, FAILED, ask, askable
from sea.questions.model import Question
from sea.questions.prompts import testee_messages
from sea.search.dag import prune
from sea.search.retrieval import draw, initial_batch, retrieve
from sea.search.state import SearchState
from sea.settings import SearchSettings


class QuestionBank:
    """Questions are written once per paragraph and reused by every arm and testee that reaches it."""

    def __init__(self, generator: QuestionGenerator):
        self.generator = generator
        self.by_paragraph: dict[int, list[Question]] = {}

    async def for_paragraph(self, para_id: int) -> list[Question]:
        if para_id not in self.by_paragraph:
            self.by_paragraph[para_id] = await self.generator.for_paragraph(self.generator.paragraph(para_id))
        return self.by_paragraph[para_id]


@dataclass
class StepResult:
    step: int
    batch: list[int]
    answers: list[dict] = field(default_factory=list)
    error_rates: dict[int, float] = field(default_factory=dict)
    new_sources: set[int] = field(default_factory=set)
    pruned: set[int] = field(default_factory=set)
    budget_exhausted: bool = False


class ArmSearch:
    def __init__(self, state: SearchState, settings: SearchSettings, index: DocumentIndex,
                 paragraphs: ParagraphEmbeddings, bank: QuestionBank, testee: ModelClient):
        self.state, self.settings = state, settings
        self.index, self.paragraphs, self.bank, self.testee = index, paragraphs, bank, testee
        self._doc_of = dict(zip(paragraphs.store.table["para_id"].tolist(), paragraphs.store.table["doc_id"].tolist(), strict=True))

    def choose_batch(self) -> tuple[list[int], dict[int, set[int]]]:
        """The next batch and, for each paragraph in it, the sources that retrieved it."""
        state, settings = self.state, self.settings
        rng = state.rng()
        provenance: dict[int, set[int]] = {}
        if state.step == 0:
            batch = initial_batch(self.index, self.paragraphs, settings.batch_size, rng)
        else:
            if state.arm != "random" and state.active_sources:
                provenance = retrieve(state.active_sources, self.index, self.paragraphs, state.visited_docs,
                                      state.visited_paras, settings.k_documents, settings.m_paragraphs)
            # Without candidates (the random arm, or no active source left) the search explores uniformly.
            pool = provenance or [p for p in self._doc_of if p not in state.visited_paras]
            batch = draw(pool, settings.batch_size, rng)
        state.keep_rng(rng)
        return batch, {p: provenance.get(p, set()) for p in batch}

    def _fit_budget(self, batch: list[int], counts: dict[int, int]) -> list[int]:
        """Cut the batch so that its questions fit the calls left in the budget."""
        left = self.testee.budget.calls_left if self.testee.budget else None
        if left is None:
            return batch
        kept, used = [], 0
        for para_id in batch:
            if used + counts[para_id] > left:
                break
            kept.append(para_id)
            used += counts[para_id]
        return kept

    async def step(self) -> StepResult:
        state = self.state
        batch, provenance = self.choose_batch()
        questions = {p: askable(await self.bank.for_paragraph(p)) for p in batch}
        batch = self._fit_budget(batch, {p: len(q) for p, q in questions.items()})
        result = StepResult(state.step, batch)
        asked = [q for p in batch for q in questions[p]]
        records, result.budget_exhausted = await ask(self.testee, asked, [testee_messages(q.question, q.options) for q in asked])
        result.answers = records
        outcomes: dict[int, list[str]] = {}
        para_of = {q.question_id: q.para_id for q in asked}
        for record in records:
            if record["outcome"] != FAILED:
                outcomes.setdefault(para_of[record["question_id"]], []).append(record["outcome"])
        # A paragraph's error rate counts unparseable replies as wrong, as the paper did.
        result.error_rates = {p: sum(o != CORRECT for o in outs) / len(outs) for p, outs in outcomes.items()}
        self._update(result, provenance)
        state.step += 1
        return result

    def _update(self, result: StepResult, provenance: dict[int, set[int]]) -> None:
        state, settings = self.state, self.settings
        state.visited_paras.update(result.batch)
        state.visited_docs.update(self._doc_of[p] for p in result.batch)
        state.error_rates.update(result.error_rates)
        state.dag.add_evaluated(result.step, result.error_rates, {p: provenance.get(p, set()) for p in result.error_rates})
        result.new_sources = {p for p, rate in result.error_rates.items() if rate > settings.tau} - state.sources
        state.active_sources |= result.new_sources
        if state.arm == "sea":
            result.pruned = prune(state.dag, state.active_sources, settings.gamma)
            state.active_sources -= result.pruned
            state.pruned_sources |= result.pruned
