import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sea.errors import SourceError
from sea.kb.records import iter_jsonl, iter_parquet, markdown_sections
from sea.kb.schema import SkipCounts
from tests.conftest import write_jsonl

PAPER_RECORD = {
    "id": 12,
    "name": "Anarchism",
    "abstract": "Anarchism is a political philosophy and movement.",
    "url": "https://en.wikipedia.org/wiki/Anarchism",
    "wikitext": "Anarchism is a political philosophy.\n\n# History\n\n## Origins\nThe earliest themes appear in Laozi.\n"
                "## Modern era\nThe modern movement began in the 19th century.\n# See also\n- Libertarianism\n",
}


def test_markdown_sections_keep_the_heading_path():
    sections = markdown_sections(PAPER_RECORD["wikitext"])
    assert sections == [
        ("", "Anarchism is a political philosophy."),
        ("History", ""),
        ("History > Origins", "The earliest themes appear in Laozi."),
        ("History > Modern era", "The modern movement began in the 19th century."),
    ]


def test_a_line_separator_inside_a_line_is_a_space_not_a_line_that_starts_a_section():
    """str.splitlines ends lines at U+2028 (and U+0085, form feed, ...); Markdown ends them at newlines only."""
    text = "Anarchism is a political philosophy.\u2028# 1 in the list of isms\x85of its century.\n# History\nIt began."
    assert markdown_sections(text) == [
        ("", "Anarchism is a political philosophy. # 1 in the list of isms of its century."),
        ("History", "It began."),
    ]


def test_paper_format_jsonl(tmp_path):
    path = write_jsonl(tmp_path / "kb.jsonl", [PAPER_RECORD])
    [document] = iter_jsonl(path, SkipCounts())
    assert document.title == "Anarchism"
    assert document.abstract == PAPER_RECORD["abstract"]
    assert document.url == PAPER_RECORD["url"]
    assert [path for path, _ in document.sections][:3] == ["", "History", "History > Origins"]


def test_plain_title_text_records_take_the_first_text_as_abstract(tmp_path):
    path = write_jsonl(tmp_path / "kb.jsonl", [{"title": "Salt", "text": "Salt is a mineral.\n\nIt is mostly NaCl.",
                                                "category": "Natural and physical sciences"}])
    [document] = iter_jsonl(path, SkipCounts())
    assert document.abstract == "Salt is a mineral.\n\nIt is mostly NaCl."
    assert document.label == "Natural and physical sciences"
    assert document.url.endswith("/wiki/Salt")


def test_bad_lines_are_counted_not_fatal(tmp_path):
    path = write_jsonl(tmp_path / "kb.jsonl", [
        {"title": "Good", "text": "A fine text."},
        b'{"title": "Latin", "text": "caf\xe9"}',
        b"{not json",
        b"[1, 2]",
        {"title": "", "text": "no title"},
        {"title": "No text"},
    ])
    skips = SkipCounts()
    assert [doc.title for doc in iter_jsonl(path, skips)] == ["Good"]
    assert skips.counts == {"invalid UTF-8": 1, "invalid JSON": 2, "missing title or text": 2}


def test_a_byte_order_mark_does_not_lose_the_first_record(tmp_path):
    path = tmp_path / "kb.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"title": "First", "text": "A text."}\n{"title": "Second", "text": "Another."}\n')
    skips = SkipCounts()
    assert [doc.title for doc in iter_jsonl(path, skips)] == ["First", "Second"]
    assert skips.counts == {}


def test_parquet_records(tmp_path):
    path = tmp_path / "kb.parquet"
    pq.write_table(pa.Table.from_pylist([PAPER_RECORD, {**PAPER_RECORD, "name": "Anarchy"}]), path)
    assert [doc.title for doc in iter_parquet(path, SkipCounts())] == ["Anarchism", "Anarchy"]


def test_unreadable_parquet_is_a_clear_error(tmp_path):
    path = tmp_path / "kb.parquet"
    path.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(SourceError, match="not a readable Parquet file"):
        list(iter_parquet(path, SkipCounts()))


def test_a_lone_surrogate_escape_is_counted_as_invalid_utf8_not_a_crash(tmp_path):
    # a bug hunt: JSON takes "\ud800", and the build crashed hashing the title (or storing the text)
    path = write_jsonl(tmp_path / "kb.jsonl", [
        b'{"title": "\\ud800 Lisbon", "text": "A title with half a surrogate pair."}',
        b'{"title": "Porto", "text": "Half a pair in the text \\udc00 here."}',
        b'{"title": "Smile \\ud83d\\ude00", "text": "A whole pair is an emoji: kept."}',
    ])
    skips = SkipCounts()
    assert [doc.title for doc in iter_jsonl(path, skips)] == ["Smile \N{GRINNING FACE}"]
    assert skips.counts == {"invalid UTF-8": 2}


def test_a_table_of_both_formats_keeps_the_plain_rows(tmp_path):
    # a bug hunt: a null wikitext (a Parquet column the plain rows leave empty) dropped them as missing a text
    path = tmp_path / "kb.parquet"
    plain = {"name": None, "wikitext": None, "title": "Salt", "text": "Salt is a mineral."}
    pq.write_table(pa.Table.from_pylist([{**PAPER_RECORD, "title": None, "text": None}, plain]), path)
    skips = SkipCounts()
    assert [doc.title for doc in iter_parquet(path, skips)] == ["Anarchism", "Salt"]
    assert skips.counts == {}
