"""Every phrasing gets its own seeded option order, so the answer's position carries no signal."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable

import numpy as np

from sea.choices import LETTERS
from sea.questions.model import Draft, Question, base_id


def permutation_for(seed: int, base_question_id: str, variant: int) -> list[int]:
    key = hashlib.blake2b(f"{seed}\x1f{base_question_id}\x1f{variant}".encode(), digest_size=8).digest()
    return np.random.default_rng(int.from_bytes(key, "big")).permutation(len(LETTERS)).tolist()


def phrasings_to_questions(para_id: int, draft: Draft, phrasings: list[str], generator: str, seed: int) -> list[Question]:
    """Variant 0 is the question as written; each phrasing is shown with its own permutation."""
    base = base_id(para_id, draft)
    questions = []
    for variant, text in enumerate([draft.question, *phrasings]):
        order = permutation_for(seed, base, variant)
        questions.append(Question(
            para_id=para_id, base_question_id=base, variant=variant, question=text,
            options=[draft.options[i] for i in order], gold_letter=LETTERS[order.index(draft.gold)],
            permutation=order, statement=draft.statement, generator=generator,
        ))
    return questions


def gold_letter_distribution(questions: Iterable[Question]) -> dict[str, float]:
    counts = Counter(q.gold_letter for q in questions)
    total = sum(counts.values()) or 1
    return {letter: round(counts[letter] / total, 4) for letter in LETTERS}
