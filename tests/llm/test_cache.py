import sqlite3

import pytest

from sea.llm.cache import ResponseCache, _checksum, cache_key
from sea.llm.types import Decoding, ProviderReply

MESSAGES = [{"role": "user", "content": "Which? A) x B) y"}]


def test_key_depends_on_everything_that_changes_the_reply():
    base = cache_key("openai:gpt-4o", "openai", MESSAGES, Decoding())
    assert base == cache_key("openai:gpt-4o", "openai", [dict(m) for m in MESSAGES], Decoding())
    assert base != cache_key("openai:gpt-4o-mini", "openai", MESSAGES, Decoding())
    assert base != cache_key("openai:gpt-4o", "http://127.0.0.1:8000/v1", MESSAGES, Decoding())
    assert base != cache_key("openai:gpt-4o", "openai", MESSAGES, Decoding(max_tokens=32))
    # Greedy-ish decoding ignores the sample index, real sampling does not.
    assert cache_key("m", "e", MESSAGES, Decoding(temperature=0, sample=3)) == cache_key("m", "e", MESSAGES, Decoding(temperature=0))
    assert cache_key("m", "e", MESSAGES, Decoding(temperature=0.7, sample=1)) != cache_key("m", "e", MESSAGES, Decoding(temperature=0.7))


def test_hits_misses_and_a_corrupt_entry_is_refreshed(tmp_path):
    path = tmp_path / "responses.sqlite"
    cache = ResponseCache(path)
    assert cache.get("k") is None
    cache.put("k", "m", ProviderReply("Answer: B", 10, 2))
    assert ResponseCache(path).get("k") == ProviderReply("Answer: B", 10, 2)
    cache.put("named", "m", ProviderReply("Answer: B", 10, 2, served="gpt-4o-mini-2024-07-18"))  # the name kept with it
    assert ResponseCache(path).get("named").served == "gpt-4o-mini-2024-07-18"
    with sqlite3.connect(path) as db:
        db.execute("UPDATE responses SET reply = '{\"text\": \"trunc'")
    reopened = ResponseCache(path)
    assert reopened.get("k") is None and reopened.misses == 1
    reopened.put("k", "m", ProviderReply("Answer: C", 10, 2))
    assert reopened.get("k").text == "Answer: C" and reopened.hits == 1


@pytest.mark.reliability
@pytest.mark.parametrize("tamper", [
    "UPDATE responses SET reply = replace(reply, 'Answer: B', 'Answer: A')",  # a letter changed: parses, but is not what was stored
    "UPDATE responses SET reply = replace(reply, '\"input_tokens\": 10', '\"input_tokens\": -994233')",
    "UPDATE responses SET checksum = 'x'",
])
def test_a_row_changed_on_disk_is_refetched_and_counted(tmp_path, tamper):
    path = tmp_path / "responses.sqlite"
    ResponseCache(path).put("k", "m", ProviderReply("Answer: B", 10, 2))
    with sqlite3.connect(path) as db:
        db.execute(tamper)
    reopened = ResponseCache(path)
    assert reopened.get("k") is None and reopened.rejected == 1 and reopened.misses == 1


@pytest.mark.reliability
@pytest.mark.parametrize("reply", ['{"text": "A", "input_tokens": -1, "output_tokens": 2}', '{"text": 3, "input_tokens": 1, "output_tokens": 2}',
                                   '{"text": "A", "input_tokens": 1.5, "output_tokens": 2}', '["A", 1, 2]'])
def test_rows_of_the_wrong_type_or_range_are_rejected_even_with_a_valid_checksum(tmp_path, reply):
    path = tmp_path / "responses.sqlite"
    cache = ResponseCache(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO responses VALUES ('k', 'm', ?, ?)", (reply, _checksum("k", reply)))
    assert cache.get("k") is None and cache.rejected == 1


def test_a_cache_written_before_checksums_is_signed_once_and_keeps_its_replies(tmp_path):
    path = tmp_path / "responses.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, model TEXT, reply TEXT)")
        db.execute("INSERT INTO responses VALUES ('k', 'm', '{\"text\": \"Answer: D\", \"input_tokens\": 4, \"output_tokens\": 1}')")
    assert ResponseCache(path).get("k") == ProviderReply("Answer: D", 4, 1)
