"""`sea questions preview`: one paragraph's questions, phrasings and verdicts, to judge by eye."""

from __future__ import annotations

import asyncio
from itertools import groupby

import numpy as np

from sea.choices import LETTERS
from sea.embeddings import knowledge_base_embedder
from sea.llm.registry import build_models
from sea.questions.generate import QuestionGenerator
from sea.questions.model import KEPT, Question
from sea.settings import Params


RANDOM_TRIES = 30  # paragraphs drawn, without --para-id, until one keeps a question


def preview(params: Params, para_id: int | None = None) -> str:
    """One paragraph's questions; without `para_id`, the first of up to RANDOM_TRIES random paragraphs (unseeded)
    that keeps one (most of the offline default's keep none; a model generator's nearly all do, at the first try),
    else the last drawn."""
    models = build_models(params, roles=("generator", "verifier"))
    generator = QuestionGenerator(params, knowledge_base_embedder(params),
                                  models.clients.get("generator"), models.clients.get("verifier"))
    store = generator.store
    drawn = [para_id] if para_id is not None else store.ids_at(
        np.random.default_rng().choice(len(store), min(RANDOM_TRIES, len(store)), replace=False).tolist())
    for tried, chosen in enumerate(drawn, start=1):
        paragraph = generator.paragraph(chosen)
        questions = asyncio.run(generator.for_paragraph(paragraph))
        if questions_kept(questions):
            break
    lines = [f"{paragraph.title}{' > ' + paragraph.section if paragraph.section else ''}  (para_id {chosen})",
             paragraph.text, "", f"generator: {generator.name}; gate: {'on' if generator.verifier else 'off'}"]
    if para_id is None and tried > 1:
        lines.append(f"({tried - 1} random paragraph{'s' if tried > 2 else ''} drawn before this one kept no question)"
                     if questions_kept(questions) else f"(none of {tried} random paragraphs kept a question; this is the last)")
    lines.append("")
    for number, (_, group) in enumerate(groupby(questions, key=lambda q: q.base_question_id), start=1):
        lines += _describe(number, list(group))
    lines.append(f"{questions_kept(questions)} of {len(questions)} phrasings kept.")
    return "\n".join(lines)


def questions_kept(questions: list[Question]) -> int:
    return sum(q.verdict == KEPT for q in questions)


def _describe(number: int, phrasings: list[Question]) -> list[str]:
    first = phrasings[0]
    if not first.options:
        return [f"Q{number} dropped ({first.verdict}: {first.reason}): {first.question}", ""]
    answer = first.options[LETTERS.index(first.gold_letter)]
    lines = [f"Q{number}  answer: {answer}   fact: {first.statement}"]
    for q in phrasings:
        verdict = "" if q.verdict == KEPT else f"   [{q.verdict}: {q.reason}]"
        options = "  ".join(f"{'*' if letter == q.gold_letter else ' '}{letter}) {option}" for letter, option in zip(LETTERS, q.options))
        lines += [f"  v{q.variant}: {q.question}{verdict}", f"      {options}"]
    return lines + [""]
