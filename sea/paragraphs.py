"""Paragraphs of retrieved documents and their embeddings, computed lazily.

The paragraphs live on disk, in a SQLite file beside the knowledge base (`<kb_dir>.paragraphs.sqlite`,
sea.kb.derived) made once from its Parquet files and remade when they change: a search reads only the
paragraphs of the documents it retrieves, so memory does not grow with the knowledge base (the
full dump's 28.8M paragraphs never sit in RAM). Rows keep one order, by document id and then
as the dump gives them, so a seeded draw over them is the same whatever the store.

Only documents a search actually retrieves get their paragraphs embedded; the embedder's
vector cache keeps them, so asking again (or resuming a run) costs a lookup, not a model call."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from tqdm import tqdm

from sea.embeddings import Embedder, titled_text
from sea.kb.derived import derived_store
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE

COLUMNS = ["para_id", "doc_id", "section", "text", "title"]
_SELECT = "SELECT p.para_id, p.doc_id, p.section, p.text, d.title FROM paragraphs p LEFT JOIN documents d USING (doc_id)"
_LOOKUP_BATCH = 900  # bound parameters per query, under SQLite's limit on old builds
_BUILD_BATCH = 65_536
_LAYOUT = 3  # bumped when the tables change: an older store is made again


def _fill(kb_dir: Path, db: sqlite3.Connection, progress: bool) -> None:
    """The store's tables from the Parquet files, in batches; rank is the row's place in (doc_id, file order),
    id_place its 0-based place in para_id order (a seeded draw's order, found without listing every id)."""
    db.execute("CREATE TABLE loaded (position INTEGER PRIMARY KEY, para_id INTEGER, doc_id INTEGER, section TEXT, text TEXT)")
    parquet = pq.ParquetFile(kb_dir / PARAGRAPHS_FILE)
    with tqdm(total=parquet.metadata.num_rows, unit="paragraph", unit_scale=True, desc="paragraph store (made once)",
              disable=not progress) as bar:
        for batch in parquet.iter_batches(batch_size=_BUILD_BATCH, columns=["para_id", "doc_id", "section", "text"]):
            db.executemany("INSERT INTO loaded (para_id, doc_id, section, text) VALUES (?, ?, ?, ?)",
                           zip(*(batch.column(c).to_pylist() for c in ("para_id", "doc_id", "section", "text")), strict=True))
            bar.update(batch.num_rows)
        bar.set_postfix_str("ordering and indexing")
        _order_and_index(kb_dir, db)


def _order_and_index(kb_dir: Path, db: sqlite3.Connection) -> None:
    """The loaded paragraphs in (doc_id, file order) with their places in para_id order, and the documents' titles."""
    db.execute("CREATE TABLE paragraphs (rank INTEGER PRIMARY KEY, para_id INTEGER UNIQUE, doc_id INTEGER, section TEXT, text TEXT, "
               "id_place INTEGER)")
    db.execute("INSERT INTO paragraphs (para_id, doc_id, section, text, id_place) "
               "SELECT para_id, doc_id, section, text, ROW_NUMBER() OVER (ORDER BY para_id) - 1 FROM loaded ORDER BY doc_id, position")
    db.execute("DROP TABLE loaded")
    db.execute("CREATE INDEX paragraphs_by_document ON paragraphs (doc_id)")
    db.execute("CREATE UNIQUE INDEX paragraphs_by_id_place ON paragraphs (id_place)")
    db.execute("CREATE TABLE documents (doc_id INTEGER PRIMARY KEY, title TEXT, category TEXT)")
    for batch in pq.ParquetFile(kb_dir / DOCUMENTS_FILE).iter_batches(batch_size=_BUILD_BATCH, columns=["doc_id", "title", "category"]):
        db.executemany("INSERT OR IGNORE INTO documents VALUES (?, ?, ?)",
                       zip(*(batch.column(c).to_pylist() for c in ("doc_id", "title", "category")), strict=True))


def _document_ids(doc_ids: Iterable[int]) -> list[int]:
    """Each document id once, in order; an index's -1 (no result) left out."""
    return sorted({int(d) for d in doc_ids if d >= 0})


class ParagraphStore:
    """A knowledge base's paragraphs with their document's title, looked up by document or by id."""

    def __init__(self, kb_dir: Path, progress: bool = False):
        """Made from the knowledge base when missing or out of date: minutes for the full dump's
        28.8M paragraphs (`progress`: under a progress bar)."""
        self._db = derived_store(kb_dir, "paragraphs", _LAYOUT, lambda db: _fill(kb_dir, db, progress))

    def __len__(self) -> int:
        return self._db.execute("SELECT COALESCE(MAX(rank), 0) FROM paragraphs").fetchone()[0]  # ranks run 1..n: no scan

    def __contains__(self, para_id: int) -> bool:
        return self._db.execute("SELECT 1 FROM paragraphs WHERE para_id = ?", (int(para_id),)).fetchone() is not None

    def _rows(self, where: str, values: Sequence[int], select: str = _SELECT) -> list[tuple]:
        rows = []
        for start in range(0, len(values), _LOOKUP_BATCH):
            batch = [int(v) for v in values[start:start + _LOOKUP_BATCH]]
            rows += self._db.execute(f"{select} WHERE {where} IN ({','.join('?' * len(batch))}) ORDER BY p.rank", batch).fetchall()
        return rows

    def _frame(self, where: str, values: Sequence[int]) -> pd.DataFrame:
        rows = self._rows(where, values)
        if not rows:
            return pd.DataFrame(rows, columns=COLUMNS).astype({"para_id": "int64", "doc_id": "int64"})
        # Column by column: five times faster than from rows, and lookups are most of what a search does here.
        return pd.DataFrame({name: np.array(values, dtype=np.int64) if name in ("para_id", "doc_id") else list(values)
                             for name, values in zip(COLUMNS, zip(*rows), strict=True)})

    def of_documents(self, doc_ids: Iterable[int]) -> pd.DataFrame:
        """The documents' paragraphs (para_id, doc_id, section, text, title), by document id, then in the dump's order."""
        return self._frame("p.doc_id", _document_ids(doc_ids))

    def texts_of_documents(self, doc_ids: Sequence[int]) -> list[tuple[int, str]]:
        """(para_id, text) of the documents' paragraphs: the documents in the order given, each one's
        paragraphs in the dump's order. (Plain rows: the question generator asks this hundreds of
        times a second, and a DataFrame would cost more than the query.)"""
        by_document: dict[int, list[tuple[int, str]]] = {}
        for para_id, doc_id, text in self._rows("p.doc_id", _document_ids(doc_ids),
                                                "SELECT p.para_id, p.doc_id, p.text FROM paragraphs p"):
            by_document.setdefault(doc_id, []).append((para_id, text))
        return [pair for d in doc_ids for pair in by_document.get(int(d), [])]

    def rows(self, para_ids: Iterable[int]) -> pd.DataFrame:
        """The paragraphs with these ids, indexed by para_id (a KeyError names an unknown one)."""
        wanted = [int(p) for p in para_ids]
        frame = self._frame("p.para_id", sorted(set(wanted))).set_index("para_id", drop=False)
        missing = set(wanted) - set(frame.index)
        if missing:
            raise KeyError(f"no paragraph with para_id {min(missing)} in the knowledge base")
        return frame.loc[wanted]

    def record(self, para_id: int) -> tuple[int, int, str | None, str, str | None]:
        """The paragraph's (para_id, doc_id, section, text, title), as plain values (a KeyError names an unknown id)."""
        try:
            found = self._db.execute(f"{_SELECT} WHERE p.para_id = ?", (int(para_id),)).fetchone()
        except OverflowError:  # beyond SQLite's 64-bit integers: not an id
            found = None
        if found is None:
            raise KeyError(f"no paragraph with para_id {para_id} in the knowledge base")
        return found

    def row(self, para_id: int) -> pd.Series:
        found = self.record(para_id)
        return pd.Series(dict(zip(COLUMNS, found, strict=True)), name=found[0])

    def para_ids(self) -> np.ndarray:
        """Every paragraph id, in the store's order."""
        return np.fromiter((r for (r,) in self._db.execute("SELECT para_id FROM paragraphs ORDER BY rank")), dtype=np.int64)

    def id_places(self, para_ids: Iterable[int]) -> np.ndarray:
        """The 0-based places, in para_id order, of those of these paragraphs the store has (unsorted)."""
        wanted = [int(p) for p in para_ids]
        return np.array([place for (place,) in self._rows("p.para_id", wanted, "SELECT p.id_place FROM paragraphs p")], dtype=np.int64)

    def ids_at(self, places: Sequence[int]) -> list[int]:
        """The para_ids at these 0-based places in para_id order, in the order given."""
        found = dict(self._rows("p.id_place", list(places), "SELECT p.id_place, p.para_id FROM paragraphs p"))
        return [found[int(place)] for place in places]

    def texts(self, ranks: Sequence[int] | None = None) -> Iterator[str]:
        """Paragraph texts in the store's order: all of them, or those at the given 0-based ranks."""
        if ranks is None:
            yield from (t for (t,) in self._db.execute("SELECT text FROM paragraphs ORDER BY rank"))
            return
        ranks = sorted(int(r) + 1 for r in ranks)
        for start in range(0, len(ranks), _LOOKUP_BATCH):
            batch = ranks[start:start + _LOOKUP_BATCH]
            yield from (t for (t,) in self._db.execute(
                f"SELECT text FROM paragraphs WHERE rank IN ({','.join('?' * len(batch))}) ORDER BY rank", batch))

    def category_of(self, doc_id: int) -> str | None:
        found = self._db.execute("SELECT category FROM documents WHERE doc_id = ?", (int(doc_id),)).fetchone()
        return found[0] if found else None

    def document_of(self, para_id: int) -> int:
        found = self._db.execute("SELECT doc_id FROM paragraphs WHERE para_id = ?", (int(para_id),)).fetchone()
        if found is None:
            raise KeyError(f"no paragraph with para_id {para_id} in the knowledge base")
        return found[0]


class DocumentCategories:
    """doc_id -> category, read from the store on demand (`get` as a dict's)."""

    def __init__(self, store: ParagraphStore):
        self.store = store

    def get(self, doc_id: int, default: str = "") -> str:
        return self.store.category_of(doc_id) or default


class DocumentOf:
    """para_id -> doc_id, read from the store on demand (a mapping the search loop can index)."""

    def __init__(self, store: ParagraphStore):
        self.store = store

    def __getitem__(self, para_id: int) -> int:
        return self.store.document_of(para_id)


class ParagraphEmbeddings:
    """Paragraph vectors for a given set of documents, embedded on first request."""

    def __init__(self, store: ParagraphStore, embedder: Embedder):
        self.store = store
        self.embedder = embedder

    def for_documents(self, doc_ids: Iterable[int]) -> tuple[pd.DataFrame, np.ndarray]:
        """The documents' paragraphs (para_id, doc_id, section, text, title) and their vectors, row-aligned."""
        paragraphs = self.store.of_documents(doc_ids)
        texts = [titled_text(title, text) for title, text in zip(paragraphs["title"], paragraphs["text"], strict=True)]
        return paragraphs, self.embedder.encode(texts)

    def vectors_of(self, para_ids: Sequence[int]) -> np.ndarray:
        """The paragraphs' vectors, in the order given."""
        rows = self.store.rows(para_ids)
        return self.embedder.encode([titled_text(title, text) for title, text in zip(rows["title"], rows["text"], strict=True)])
