"""A question as written, its phrasings, and its records with a stable schema."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import StrEnum

import pyarrow as pa

# Gate verdicts
KEPT = "kept"
INVALID = "invalid"  # failed the schema checks (kept for the record)
UNSUPPORTED = "unsupported"  # the verifier, shown the paragraph, did not reach the gold answer
DUPLICATE = "duplicate"  # too similar to a question kept earlier in the run
UNVERIFIED = "unverified"  # the verifier's call failed or found no budget: no verdict, never kept in the bank (QuestionBank.phrased)


@dataclass(frozen=True)
class Draft:
    """A base question as a writer produced it: four options in the writer's order."""

    question: str
    options: tuple[str, ...]
    gold: int  # index into options
    statement: str  # one sentence stating the fact

    @property
    def answer(self) -> str:
        return self.options[self.gold]


@dataclass
class Question:
    """One phrasing (variant) of a base question, with its own option order."""

    para_id: int
    base_question_id: str
    variant: int  # 0: as written; 1..: rephrasings
    question: str
    options: list[str]  # in the order shown to the testee
    gold_letter: str
    permutation: list[int]  # options[i] == draft.options[permutation[i]]
    statement: str
    generator: str
    verdict: str = KEPT
    reason: str = ""
    question_id: str = field(init=False)

    def __post_init__(self) -> None:
        self.question_id = content_id(self.para_id, self.question, self.options, self.gold_letter)


def content_id(para_id: int, question: str, options: list[str] | tuple[str, ...], gold: str | int) -> str:
    payload = json.dumps([para_id, question, list(options), gold], ensure_ascii=False)
    return hashlib.blake2b(payload.encode("utf-8"), digest_size=10).hexdigest()


def base_id(para_id: int, draft: Draft) -> str:
    return content_id(para_id, draft.question, draft.options, draft.gold)


QUESTION_SCHEMA = pa.schema([
    ("question_id", pa.string()),
    ("para_id", pa.int64()),
    ("base_question_id", pa.string()),
    ("variant", pa.int32()),
    ("question", pa.string()),
    ("options", pa.list_(pa.string())),
    ("gold_letter", pa.string()),
    ("permutation", pa.list_(pa.int32())),
    ("statement", pa.string()),
    ("generator", pa.string()),
    ("verdict", pa.string()),
    ("reason", pa.string()),
])


class Outcome(StrEnum):
    """What became of one question put to the testee (the `outcome` column of answers.parquet)."""

    CORRECT = "correct"
    WRONG = "wrong"
    UNPARSEABLE = "unparseable"  # counted as wrong, as the paper did
    FAILED = "failed"  # the call failed: counted neither right nor wrong


ANSWER_SCHEMA = pa.schema([
    ("question_id", pa.string()),
    ("testee", pa.string()),
    ("raw_reply", pa.string()),
    ("parsed_letter", pa.string()),  # null when unparseable or failed
    ("outcome", pa.string()),  # an Outcome
    ("input_tokens", pa.int64()),
    ("output_tokens", pa.int64()),
    ("cost_usd", pa.float64()),  # null: unknown price
    ("latency_s", pa.float64()),
    ("cached", pa.bool_()),
])


def question_record(question: Question) -> dict:
    return {name: getattr(question, name) for name in QUESTION_SCHEMA.names}


def question_from_record(record: dict) -> Question:
    """The inverse of question_record; the id is recomputed from the content, so a tampered
    record cannot keep an id that no longer matches it."""
    return Question(**{name: record[name] for name in QUESTION_SCHEMA.names if name != "question_id"})


def questions_table(questions: list[Question]) -> pa.Table:
    return pa.Table.from_pylist([question_record(q) for q in questions], schema=QUESTION_SCHEMA)
