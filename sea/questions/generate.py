"""Questions for a paragraph with the configured generator, then the gate and de-duplication."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from tqdm import tqdm

from sea.embeddings import Embedder, document_vectors
from sea.errors import ParamsError
from sea.index import load_index
from sea.kb.schema import DOCUMENTS_FILE
from sea.llm.client import ModelClient
from sea.memo import remembered
from sea.paragraphs import ParagraphStore
from sea.kb.derived import derived_store
from sea.questions.answers import problem_before_distractors
from sea.questions.cloze import GENERATOR_NAME, Setting, cloze_drafts
from sea.questions.entities import EntityFinder, Span
from sea.questions.gate import DuplicateFilter, gate_verifier, verify
from sea.questions.kinds import CorpusStats, Definitions, fill_definitions, sampled
from sea.questions.model import INVALID, Draft, Question, content_id, question_from_record, question_record
from sea.questions.places import links_between
from sea.questions.shuffle import phrasings_to_questions
from sea.questions.writer import rephrase, write_drafts
from sea.questions.years import bounding_years, work_year, years_active
from sea.settings import Params

RELATED_TITLES = 12  # same-type titles offered as distractors beside the neighbours' spans
TAGS_FILE = "entities.sqlite"  # in paths.cache_dir: what the tagger found in each text (sea.questions.tags)
LEADS_KEPT = 100_000  # article leads remembered before the memo starts over (~100 MB; the full dump has millions)
REPHRASING = "rephrasing: "  # begins the reason a rephrasing was dropped for
TYPE_SAMPLE = 20_000  # documents of one type compared with the answer's (a type of the full dump may hold millions)


@dataclass(frozen=True)
class Paragraph:
    para_id: int
    doc_id: int
    title: str
    section: str
    text: str


@dataclass
class Drafted:
    """A paragraph's base questions, each with its rephrasings when the generator wrote them
    together (the offline generator's templates) or None when the rephrase phase must write them,
    and the candidates dropped on the way (as invalid records)."""

    drafts: list[tuple[Draft, list[str] | None]]
    dropped: list[Question]

    def to_json(self) -> dict:
        return {"drafts": [{"question": d.question, "options": list(d.options), "gold": d.gold, "statement": d.statement,
                            "phrasings": phrasings} for d, phrasings in self.drafts],
                "dropped": [question_record(q) for q in self.dropped]}

    @classmethod
    def from_json(cls, data: dict) -> Drafted:
        drafts = [(Draft(d["question"], tuple(d["options"]), d["gold"], d["statement"]), d["phrasings"]) for d in data["drafts"]]
        return cls(drafts, [question_from_record(q) for q in data["dropped"]])


def invalid_record(para_id: int, text: str, reason: str, generator: str) -> Question:
    """A dropped item kept in the records with why it was dropped."""
    record_id = content_id(para_id, text, [], "")
    return Question(para_id=para_id, base_question_id=record_id, variant=0, question=text, options=[], gold_letter="",
                    permutation=[], statement="", generator=generator, verdict=INVALID, reason=reason)


def definitions(kb_dir: Path, progress: bool = False) -> Iterator[tuple[int, str, str]]:
    """(doc_id, title, abstract) of every document, read in batches (the full dump's abstracts never sit in memory at once)."""
    columns = ["doc_id", "title", "abstract"]
    parquet = pq.ParquetFile(kb_dir / DOCUMENTS_FILE)
    with tqdm(total=parquet.metadata.num_rows, unit="article", unit_scale=True, desc="definitions (made once)",
              disable=not progress) as bar:
        for batch in parquet.iter_batches(batch_size=65_536, columns=columns):
            yield from zip(*(batch.column(c).to_pylist() for c in columns), strict=True)
            bar.update(batch.num_rows)


def definitions_store(kb_dir: Path, progress: bool = False) -> Definitions:
    """What the knowledge base's articles say their subjects are, made beside it when missing or out
    of date: minutes for the full dump's 7.1M articles (`progress`: under a progress bar)."""
    return Definitions(derived_store(kb_dir, "definitions", Definitions.LAYOUT,
                                     lambda db: fill_definitions(db, definitions(kb_dir, progress))))


def make_stores(params: Params, progress: bool) -> None:
    """The stores an audit reads beside the knowledge base (its paragraphs; the offline generator's
    definitions), made now if missing or out of date, rather than unannounced inside a first step."""
    ParagraphStore(params.paths.kb_dir, progress)
    if params.models.generator is None:
        definitions_store(params.paths.kb_dir, progress)


class QuestionGenerator:
    def __init__(self, params: Params, embedder: Embedder, generator: ModelClient | None = None,
                 verifier: ModelClient | None = None):
        self.settings = params.questions
        self.generator = generator
        self.verifier = gate_verifier(self.settings, generator, verifier)
        self.name = generator.settings.model if generator else GENERATOR_NAME
        self.store = ParagraphStore(params.paths.kb_dir)
        self.duplicates = DuplicateFilter(embedder, self.settings.duplicate_similarity)
        if generator is None:
            known = definitions_store(params.paths.kb_dir)
            texts = self.store.texts(sampled(len(self.store), self.settings.seed))
            self.finder = EntityFinder(CorpusStats(texts, self.settings.latest_year, known), params.paths.cache_dir / TAGS_FILE)
            self.encode = embedder.encode
            self.index = load_index(params)
            self._documents = document_vectors(params.paths.embeddings_dir)
            self._type_members: dict[str, list[int]] = {}
            self._leads: dict[int, tuple[int, str] | None] = {}
            self._active: dict[int, tuple[int, int] | None] = {}

    def paragraph(self, para_id: int) -> Paragraph:
        try:
            _, doc_id, section, text, title = self.store.record(para_id)
        except KeyError as error:
            raise ParamsError(error.args[0]) from None
        return Paragraph(int(para_id), doc_id, title, section, text)

    async def for_paragraph(self, paragraph: Paragraph) -> list[Question]:
        """Both phases and the duplicate filter, for one paragraph."""
        questions = await self.phrase(paragraph, await self.draft(paragraph))
        self.duplicates.apply(questions)
        return questions

    def for_paragraphs(self, para_ids: list[int]) -> list[Question]:
        """for_paragraph for each of these paragraphs, in order, in one event loop: for scripts and
        benchmarks (an audit's question bank runs in its own loop). A loop per paragraph would cost
        more than a warm paragraph's questions."""
        async def in_order() -> list[Question]:
            return [q for para_id in para_ids for q in await self.for_paragraph(self.paragraph(para_id))]

        return asyncio.run(in_order())

    def prepare(self, para_ids: list[int]) -> None:
        """Tag a batch's paragraphs in one go (spaCy is much faster in batches), then the neighbours
        of those with a candidate that needs distractors; the offline generator then finds them
        tagged. Changes no result."""
        if self.generator is None:
            paragraphs = [self.paragraph(p) for p in para_ids]
            self.finder.prime([(p.para_id, p.text) for p in paragraphs], [])
            self.finder.prime([], [pair for p in paragraphs if self._needs_distractors(p)
                                   for pair in self._neighbour_paragraphs(p.doc_id)])

    async def draft(self, paragraph: Paragraph) -> Drafted:
        """The generate phase: base questions, and the candidates dropped with their reasons."""
        return await (self._llm_drafts(paragraph) if self.generator else self._offline_drafts(paragraph))

    async def phrase(self, paragraph: Paragraph, drafted: Drafted) -> list[Question]:
        """The rephrase phase: every base question's variants, each with its own option order, then
        the verifier gate. The duplicate filter is left to the caller, which must apply it to
        paragraphs in a fixed order: its verdicts depend on what it has kept before."""
        settings = self.settings
        questions = list(drafted.dropped)
        for draft, phrasings in drafted.drafts:
            if phrasings is None:
                written = await rephrase(self.generator, draft, settings.variants - 1, settings.writer_attempts)
                phrasings = written.kept
                questions += [invalid_record(paragraph.para_id, text, f"{REPHRASING}{reason}", self.name)
                              for text, reason in written.dropped]
            questions += phrasings_to_questions(paragraph.para_id, draft, phrasings, self.name, settings.seed)
        if self.verifier:
            await verify(self.verifier, paragraph.text, questions)
        return questions

    async def _llm_drafts(self, paragraph: Paragraph) -> Drafted:
        settings = self.settings
        written = await write_drafts(self.generator, paragraph.title, paragraph.text, settings.per_paragraph,
                                     settings.writer_attempts)
        dropped = [invalid_record(paragraph.para_id, text, reason, self.name) for text, reason in written.dropped]
        return Drafted([(draft, None) for draft in written.kept], dropped)

    async def _offline_drafts(self, paragraph: Paragraph) -> Drafted:
        settings = self.settings
        home = self._documents.of([paragraph.doc_id])[0]
        lead = self._lead_of_document(paragraph.doc_id)

        def lead_of(name: str) -> str | None:  # the paragraph's own article by its document: "Western Front (World War II)" is not WWI's
            return (lead[1] if lead else None) if name == paragraph.title else self._lead(name)

        def years_of(name: str) -> tuple[int, int] | None:
            return self._years_of_document(paragraph.doc_id) if name == paragraph.title else self._years_active(name)

        setting = Setting(lambda span: self._related(span, home), self._article_vectors, home,
                          lambda answer, names: links_between(answer, names, self._lead), self._named_by,
                          frozenset(bounding_years(paragraph.title, lead[1])) if lead else frozenset(), lead_of,
                          years_of, work_year(lead[1]) if lead else None, paragraph.section == "")
        made, dropped = cloze_drafts(paragraph.para_id, paragraph.title, paragraph.text,
                                     lambda: self._neighbour_spans(paragraph.doc_id), self.finder, self.encode,
                                     settings.per_paragraph, settings.variants, settings.seed, setting)
        return Drafted(made, [invalid_record(paragraph.para_id, text, reason, self.name) for text, reason in dropped])

    def _related(self, span: Span, home: np.ndarray) -> list[Span]:
        """Titles the knowledge base gives the answer's type, their articles nearest the answer's
        own and the paragraph's (`home`) first ("Mindanao", an island -> "Sumatra", "Borneo", …)."""
        stats = self.finder.stats
        doc_id = stats.document_of(span.text)
        if doc_id is None or doc_id not in self._documents:
            return []
        members = self._members(stats.type_of(span.text))
        scores = self._documents.of(members) @ (self._documents.of([doc_id])[0] + home)
        nearest = [members[i] for i in np.argsort(-scores, kind="stable") if members[i] != doc_id][:RELATED_TITLES]
        return [stats.as_span(d, span.kind) for d in nearest]

    def _article_vectors(self, names: list[str]) -> dict[str, np.ndarray]:
        """The vectors of the articles about these names, for those that have one."""
        rows = {name: self._documents.row(self.finder.stats.document_of(name)) for name in names}
        return {name: np.asarray(self._documents.vectors[row]) for name, row in rows.items() if row is not None}

    def _lead_paragraph(self, name: str) -> tuple[int, str] | None:
        """(para_id, text) of the first paragraph of the article about this name, if the knowledge base has one."""
        doc_id = self.finder.stats.document_of(name)
        return None if doc_id is None else self._lead_of_document(doc_id)

    def _lead_of_document(self, doc_id: int) -> tuple[int, str] | None:
        return remembered(self._leads, doc_id, LEADS_KEPT, lambda: self._first_paragraph(doc_id))

    def _first_paragraph(self, doc_id: int) -> tuple[int, str] | None:
        paragraphs = self.store.texts_of_documents([doc_id])
        return paragraphs[0] if paragraphs else None

    def _years_active(self, name: str) -> tuple[int, int] | None:
        """years_active of the article about this name (every paragraph), if the knowledge base has one."""
        doc_id = self.finder.stats.document_of(name)
        return None if doc_id is None else self._years_of_document(doc_id)

    def _years_of_document(self, doc_id: int) -> tuple[int, int] | None:
        return remembered(self._active, doc_id, LEADS_KEPT,
                          lambda: years_active(text for _, text in self.store.texts_of_documents([doc_id])))

    def _lead(self, name: str) -> str | None:
        lead = self._lead_paragraph(name)
        return lead[1] if lead else None

    def _named_by(self, span: Span) -> list[Span]:
        """The names of the answer's kind that the lead of its own article names."""
        lead = self._lead_paragraph(span.text)
        return [found for found in self.finder.distractor_spans(*lead) if found.kind == span.kind] if lead else []

    def _members(self, noun: str) -> list[int]:
        """The documents of a type that have vectors, at most TYPE_SAMPLE of them (seeded), sorted."""
        if noun not in self._type_members:
            typed = self.finder.stats.members(noun)  # at the full dump, hundreds of thousands for "person"
            members = [d for d, known in zip(typed, self._documents.present(typed).tolist(), strict=True) if known]
            if len(members) > TYPE_SAMPLE:
                rng = np.random.default_rng(self.settings.seed)
                members = rng.choice(members, TYPE_SAMPLE, replace=False).tolist()
            self._type_members[noun] = sorted(members, key=self._documents.row)
        return self._type_members[noun]

    def _needs_distractors(self, paragraph: Paragraph) -> bool:
        """Whether a span of the paragraph passes every check made before distractors are sought."""
        return any(problem_before_distractors(span, paragraph.title, self.finder.stats, paragraph.text) is None
                   for span in self.finder.spans(paragraph.para_id, paragraph.text))

    def _neighbour_spans(self, doc_id: int) -> list[Span]:
        """The spans of the nearest documents' paragraphs, tagged in one batch."""
        neighbours = self._neighbour_paragraphs(doc_id)
        self.finder.prime([], neighbours)
        return [span for para_id, text in neighbours for span in self.finder.distractor_spans(para_id, text)]

    def _neighbour_paragraphs(self, doc_id: int) -> list[tuple[int, str]]:
        """(para_id, text) of the documents nearest to this one, nearest first."""
        vector = self._documents.of([doc_id])
        _, ids = self.index.search(vector, self.settings.neighbours, exclude=[doc_id])
        return self.store.texts_of_documents(ids[0].tolist())
