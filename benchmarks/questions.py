"""The offline question generator on 1,000 vital10k paragraphs, and the local SmolLM2 answering
those questions without and with the paragraph shown.

Run with `make bench-questions` (after `make audit`). Writes reports/benchmarks/questions.json and .md."""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter

from report import write_report

from sea.embeddings import Embedder, embedding_cache_path
from sea.llm.cache import ResponseCache
from sea.llm.registry import build_models
from sea.questions.generate import QuestionGenerator
from sea.questions.grading import answer_record
from sea.questions.model import KEPT, Outcome
from sea.questions.prompts import open_book_messages, testee_messages
from sea.questions.shuffle import gold_letter_distribution
from sea.settings import load_params

COMMAND = "make bench-questions"
PARAGRAPHS, ASKED, SEED = 1000, 500, 0


def bench_generation(generator: QuestionGenerator) -> tuple[dict, list, dict]:
    paragraphs = generator.store.table.sample(PARAGRAPHS, random_state=SEED)
    started = time.perf_counter()
    questions = []
    for para_id in paragraphs["para_id"].tolist():
        questions += asyncio.run(generator.for_paragraph(generator.paragraph(para_id)))
    seconds = time.perf_counter() - started
    kept = [q for q in questions if q.verdict == KEPT]
    covered = {q.para_id for q in kept}
    report = {
        "generator": generator.name, "paragraphs": PARAGRAPHS,
        "share_with_valid_question": round(len(covered) / PARAGRAPHS, 4),
        "base_questions_kept": sum(q.variant == 0 for q in kept), "phrasings_kept": len(kept),
        "verdicts": dict(Counter(q.verdict for q in questions)),
        "seconds": round(seconds, 1), "questions_per_second": round(len(kept) / seconds, 1),
        "paragraphs_per_second": round(PARAGRAPHS / seconds, 2),
        "gold_letter_distribution": gold_letter_distribution(kept),
    }
    texts = dict(zip(paragraphs["para_id"], paragraphs["text"], strict=True))
    return report, kept, texts


def bench_smollm2(params, kept: list, texts: dict) -> dict:
    """Closed-book vs open-book accuracy on the written question (variant 0) of ASKED base questions."""
    local = params.models.testee.model_copy(update={"model": "local:smollm2-135m"})
    params = params.model_copy(update={"models": params.models.model_copy(update={"testee": local}),
                                       "budget": params.budget.model_copy(update={"testee_calls": None})})
    testee = build_models(params, roles=("testee",)).clients["testee"]
    testee.cache = ResponseCache(None)  # time real answers, not the response cache
    asked = [q for q in kept if q.variant == 0][:ASKED]
    report = {"model": local.model, "questions": len(asked)}
    for label, prompt in (("closed_book", lambda q: testee_messages(q.question, q.options)),
                          ("open_book", lambda q: open_book_messages(texts[q.para_id], q.question, q.options))):
        started = time.perf_counter()
        results, _ = testee.run(testee.complete_many([prompt(q) for q in asked]))
        records = [answer_record(q, local.model, r) for q, r in zip(asked, results, strict=True)]
        outcomes = [record["outcome"] for record in records]
        report[f"{label}_accuracy"] = round(outcomes.count(Outcome.CORRECT) / len(asked), 4)
        report[f"{label}_letters_chosen"] = dict(sorted(Counter(r["parsed_letter"] for r in records).items()))
        report[f"{label}_seconds"] = round(time.perf_counter() - started, 1)
    return report


def to_markdown(report: dict) -> str:
    g, s = report["generation"], report["smollm2"]
    letters = ", ".join(f"{k} {v:.1%}" for k, v in g["gold_letter_distribution"].items())
    return "\n".join([
        "# Question benchmark", "",
        f"Command: `{report['command']}` on {report['machine']['cpus']} CPUs, {report['date']}; "
        f"{g['paragraphs']} vital10k paragraphs drawn with seed {SEED}.", "",
        "| measure | value |", "| --- | --- |",
        f"| paragraphs with ≥ 1 valid question ({g['generator']}) | {g['share_with_valid_question']:.1%} |",
        f"| kept | {g['base_questions_kept']} base questions, {g['phrasings_kept']} phrasings; verdicts {g['verdicts']} |",
        f"| speed | {g['questions_per_second']} phrasings/s ({g['paragraphs_per_second']} paragraphs/s, {g['seconds']} s) |",
        f"| gold-letter distribution | {letters} |",
        f"| {s['model']} accuracy, closed book ({s['questions']} questions) | {s['closed_book_accuracy']:.1%} ({s['closed_book_seconds']} s) |",
        f"| {s['model']} accuracy, paragraph shown | {s['open_book_accuracy']:.1%} ({s['open_book_seconds']} s) |",
        f"| letters {s['model']} chose (closed / open book) | {s['closed_book_letters_chosen']} / {s['open_book_letters_chosen']} |",
        "", "Chance is 25%. SmolLM2-135M answers at chance with or without the paragraph: it picks letters by position",
        "(see the row above), not by reading, so this comparison cannot show answerability; a stronger reader is",
        "needed for that. The offline generator's gold answers are spans of their paragraphs by construction, and",
        "checked.",
    ]) + "\n"


def main() -> None:
    params = load_params()
    generator = QuestionGenerator(params, Embedder(params.embedding, embedding_cache_path(params)))
    generation, kept, texts = bench_generation(generator)
    report = {"command": COMMAND, "date": time.strftime("%Y-%m-%d"), "machine": {"cpus": os.cpu_count()},
              "generation": generation, "smollm2": bench_smollm2(params, kept, texts)}
    write_report("questions", report, to_markdown(report))


if __name__ == "__main__":
    main()
