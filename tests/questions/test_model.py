import pyarrow.parquet as pq

from sea.questions.generate import invalid_record
from sea.questions.model import INVALID, QUESTION_SCHEMA, Draft, questions_table
from sea.questions.shuffle import phrasings_to_questions

DRAFT = Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, "Paris is the capital.")


def test_question_ids_are_content_hashes():
    first = phrasings_to_questions(3, DRAFT, ["Name France's capital."], "g", seed=0)
    again = phrasings_to_questions(3, DRAFT, ["Name France's capital."], "g", seed=0)
    assert [q.question_id for q in first] == [q.question_id for q in again]
    elsewhere = phrasings_to_questions(4, DRAFT, ["Name France's capital."], "g", seed=0)
    assert {q.question_id for q in first}.isdisjoint(q.question_id for q in elsewhere)


def test_questions_parquet_round_trip_keeps_dropped_records(tmp_path):
    questions = phrasings_to_questions(3, DRAFT, ["Name France's capital."], "g", seed=0)
    questions.append(invalid_record(3, "{'question': 'According to the passage...'}", "refers to the hidden passage", "g"))
    path = tmp_path / "questions.parquet"
    pq.write_table(questions_table(questions), path)
    table = pq.read_table(path)
    assert table.schema.equals(QUESTION_SCHEMA)
    rows = table.to_pylist()
    assert rows[0]["options"] == questions[0].options and rows[0]["permutation"] == questions[0].permutation
    assert rows[-1]["verdict"] == INVALID and rows[-1]["options"] == [] and rows[-1]["reason"] == "refers to the hidden passage"
