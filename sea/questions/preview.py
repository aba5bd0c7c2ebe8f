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


def preview(params: Params, para_id: int | None = None) -> str:
    models = build_models(params, roles=("generator", "verifier"))
    generator = QuestionGenerator(params, knowledge_base_embedder(params),
                                  models.clients.get("generator"), models.clients.get("verifier"))
    if para_id is None:
        para_id = generator.store.ids_at([int(np.random.default_rng().integers(len(generator.store)))])[0]  # any one, unseeded
    paragraph = generator.paragraph(para_id)
    questions = asyncio.run(generator.for_paragraph(paragraph))
    lines = [f"{paragraph.title}{' > ' + paragraph.section if paragraph.section else ''}  (para_id {para_id})",
             paragraph.text, "", f"generator: {generator.name}; gate: {'on' if generator.verifier else 'off'}", ""]
    for number, (_, group) in enumerate(groupby(questions, key=lambda q: q.base_question_id), start=1):
        lines += _describe(number, list(group))
    kept = sum(q.verdict == KEPT for q in questions)
    lines.append(f"{kept} of {len(questions)} phrasings kept.")
    return "\n".join(lines)


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
