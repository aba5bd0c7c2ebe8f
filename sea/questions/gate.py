"""The quality gate: a verifier answers with the paragraph shown, and near-duplicates are dropped."""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from sea.choices import LETTERS
from sea.embeddings import Embedder
from sea.errors import ParamsError
from sea.llm.client import ModelClient
from sea.llm.types import REFUSED, CallFailure, Completion
from sea.questions.model import DUPLICATE, KEPT, UNSUPPORTED, UNVERIFIED, Question
from sea.questions.parsing import parse_answer
from sea.questions.prompts import open_book_messages
from sea.settings import QuestionSettings

Model = TypeVar("Model")  # a role's settings when the params are checked, its client when questions are written


def gate_verifier(questions: QuestionSettings, generator: Model | None, verifier: Model | None) -> Model | None:
    """Who verifies the written questions: models.verifier, else models.generator, when the gate is on (auto: for
    LLM-written questions only); None when it is off. gate: on with neither is refused."""
    if questions.gate == "off" or (questions.gate == "auto" and generator is None):
        return None
    if verifier is None and generator is None:
        raise ParamsError("questions.gate: on needs a verifier; set models.verifier (or models.generator), or gate: auto/off")
    return verifier or generator


async def verify(verifier: ModelClient, paragraph: str, questions: list[Question]) -> None:
    """Mark every phrasing the verifier gets wrong with the paragraph in view as unsupported;
    when the phrasing as written fails, its rephrasings go with it. A phrasing whose verifier call
    failed on the endpoint's side (an outage) or found no budget is marked unverified: the verifier
    said nothing about it, and the batch is asked again. One whose request the endpoint refused (a
    400: a content filter, a prompt too long) would be refused again, so it is unsupported."""
    pending = [q for q in questions if q.verdict == KEPT]
    results, _ = await verifier.complete_many([open_book_messages(paragraph, q.question, q.options) for q in pending])
    failed_bases = set()
    for question, result in zip(pending, results, strict=True):
        if isinstance(result, CallFailure) and not result.endpoint_side:
            question.verdict, question.reason = UNSUPPORTED, f"not verified: {result.reason}"
        elif not isinstance(result, Completion):
            question.verdict, question.reason = UNVERIFIED, result.reason if result else "no budget left for the verifier"
            continue
        elif (letter := parse_answer(result.text)) == question.gold_letter:
            continue
        else:
            question.verdict = UNSUPPORTED
            question.reason = (f"the verifier refused it: {result.text[:200]}" if result.text.startswith(REFUSED) else
                               f"verifier, shown the paragraph, answered {letter or 'unparseably'} (gold {question.gold_letter})")
        if question.variant == 0:
            failed_bases.add(question.base_question_id)
    for question in questions:
        if question.base_question_id in failed_bases and question.verdict == KEPT:
            question.verdict = UNSUPPORTED
            question.reason = "the question as written failed verification"


class DuplicateFilter:
    """Remembers the base questions kept so far in a run and drops a new one that asks for the
    same answer in nearly the same words (cosine similarity of question embeddings at or above
    the threshold). Requiring the same answer keeps two blanks cut from one sentence apart."""

    def __init__(self, embedder: Embedder, threshold: float):
        self.embedder = embedder
        self.threshold = threshold
        self._kept: dict[str, np.ndarray] = {}  # normalised answer -> question vectors

    def apply(self, questions: list[Question]) -> None:
        bases = [q for q in questions if q.variant == 0 and q.verdict == KEPT]
        if not bases:
            return
        duplicates = {}
        for question, vector in zip(bases, self.embedder.encode([q.question for q in bases]), strict=True):
            answer = " ".join(question.options[LETTERS.index(question.gold_letter)].lower().split())
            earlier = self._kept.get(answer)
            similarity = float((earlier @ vector).max()) if earlier is not None else 0.0
            if similarity >= self.threshold:
                duplicates[question.base_question_id] = similarity
            else:
                self._kept[answer] = vector[None, :] if earlier is None else np.vstack([earlier, vector])
        for question in questions:
            if question.base_question_id in duplicates and question.verdict == KEPT:
                question.verdict = DUPLICATE
                question.reason = f"near-duplicate of an earlier question with the same answer (similarity {duplicates[question.base_question_id]:.3f})"
