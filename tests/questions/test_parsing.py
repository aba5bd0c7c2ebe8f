import pytest

from sea.questions.parsing import extract_json, parse_answer

REPLIES = [
    ("B", "B"), ("(C)", "C"), ("D.", "D"), ("Answer: D", "D"), ("**Answer: A**", "A"), ("Answer: (B) Paris", "B"),
    ("The answer is C.", "C"), ("Final answer: D", "D"), ("Answer - A", "A"), ("\\boxed{A}", "A"), ("$\\boxed{B}$", "B"),
    ("B) Paris", "B"), ("D: 1945", "D"),
    ("Let me think. A is wrong and B is wrong. Answer: C", "C"),
    # Traps: a sentence that merely starts with a capital letter is not an answer.
    ("According to history, the war ended in 1945.", None), ("Based on the clues, it is Paris.", None),
    ("A lot of people think so.", None), ("I think it's C", None), ("answer: b", None), ("E", None), ("", None),
    ("I cannot answer that.", None),
]


@pytest.mark.parametrize(("reply", "letter"), REPLIES)
def test_parse_answer(reply, letter):
    assert parse_answer(reply) == letter


def test_extract_json_from_fences_and_prose():
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('Sure! Here you go:\n```json\n{"a": [1, 2]}\n```\nHope it helps.') == {"a": [1, 2]}
    assert extract_json('Here: {"questions": []} — done.') == {"questions": []}
    assert extract_json("[1, 2, 3]") == [1, 2, 3]
    with pytest.raises(ValueError):
        extract_json("no json here")
    with pytest.raises(ValueError):
        extract_json('{"broken": ')


@pytest.mark.parametrize("reply", ['[{"question": "Q?"}]', 'Here: [{"question": "Q?"}] done', '```json\n[{"question": "Q?"}]\n```'])
def test_a_one_item_array_stays_an_array(reply):
    assert extract_json(reply) == [{"question": "Q?"}]
