"""Wikimedia's multistream dumps, read shard by shard.

`…-pages-articles-multistream.xml.bz2` is a run of independent bz2 streams: the first holds the
`<mediawiki>` header and `<siteinfo>`, each next one 100 `<page>`s, the last the closing tag.
`…-multistream-index.txt.bz2` has one line per page, `offset:page_id:title`, the offset being
the byte where the page's stream starts. A shard is a run of consecutive streams: it is read
with one ranged read (a local path or any fsspec URL), decompressed and parsed on its own, so
shards can be converted on any worker in any order."""

from __future__ import annotations

import bz2
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import fsspec

from sea.errors import SourceError
from sea.kb.dump import article_documents, open_dump
from sea.kb.schema import SkipCounts, SourceDocument, SourceNotes

_INDEX_LINE = re.compile(rb"^(\d+):\d+:")
_FOOTER = b"</mediawiki>"


@dataclass(frozen=True)
class Shard:
    number: int
    start: int  # byte offset of its first stream
    end: int  # byte offset after its last stream


def index_path_for(dump: str) -> str:
    """Where Wikimedia puts a multistream dump's index: beside it, `-index.txt.bz2` for `.xml.bz2`."""
    return dump.removesuffix(".xml.bz2") + "-index.txt.bz2"


def _size(url: str) -> int:
    fs, path = fsspec.core.url_to_fs(url)
    return int(fs.size(path))


def stream_offsets(index: str) -> list[int]:
    """The distinct stream offsets the index names, ascending."""
    offsets: set[int] = set()
    try:
        with fsspec.open(index, "rb", compression="bz2" if index.endswith(".bz2") else None) as lines:
            for number, line in enumerate(lines, 1):
                match = _INDEX_LINE.match(line)
                if not match:
                    raise SourceError(f"{index}: line {number} is not `offset:page_id:title` ({line[:80]!r}); "
                                      "give the -multistream-index.txt.bz2 published with the dump")
                offsets.add(int(match.group(1)))
    except FileNotFoundError:
        raise SourceError(f"{index}: no such file: a multistream dump is read by shards through its index; download "
                          "the -multistream-index.txt.bz2 published beside it, or set kb.multistream_index") from None
    except (OSError, EOFError) as error:
        raise SourceError(f"{index}: is corrupt ({error}); download it again and compare its checksum") from None
    if not offsets:
        raise SourceError(f"{index}: is empty; give the -multistream-index.txt.bz2 published with the dump")
    return sorted(offsets)


def plan_shards(dump: str, index: str, streams_per_shard: int) -> tuple[int, list[Shard]]:
    """(where the header stream ends, the shards in dump order). The streams from the last offset the
    index names to the end of the file are decompressed first: a dump cut short there (an interrupted
    download) is refused before any shard is given out, not when the last one is converted."""
    offsets = stream_offsets(index)
    size = _size(dump)
    if offsets[-1] >= size:
        raise SourceError(f"{index}: names offset {offsets[-1]}, beyond the end of {dump} ({size} bytes): the dump is "
                          "cut short (an interrupted download) or the index belongs to another dump; compare the dump's "
                          "size and checksum with those published, and download the dump or its index again")
    _decompress(dump, offsets[-1], size)  # a dump cut inside its last streams: refused now, not after every other shard
    starts = offsets[::streams_per_shard]
    ends = [*starts[1:], size]
    return offsets[0], [Shard(n, start, end) for n, (start, end) in enumerate(zip(starts, ends, strict=True))]


def _read(dump: str, start: int, end: int) -> bytes:
    with fsspec.open(dump, "rb") as file:
        file.seek(start)
        return file.read(end - start)


def _every_stream(raw: bytes) -> bytes:
    """All the bz2 streams in raw, one after another. Not bz2.decompress: it drops, without a word,
    whatever follows a stream that is not a valid stream (a corrupt stream, and every one after it)."""
    parts = []
    while raw:
        stream = bz2.BZ2Decompressor()
        parts.append(stream.decompress(raw))
        if not stream.eof:
            raise EOFError("the last stream is cut short")
        raw = stream.unused_data
    return b"".join(parts)


def _decompress(dump: str, start: int, end: int) -> bytes:
    raw = _read(dump, start, end)
    if not raw.startswith(b"BZh"):
        raise SourceError(f"{dump}: no bz2 stream starts at byte {start}: its index does not match it (another "
                          "dump's index, or a dump that is not multistream); give the index published with this dump")
    try:
        return _every_stream(raw)
    except (OSError, ValueError, EOFError) as error:
        raise SourceError(f"{dump}: bytes {start}-{end} do not decompress ({error}): the dump is corrupt or its index does "
                          "not match it; download both again and compare their checksums") from None


def read_header(dump: str, header_end: int, index: str | None = None) -> bytes:
    """The `<mediawiki …>` opening tag and `<siteinfo>`: what every shard is parsed under. Refused
    when it holds pages: the index does not name the first page stream (an index cut at its head, or
    another dump's), whose pages would otherwise be dropped without a word."""
    header = _decompress(dump, 0, header_end)
    if b"<mediawiki" not in header[:2000]:
        raise SourceError(f"{dump}: its first stream is not a MediaWiki header; give a *-pages-articles-multistream.xml.bz2 dump")
    if b"<page>" in header:
        raise SourceError(f"{index or 'its index'}: does not name the first page stream of {dump} (bytes 0-{header_end}, "
                          "taken for the header, hold pages): the index is cut short at its head or belongs to another "
                          "dump; download the -multistream-index.txt.bz2 published with this dump again")
    return header


def shard_documents(dump: str, shard: Shard, header: bytes, skips: SkipCounts, notes: SourceNotes) -> Iterator[SourceDocument]:
    """The shard's articles, converted, in dump order."""
    pages = _decompress(dump, shard.start, shard.end).replace(_FOOTER, b"")
    stream = io.BytesIO(header + pages + _FOOTER)
    yield from article_documents(open_dump(stream, Path(dump), notes, say=False), Path(dump), skips, notes)


def write_multistream(pages_xml: bytes, dump: Path, index: Path, pages_per_stream: int = 100) -> None:
    """A multistream dump and its index from an uncompressed MediaWiki XML export, laid out as
    Wikimedia's are (tests and benchmarks make theirs this way; users may split a plain dump)."""
    head, _, rest = pages_xml.partition(b"<page>")
    body = (b"<page>" + rest).rsplit(_FOOTER, 1)[0]
    pages = [b"<page>" + chunk for chunk in body.split(b"<page>")[1:]]
    lines, offset = [], 0
    with open(dump, "wb") as out:
        offset += out.write(bz2.compress(head))
        for first in range(0, len(pages), pages_per_stream):
            group = pages[first:first + pages_per_stream]
            for page in group:
                title = re.search(rb"<title>(.*?)</title>", page)
                page_id = re.search(rb"<id>(\d+)</id>", page)
                lines.append(b"%d:%s:%s" % (offset, page_id.group(1) if page_id else b"0", title.group(1) if title else b""))
            offset += out.write(bz2.compress(b"".join(group)))
        out.write(bz2.compress(b"  " + _FOOTER + b"\n"))
    index.write_bytes(bz2.compress(b"\n".join(lines) + b"\n"))
