"""Streaming reader for MediaWiki XML dumps (*wiki-*-pages-articles*.xml[.bz2]).

Memory stays bounded whatever the dump size: pages are decompressed and parsed as a stream
and converted in fixed-size batches, optionally across worker processes."""

from __future__ import annotations

import bz2
import io
import itertools
import logging
from collections.abc import Iterable, Iterator
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import BinaryIO
from xml.etree.ElementTree import ParseError
from xml.parsers.expat import errors as expat_errors

import mwxml
from mwxml.element_iterator import ElementIterator
from tqdm import tqdm

from sea.errors import SourceError
from sea.kb.schema import SkipCounts, SourceDocument, SourceNotes, wikipedia_url
from sea.kb.wikitext import is_disambiguation, wikitext_sections

log = logging.getLogger(__name__)

ARTICLE_NAMESPACE = 0
# Reference-like sections, disambiguation pages and file/category links are recognised by English names only.
SECTION_NAME_LANGUAGES = frozenset({"en"})
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_ENDS_EARLY = expat_errors.codes[expat_errors.XML_ERROR_NO_ELEMENTS]
_DOWNLOAD_AGAIN = "download it again and compare its checksum with the one published beside the dump"
_EXPECTED = "kb.input must be a MediaWiki *-pages-articles*.xml or .xml.bz2 dump"
_READ_ERRORS = (OSError, EOFError, ParseError, mwxml.errors.MalformedXML)


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


def _convert(page: tuple[str, str], base_url: str, drop_by_name: bool) -> SourceDocument | str:
    """The page as a document, or why its wikitext could not be converted."""
    title, wikitext = page
    try:
        sections = wikitext_sections(wikitext, drop_by_name)
    except Exception as error:  # mwparserfromhell has known crashes on odd pages; one must not end a build
        return f"{type(error).__name__}: {error}"
    lead = sections[0][1] if sections and sections[0][0] == "" else ""
    url = wikipedia_url(title, base_url) if base_url else ""
    return SourceDocument(title=title, abstract=lead, sections=sections, url=url)


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


def open_dump(stream: BinaryIO, path: Path, notes: SourceNotes, say: bool = True) -> mwxml.Dump:
    """The dump with its <siteinfo> read; its language and article URL base go into notes."""
    try:
        root = ElementIterator.from_file(stream)
    except ParseError as error:
        parser_message = error.__context__ or error  # mwxml re-raises with 500 bytes of the file appended
        raise SourceError(f"{path}: is not XML ({parser_message}); {_EXPECTED}") from None
    if root.tag != "mediawiki":
        raise SourceError(f"{path}: is XML but not a MediaWiki dump (its root element is <{root.tag}>, not <mediawiki>); {_EXPECTED}")
    notes.language = root.attr(_XML_LANG)
    dump = mwxml.Dump.from_element(root)
    base = dump.site_info.base or ""
    # <base> is the main page's URL, e.g. https://bg.wikipedia.org/wiki/Начална_страница
    notes.site_base_url = base[: base.rfind("/") + 1] or None
    if notes.site_base_url is None:
        notes.warnings.append(f"{path}: the dump's <siteinfo> has no <base> URL, so its documents have no URL")
    if notes.language not in SECTION_NAME_LANGUAGES:
        language = repr(notes.language) if notes.language else "unknown (the dump has no xml:lang)"
        notes.warnings.append(
            f"{path}: sections are not filtered by name for language {language}: only English section names "
            "('References', 'External links', ...), disambiguation templates and File:/Category: links are known, so "
            "this dump's reference sections, disambiguation pages and file/category links are kept as text")
    for warning in notes.warnings if say else ():  # a shard's are said once, by the merge
        log.warning(warning)
    return dump


def _read_error(path: Path, error: Exception) -> SourceError:
    if isinstance(error, EOFError) or (isinstance(error, ParseError) and error.code == _ENDS_EARLY):
        problem = f"is truncated ({error}); {_DOWNLOAD_AGAIN}"
    elif isinstance(error, ParseError):
        problem = f"has malformed XML ({error}); {_DOWNLOAD_AGAIN}, or fix the program that wrote it"
    elif isinstance(error, mwxml.errors.MalformedXML):
        problem = f"is not in the MediaWiki export format ({error}); {_EXPECTED}"
    else:  # OSError: the bz2 data fails its checks, or the disk read failed
        problem = f"is corrupt ({error}); {_DOWNLOAD_AGAIN}"
    return SourceError(f"{path}: {problem}")


def _page_batches(dump: mwxml.Dump, skips: SkipCounts, batch_pages: int) -> Iterator[list[tuple[str, str]]]:
    pages = _article_pages(dump, skips)
    while batch := list(itertools.islice(pages, batch_pages)):
        yield batch


def _converted(pages: list[tuple[str, str]], documents: Iterable[SourceDocument | str], path: Path,
               skips: SkipCounts) -> Iterator[SourceDocument]:
    for (title, _), document in zip(pages, documents, strict=True):
        if isinstance(document, str):
            skips.add("unconvertible wikitext")
            log.warning("%s: skipped page %r: its wikitext could not be converted (%s)", path, title, document)
        else:
            yield document


def article_documents(dump: mwxml.Dump, path: Path, skips: SkipCounts, notes: SourceNotes) -> Iterator[SourceDocument]:
    """A parsed dump's articles, converted in this process (a shard of a multistream dump)."""
    convert = partial(_convert, base_url=notes.site_base_url or "", drop_by_name=notes.language in SECTION_NAME_LANGUAGES)
    try:
        for batch in _page_batches(dump, skips, 500):
            yield from _converted(batch, map(convert, batch), path, skips)
    except _READ_ERRORS as error:
        raise _read_error(path, error) from None


def iter_dump(path: Path, skips: SkipCounts, workers: int = 1, batch_pages: int = 500,
              progress: bool = True, notes: SourceNotes | None = None) -> Iterator[SourceDocument]:
    notes = notes if notes is not None else SourceNotes()
    compressed = path.suffix == ".bz2"
    if compressed:
        with open(path, "rb") as head:
            magic = head.read(3)
        if magic != b"BZh":
            raise SourceError(f"{path}: is not bz2-compressed (it starts with {magic!r}, not b'BZh'); give the .xml.bz2 "
                              "dump as published, or an uncompressed dump under a name ending in .xml")
    with open(path, "rb") as raw, tqdm(total=path.stat().st_size, unit="B", unit_scale=True,
                                         desc=f"reading {path.name}", disable=not progress) as bar:
        stream = io.BufferedReader(_ProgressReader(raw, bar))
        try:
            dump = open_dump(bz2.BZ2File(stream) if compressed else stream, path, notes)
        except _READ_ERRORS as error:
            raise _read_error(path, error) from None
        convert = partial(_convert, base_url=notes.site_base_url or "",
                          drop_by_name=notes.language in SECTION_NAME_LANGUAGES)
        batches = _page_batches(dump, skips, batch_pages)
        pool = get_context("spawn").Pool(workers) if workers > 1 else None
        try:
            while True:
                try:
                    batch = next(batches, None)
                except _READ_ERRORS as error:
                    raise _read_error(path, error) from None
                if batch is None:
                    return
                documents = pool.map(convert, batch, chunksize=8) if pool else map(convert, batch)
                yield from _converted(batch, documents, path, skips)
        finally:
            if pool:
                pool.terminate()
