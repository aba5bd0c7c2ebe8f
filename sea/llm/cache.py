"""Persistent response cache (SQLite): a re-run of the same work makes no paid call."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from sea.llm.types import Decoding, Message, ProviderReply
from sea.sqlite_store import connect


def cache_key(model: str, endpoint: str, messages: list[Message], decoding: Decoding) -> str:
    """Same model, endpoint, messages and decoding -> same key. The sample index only counts
    when sampling is random (temperature > 0), so greedy calls are shared and repeated samples are not."""
    payload = {
        "model": model,
        "endpoint": endpoint,
        "messages": messages,
        "temperature": decoding.temperature,
        "top_p": decoding.top_p,
        "max_tokens": decoding.max_tokens,
        "seed": decoding.seed,
        "sample": decoding.sample if decoding.temperature > 0 else 0,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, path: Path | None):
        self._db = connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, reply TEXT)")
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> ProviderReply | None:
        row = self._db.execute("SELECT reply FROM responses WHERE key = ?", (key,)).fetchone()
        reply = _decode(row[0]) if row else None
        if reply is None:
            self.misses += 1  # absent, or corrupt and so refreshed by the next put
        else:
            self.hits += 1
        return reply

    def put(self, key: str, model: str, reply: ProviderReply) -> None:
        encoded = json.dumps({"text": reply.text, "input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens})
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?)", (key, model, encoded))


def _decode(stored: object) -> ProviderReply | None:
    try:
        fields = json.loads(stored)
        reply = ProviderReply(str(fields["text"]), int(fields["input_tokens"]), int(fields["output_tokens"]))
    except (TypeError, ValueError, KeyError):
        return None
    return reply
