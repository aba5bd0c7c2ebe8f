import sqlite3

import numpy as np

from sea.sqlite_store import text_key
from sea.vector_cache import VectorCache


def test_round_trip_and_model_separation(tmp_path):
    path = tmp_path / "cache.sqlite"
    keys = [text_key("a"), text_key("b")]
    vectors = np.arange(8, dtype=np.float32).reshape(2, 4)
    VectorCache(path, "model-a").put_many(keys, vectors)
    found = VectorCache(path, "model-a").get_many(keys + [text_key("c")], 4)
    assert set(found) == set(keys)
    np.testing.assert_array_equal(found[keys[1]], vectors[1])
    assert VectorCache(path, "model-b").get_many(keys, 4) == {}


def test_corrupt_entry_is_ignored_and_refreshed(tmp_path):
    path = tmp_path / "cache.sqlite"
    cache = VectorCache(path, "m")
    key = text_key("x")
    cache.put_many([key], np.ones((1, 4), dtype=np.float32))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE vectors SET vector = ?", (b"\x00\x01\x02",))
    assert cache.get_many([key], 4) == {}
    cache.put_many([key], np.full((1, 4), 2.0, dtype=np.float32))
    np.testing.assert_array_equal(cache.get_many([key], 4)[key], np.full(4, 2.0, dtype=np.float32))


def test_many_keys_are_looked_up_in_batches(tmp_path):
    cache = VectorCache(None, "m")
    keys = [text_key(str(i)) for i in range(2500)]
    cache.put_many(keys, np.zeros((2500, 2), dtype=np.float32))
    assert len(cache.get_many(keys, 2)) == 2500
