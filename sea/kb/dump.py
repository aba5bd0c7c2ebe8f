"""Streaming reader for MediaWiki XML dumps (enwiki-*-pages-articles*.xml[.bz2]).

Memory stays bounded whatever the dump size: pages are decompressed and parsed as a stream
and converted in fixed-size batches, optionally across worker processes."""

from __future__ import annotations

import bz2
import io
import itertools
from collections.abc import Iterator
from multiprocessing import get_context
from pathlib import Path
from xml.etree.ElementTree import ParseError

import mwxml
from tqdm import tqdm

from sea.errors import SourceError
from sea.kb.schema import SkipCounts, SourceDocument, wikipedia_url
from sea.kb.wikitext import is_disambiguation, wikitext_sections

ARTICLE_NAMESPACE = 0


class _ProgressReader(io.RawIOBase):
    """Counts compressed bytes read, so the progress bar can show how far into the file we are."""

    def __init__(self, raw: io.BufferedReader, bar: tqdm):
        self._raw, self._bar = raw, bar

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self._raw.readinto(buffer)
        self._bar.update(n or 0)
        return n


def _convert(page: tuple[str, str]) -> SourceDocument:
    title, wikitext = page
    sections = wikitext_sections(wikitext)
    lead = sections[0][1] if sections and sections[0][0] == "" else ""
    return SourceDocument(title=title, abstract=lead, sections=sections, url=wikipedia_url(title))


def _article_pages(dump: mwxml.Dump, skips: SkipCounts) -> Iterator[tuple[str, str]]:
    for page in dump:
        if page.namespace != ARTICLE_NAMESPACE:
            skips.add("non-article namespace")
            continue
        if page.redirect:
            skips.add("redirect")
            continue
        text = ""
        for revision in page:  # pages-articles dumps carry one revision; keep the last
            text = revision.text or ""
        if not text.strip():
            skips.add("no text")
        elif is_disambiguation(page.title, text):
            skips.add("disambiguation")
        else:
            yield page.title, text


_READ_ERRORS = (OSError, EOFError, ParseError, mwxml.errors.MalformedXML)


def _page_batches(stream, skips: SkipCounts, batch_pages: int) -> Iterator[list[tuple[str, str]]]:
    pages = _article_pages(mwxml.Dump.from_file(stream), skips)
    while batch := list(itertools.islice(pages, batch_pages)):
        yield batch


def iter_dump(path: Path, skips: SkipCounts, workers: int = 1, batch_pages: int = 500,
              progress: bool = True) -> Iterator[SourceDocument]:
    opener = bz2.open if path.suffix == ".bz2" else open
    articles = 0
    with open(path, "rb") as raw, tqdm(total=path.stat().st_size, unit="B", unit_scale=True,
                                         desc=f"reading {path.name}", disable=not progress) as bar:
        batches = _page_batches(opener(io.BufferedReader(_ProgressReader(raw, bar)), "rb"), skips, batch_pages)
        pool = get_context("spawn").Pool(workers) if workers > 1 else None
        try:
            while True:
                try:
                    batch = next(batches, None)
                except _READ_ERRORS as error:
                    raise SourceError(
                        f"{path}: the dump is truncated or corrupt after {articles} articles "
                        f"({type(error).__name__}: {error}); download it again and compare its "
                        "checksum with the one published beside the dump"
                    ) from None
                if batch is None:
                    return
                articles += len(batch)
                yield from (pool.map(_convert, batch, chunksize=8) if pool else map(_convert, batch))
        finally:
            if pool:
                pool.terminate()
