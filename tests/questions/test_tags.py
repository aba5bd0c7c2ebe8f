"""The tag cache: what one process tagged, another reads instead of tagging again."""

import sqlite3

from sea.questions.entities import EntityFinder, forget_tagged
from sea.questions.kinds import CorpusStats
from sea.questions.tags import TagCache

TEXT = "The Nile flows through Sudan and Egypt. It was crossed by Napoleon's army in 1798."


def test_a_second_process_reads_the_tags_instead_of_tagging(tmp_path, monkeypatch):
    path = tmp_path / "entities.sqlite"
    first = EntityFinder(CorpusStats([]), path)
    spans = first.spans(1, TEXT)
    neighbour = first.distractor_spans(2, TEXT)
    assert {s.text for s in spans} >= {"Sudan", "Egypt", "1798"} and all(s.sentence for s in spans)
    assert {s.text for s in neighbour} == {s.text for s in spans} and not any(s.sentence for s in neighbour)

    forget_tagged()  # a new process: nothing in memory
    second = EntityFinder(CorpusStats([]), path)
    monkeypatch.setattr(second.nlp, "pipe", lambda *a, **k: (_ for _ in ()).throw(AssertionError("tagged again")))
    assert second.spans(1, TEXT) == spans and second.distractor_spans(2, TEXT) == neighbour

    with sqlite3.connect(path) as db:  # rows of another shape: tagged again, not a crash
        db.execute("UPDATE tags SET found = '[[\"place\"]]'")
    forget_tagged()
    third = EntityFinder(CorpusStats([]), path)
    assert third.spans(1, TEXT) == spans and third.distractor_spans(2, TEXT) == neighbour


def test_tags_of_another_tagger_or_a_damaged_row_are_not_read(tmp_path):
    path = tmp_path / "entities.sqlite"
    TagCache(path, "model-1/code-a").put_many({TEXT: [["place", "Sudan", "", False]], "x": [["year", "1798", "", False]]}, "entities")
    assert TagCache(path, "model-1/code-a").get_many([TEXT, "unseen"], "entities") == {TEXT: [["place", "Sudan", "", False]]}
    assert TagCache(path, "model-1/code-b").get_many([TEXT], "entities") == {}  # the code that reads entities changed
    assert TagCache(path, "model-1/code-a").get_many([TEXT], "sentences") == {}
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tags SET found = 'not json'")
    assert TagCache(path, "model-1/code-a").get_many([TEXT, "x"], "entities") == {}  # tagged again, not a crash


def test_a_second_process_reads_the_options_in_place_from_the_cache(tmp_path, monkeypatch):
    path = tmp_path / "entities.sqlite"
    questions = [("The Nile flows through _____ and Egypt.", ["Sudan", "the Jews", "1798", "Chad"]),
                 ("It was crossed by _____ army in 1798.", ["Napoleon's", "Caesar's", "Nelson's", "Wellington's"])]
    read = EntityFinder(CorpusStats([]), path).read_many(questions)
    assert read[0][0].kind == "place" and read[0][1].plural and read[0][2].kind == "year"

    forget_tagged()
    second = EntityFinder(CorpusStats([]), path)
    monkeypatch.setattr(second.nlp, "pipe", lambda *a, **k: (_ for _ in ()).throw(AssertionError("read again")))
    assert second.read_many(questions) == read
    assert EntityFinder(CorpusStats([])).read_many(questions) == read  # and without a cache, read the same way

    with sqlite3.connect(path) as db:  # rows of another shape: read again, not a crash
        db.execute("UPDATE tags SET found = '[[\"place\", false, \"extra\"]]' WHERE tagger LIKE '%/readings'")
    forget_tagged()
    assert EntityFinder(CorpusStats([]), path).read_many([*questions, questions[0]]) == [*read, read[0]]
