from sea.choices import LETTERS
from sea.questions.model import Draft
from sea.questions.shuffle import gold_letter_distribution, phrasings_to_questions


def test_each_variant_has_its_own_recorded_permutation():
    draft = Draft("Which city is the capital of France?", ("Paris", "Lyon", "Lille", "Nice"), 0, "Paris is the capital.")
    questions = phrasings_to_questions(7, draft, ["What is France's capital?", "Name the French capital."], "g", seed=0)
    assert [q.variant for q in questions] == [0, 1, 2]
    assert len({q.base_question_id for q in questions}) == 1 and len({q.question_id for q in questions}) == 3
    for q in questions:
        assert q.options == [draft.options[i] for i in q.permutation]
        assert q.options[LETTERS.index(q.gold_letter)] == "Paris"
    again = phrasings_to_questions(7, draft, ["What is France's capital?", "Name the French capital."], "g", seed=0)
    assert [q.permutation for q in again] == [q.permutation for q in questions]  # seeded
    other = phrasings_to_questions(7, draft, ["What is France's capital?", "Name the French capital."], "g", seed=1)
    assert [q.permutation for q in other] != [q.permutation for q in questions]


def test_gold_letters_are_near_uniform():
    questions = []
    for i in range(4000):
        draft = Draft(f"Question number {i}?", ("w", "x", "y", "z"), i % 4, "")
        questions += phrasings_to_questions(i, draft, [], "g", seed=0)
    distribution = gold_letter_distribution(questions)
    assert set(distribution) == set(LETTERS) and all(abs(v - 0.25) < 0.03 for v in distribution.values())  # 4 s.d.
