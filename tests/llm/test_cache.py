import sqlite3

from sea.llm.cache import ResponseCache, cache_key
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
    with sqlite3.connect(path) as db:
        db.execute("UPDATE responses SET reply = '{\"text\": \"trunc'")
    reopened = ResponseCache(path)
    assert reopened.get("k") is None and reopened.misses == 1
    reopened.put("k", "m", ProviderReply("Answer: C", 10, 2))
    assert reopened.get("k").text == "Answer: C" and reopened.hits == 1
