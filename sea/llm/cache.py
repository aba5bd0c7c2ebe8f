"""Persistent response cache (SQLite): a re-run of the same work makes no paid call."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from sea.llm.types import Decoding, Message, ProviderReply, usable_token_count
from sea.sqlite_store import connect, writing

log = logging.getLogger(__name__)


def cache_key(model: str, endpoint: str, messages: list[Message], decoding: Decoding, scope: str = "") -> str:
    """Same model, endpoint, messages and decoding -> same key. The sample index only counts
    when sampling is random (temperature > 0), so greedy calls are shared and repeated samples are
    not. A scope keeps replies apart that must be asked afresh (a recurring audit asks the model
    of today, not last week's replies under the same name)."""
    payload = {
        "model": model,
        "endpoint": endpoint,
        "messages": messages,
        "temperature": decoding.temperature,
        "top_p": decoding.top_p,
        "max_tokens": decoding.max_tokens,
        "seed": decoding.seed,
        "sample": decoding.sample if decoding.temperature > 0 else 0,
        **({"scope": scope} if scope else {}),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


class ResponseCache:
    """Every row carries a checksum of its key and reply: a row changed or damaged on disk (a
    letter edited, a token count gone negative) is not trusted but refetched, and counted in
    `rejected`. Rows of a cache written before checksums existed are signed once, when it is
    first opened."""

    def __init__(self, path: Path | None):
        self._path, self._db = path, connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, reply TEXT, checksum TEXT)")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(responses)")}
        if "checksum" not in columns:
            with self._db:
                self._db.execute("ALTER TABLE responses ADD COLUMN checksum TEXT")
                rows = self._db.execute("SELECT key, reply FROM responses").fetchall()
                self._db.executemany("UPDATE responses SET checksum = ? WHERE key = ?",
                                     [(_checksum(key, reply), key) for key, reply in rows])
        self.hits = 0
        self.misses = 0
        self.rejected = 0

    def get(self, key: str) -> ProviderReply | None:
        row = self._db.execute("SELECT reply, checksum FROM responses WHERE key = ?", (key,)).fetchone()
        reply = None
        if row:
            reply = _decode(row[0]) if row[1] == _checksum(key, row[0]) else None
            if reply is None:
                self.rejected += 1
                log.warning("response cache: the row for key %s… failed its checks; asking the model again", key[:12])
        if reply is None:
            self.misses += 1  # absent, or rejected and so replaced by the next put
        else:
            self.hits += 1
        return reply

    def has(self, key: str) -> bool:
        """Whether a reply is stored under the key (checked, and counted, only when it is read)."""
        return self._db.execute("SELECT 1 FROM responses WHERE key = ?", (key,)).fetchone() is not None

    def put(self, key: str, model: str, reply: ProviderReply) -> None:
        encoded = json.dumps({"text": reply.text, "input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens,
                              **({"cut": True} if reply.cut else {}),  # rows of whole replies stay as they were
                              **({"served": reply.served} if reply.served else {})})
        with writing(self._db, self._path):
            self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?)",
                             (key, model, encoded, _checksum(key, encoded)))


def _checksum(key: str, reply: object) -> str:
    return hashlib.sha256(f"{key}\0{reply}".encode()).hexdigest()


def _decode(stored: object) -> ProviderReply | None:
    """The reply, or None unless it has the right fields, types and ranges."""
    try:
        fields = json.loads(stored)
    except (TypeError, ValueError):
        return None
    if not isinstance(fields, dict):
        return None
    text, tokens, cut = fields.get("text"), (fields.get("input_tokens"), fields.get("output_tokens")), fields.get("cut", False)
    served = fields.get("served")
    if (not isinstance(text, str) or not all(usable_token_count(n) for n in tokens) or not isinstance(cut, bool)
            or not isinstance(served, str | None)):
        return None
    return ProviderReply(text, *tokens, cut, served)
