"""What a run's steps need in memory — index, embedder, paragraphs, question bank, model
clients — loaded once per process and shared by every step of every arm."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path


from sea.audit.bank import QuestionBank
from sea.audit.rundir import RunDir
from sea.embeddings import Embedder, knowledge_base_embedder
from sea.index import DocumentIndex, load_index
from sea.llm.client import ModelClient
from sea.llm.registry import Models, build_models
from sea.paragraphs import DocumentCategories, DocumentOf, ParagraphEmbeddings
from sea.questions.generate import QuestionGenerator

_open: dict[Path, Workspace] = {}


class Workspace:
    def __init__(self, run: RunDir):
        self.run = run
        self.params = run.params

    @classmethod
    def of(cls, run_root: Path) -> Workspace:
        """The process's workspace for a run directory, loaded on first use."""
        key = run_root.resolve()
        if key not in _open:
            _open[key] = cls(RunDir(run_root))
        return _open[key]

    @cached_property
    def models(self) -> Models:
        models = build_models(self.params, embedder=lambda: self.embedder)  # one embedder in the process
        for testee in models.testees.values():
            # Testee replies belong to their run: a resumed run finds its own, a new audit asks the
            # model of today (the same name may serve other weights than last week).
            testee.cache_scope = self.run.nonce
        return models

    @cached_property
    def embedder(self) -> Embedder:
        return knowledge_base_embedder(self.params)

    @cached_property
    def index(self) -> DocumentIndex:
        return load_index(self.params)

    @cached_property
    def generator(self) -> QuestionGenerator:
        clients = self.models.clients
        return QuestionGenerator(self.params, self.embedder, clients.get("generator"), clients.get("verifier"))

    @cached_property
    def paragraphs(self) -> ParagraphEmbeddings:
        return ParagraphEmbeddings(self.generator.store, self.embedder)  # one store connection, not two

    @cached_property
    def bank(self) -> QuestionBank:
        return QuestionBank(self.run.bank_dir, self.generator)

    @cached_property
    def doc_of(self) -> DocumentOf:
        return DocumentOf(self.paragraphs.store)

    @cached_property
    def categories(self) -> DocumentCategories:
        return DocumentCategories(self.paragraphs.store)

    def testee(self, model: str) -> ModelClient:
        return self.models.testees[model]
