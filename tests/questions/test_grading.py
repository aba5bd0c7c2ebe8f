
from sea.llm.types import CallFailure, Completion
from sea.questions import prompts
from sea.questions.grading import (
    answer_record,
    answers_table,
    tally,
)
from sea.questions.model import Draft, Outcome
from sea.questions.shuffle import phrasings_to_questions

QUESTION = phrasings_to_questions(1, Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, ""),
                                  [], "g", 0)[0]


def completion(text):
    return Completion(text, 20, 3, 0.0001, 0.2, False, "openai:gpt-4o-mini")


def test_outcomes():
    wrong = next(letter for letter in "ABCD" if letter != QUESTION.gold_letter)
    records = [answer_record(QUESTION, "t", completion(f"Answer: {QUESTION.gold_letter}")),
               answer_record(QUESTION, "t", completion(f"Answer: {wrong}")),
               answer_record(QUESTION, "t", completion("According to history, it is Paris.")),
               answer_record(QUESTION, "t", CallFailure("HTTP 500", 6, "t"))]
    assert [r["outcome"] for r in records] == [Outcome.CORRECT, Outcome.WRONG, Outcome.UNPARSEABLE, Outcome.FAILED]
    assert records[2]["parsed_letter"] is None and records[3]["raw_reply"] == "HTTP 500"
    table = answers_table(records)
    assert table.num_rows == 4 and table.column("outcome").to_pylist()[1] == Outcome.WRONG


def test_tally_counts_unparseable_as_wrong_and_failed_calls_nowhere():
    assert tally([Outcome.CORRECT, Outcome.WRONG, Outcome.UNPARSEABLE, Outcome.CORRECT, Outcome.FAILED]) == (4, 2)
    assert tally(["failed"]) == (0, 0)  # read back from Parquet, outcomes are plain strings


def test_testee_prompt_has_no_section_hint_unless_asked():
    plain = prompts.testee_messages(QUESTION.question, QUESTION.options)[0]["content"]
    assert "Topic:" not in plain and "Answer: X" in plain and "A) " in plain
    hinted = prompts.testee_messages(QUESTION.question, QUESTION.options, hint="France > Politics")[0]["content"]
    assert "Topic: France > Politics" in hinted
