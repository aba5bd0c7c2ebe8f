"""The question bank: questions written once per paragraph and reused by every arm and testee
that reaches it, so adding a testee or an arm adds no generator cost.

Each paragraph has one JSON file, written by the generate phase (base questions) and completed
by the rephrase phase (every phrasing, gated and de-duplicated). The duplicate filter remembers
every question kept before, so its verdicts depend on the order paragraphs were completed: that
order is recorded and replayed when a bank is reopened, and a resumed run decides as an
uninterrupted one would."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from sea.errors import SeaError
from sea.files import DamagedFile, read_json, write_json
from sea.llm.meter import Meter, metered
from sea.llm.types import EndpointFailing
from sea.questions.generate import REPHRASING, Drafted, QuestionGenerator
from sea.questions.grading import askable
from sea.questions.model import DUPLICATE, INVALID, UNSUPPORTED, UNVERIFIED, Question, question_from_record, question_record
from sea.questions.writer import CUT_REPLY

_VERDICTS = {UNSUPPORTED: "rejected by the verifier", DUPLICATE: "near-duplicate of an earlier question"}


class QuestionBank:
    def __init__(self, directory: Path, generator: QuestionGenerator):
        self.directory = directory
        self.generator = generator
        self._entries: dict[int, dict] = {}
        completed = []
        for path in directory.glob("*.json"):
            try:
                entry = read_json(path)
                entry["para_id"]
            except (DamagedFile, KeyError, TypeError) as error:
                problem = error.problem if isinstance(error, DamagedFile) else "not a question-bank entry"
                raise DamagedFile(path, problem, "delete it and resume: the paragraph's questions are written again "
                                                 "(an LLM writer's replies come from the response cache)") from None
            self._entries[entry["para_id"]] = entry
            if "questions" in entry:
                completed.append(entry)
        self._next_order = len(completed)
        self._unusable: list[list[Question]] = []  # a model writer's latest paragraphs in a row with no askable question
        in_order = [entry["para_id"] for entry in sorted(completed, key=lambda e: e["order"])]
        for para_id in in_order:
            self.generator.duplicates.apply(self.questions(para_id))
        if self.generator.generator is not None:  # a resumed run stops again before paying, at the same setting
            self._note_usable(in_order)

    def _save(self, entry: dict) -> None:
        self._entries[entry["para_id"]] = entry
        write_json(self.directory / f"{entry['para_id']}.json", entry, indent=None)

    def drafted(self, para_ids: list[int]) -> int:
        """The generate phase for the paragraphs that have no base questions yet; returns how many."""
        todo = [p for p in dict.fromkeys(para_ids) if p not in self._entries]
        if todo:
            self._stop_if_the_writer_gives_nothing()
        self.generator.prepare(todo)

        async def one(para_id: int) -> tuple[Drafted, Meter]:
            with metered() as meter:
                drafted = await self.generator.draft(self.generator.paragraph(para_id))
            return drafted, meter

        for para_id, (drafted, meter) in zip(todo, self._gather([one(p) for p in todo]), strict=True):
            self._save({"para_id": para_id, **drafted.to_json(), "draft_usage": meter.to_json()})
        return len(todo)

    def phrased(self, para_ids: list[int]) -> int:
        """The rephrase phase for drafted paragraphs not yet completed; returns how many. Phrasings
        are written concurrently; the duplicate filter then runs in batch order."""
        todo = [p for p in dict.fromkeys(para_ids) if "questions" not in self._entries[p]]

        async def one(para_id: int) -> tuple[list[Question], Meter]:
            with metered() as meter:
                paragraph = self.generator.paragraph(para_id)
                questions = await self.generator.phrase(paragraph, Drafted.from_json(self._entries[para_id]))
            return questions, meter

        phrased = self._gather([one(p) for p in todo])
        unverified = [q for questions, _ in phrased for q in questions if q.verdict == UNVERIFIED]
        if unverified:  # kept, they would be dropped for good with no verdict; the batch is redone on resume instead
            model = self.generator.verifier.settings.model
            raise EndpointFailing(f"{model}: {len(unverified)} of the batch's questions could not be verified (last: "
                                  f"{unverified[-1].reason}), so this step is not kept; "
                                  f"check the verifier with `sea models check {model}` and resume the run once it answers")
        for para_id, (questions, meter) in zip(todo, phrased, strict=True):
            self.generator.duplicates.apply(questions)
            self._save({**self._entries[para_id], "questions": [question_record(q) for q in questions],
                        "phrase_usage": meter.to_json(), "order": self._next_order})
            self._next_order += 1
        self._note_usable(todo)
        self._stop_if_the_writer_gives_nothing()
        return len(todo)

    def _note_usable(self, para_ids: list[int]) -> None:
        for para_id in para_ids:
            questions = self.questions(para_id)
            self._unusable = [] if askable(questions) else [*self._unusable, questions]

    def _stop_if_the_writer_gives_nothing(self) -> None:
        """Stops the run (kept, to resume) once a model writer has given no askable question for its
        `stop_after_failures` latest paragraphs in a row: a step whose paragraphs have no question still
        counts as evaluated, so the audit would go on through the whole knowledge base, paying the writer at
        every step while the testee is never asked. The offline generator, free and keeping no question for
        most paragraphs by design, is never stopped."""
        writer = self.generator.generator
        if writer is None or len(self._unusable) < writer.settings.stop_after_failures:
            return
        reasons = Counter(q.reason.removeprefix(REPHRASING).split(":")[0] if q.verdict == INVALID
                          else _VERDICTS.get(q.verdict, q.verdict) for questions in self._unusable for q in questions)
        if reasons:
            reason, count = reasons.most_common(1)[0]
            why = f"the commonest reason, {count} of {reasons.total()} drops: {reason}"
        else:
            reason, why = "", "its replies held no question"
        fix = ("raise models.generator.max_tokens (a new run: it changes what the writer is asked)"
               if reason.startswith(CUT_REPLY) else f"see each question's reason in {self.directory}")
        raise SeaError(f"the question writer {writer.settings.model} gave no usable question for the last "
                       f"{len(self._unusable)} paragraphs in a row ({why}); {fix}; if those paragraphs truly hold "
                       "nothing to ask, resume with a higher models.generator.stop_after_failures")

    def questions(self, para_id: int) -> list[Question]:
        return [question_from_record(record) for record in self._entries[para_id]["questions"]]

    def usage(self, para_id: int) -> Meter:
        """What writing this paragraph's questions cost (or would have, without the response cache)."""
        entry = self._entries[para_id]
        total = Meter.from_json(entry["draft_usage"])
        for role, tally in Meter.from_json(entry.get("phrase_usage", {})).by_role.items():
            total.add(role, tally)
        return total

    def _gather(self, coroutines: list) -> list:
        if not coroutines:
            return []
        clients = [c for c in (self.generator.generator, self.generator.verifier) if c is not None]

        async def everything():
            return await asyncio.gather(*coroutines)

        # LLM clients must run on their own event loop (their connection pools live there).
        results = clients[0].run(everything()) if clients else asyncio.run(everything())
        if self.generator.generator is not None:
            # The writer records a call that failed for good as dropped; a batch that ends in an outage
            # is not kept, so a resumed run asks its paragraphs again.
            self.generator.generator.check_answering()
        return results
