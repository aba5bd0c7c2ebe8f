import bz2
import gzip
from xml.sax.saxutils import escape

import mwparserfromhell
import pandas as pd
import pytest

from sea.errors import SourceError
from sea.kb.build import build_knowledge_base
from sea.kb.dump import iter_dump
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE, SkipCounts
from sea.kb.wikitext import wikitext_sections


@pytest.fixture(scope="module")
def sample_documents(enwiki_sample):
    skips = SkipCounts()
    return list(iter_dump(enwiki_sample, skips, progress=False)), skips


def test_excerpt_articles_redirects_and_disambiguation(sample_documents):
    documents, skips = sample_documents
    # The excerpt holds 206 pages: 106 articles in namespace 0, 99 redirects, 1 project page.
    # 8 of the 106 are disambiguation pages ("Alien", "Ada", "Austin (disambiguation)", ...).
    assert skips.counts == {"redirect": 99, "non-article namespace": 1, "disambiguation": 8}
    assert len(documents) == 98
    titles = {doc.title for doc in documents}
    assert "Anarchism" in titles and "Ada" not in titles and "Austin (disambiguation)" not in titles


def test_sections_have_paths_and_plain_text(sample_documents):
    documents, _ = sample_documents
    anarchism = next(doc for doc in documents if doc.title == "Anarchism")
    paths = [path for path, _ in anarchism.sections]
    assert paths[0] == ""  # the lead comes first
    assert "History > Origins" in paths
    assert not any(path.split(" > ")[0] in ("References", "External links", "See also") for path in paths)
    text = "\n".join(body for _, body in anarchism.sections)
    for markup in ("[[", "]]", "{{", "}}", "<ref", "'''", "thumb|"):
        assert markup not in text


def test_lead_section_is_the_abstract(sample_documents):
    documents, _ = sample_documents
    anarchism = next(doc for doc in documents if doc.title == "Anarchism")
    assert anarchism.abstract == anarchism.sections[0][1]
    assert anarchism.abstract.startswith("Anarchism is a political philosophy")


def test_parallel_workers_give_the_same_documents(sample_documents, enwiki_sample):
    documents, _ = sample_documents
    parallel = list(iter_dump(enwiki_sample, SkipCounts(), workers=2, batch_pages=16, progress=False))
    assert [(d.title, d.sections) for d in parallel] == [(d.title, d.sections) for d in documents]


def test_build_from_the_excerpt_writes_the_schema(make_params, enwiki_sample):
    params = make_params(kb={"source": "enwiki-sample", "input": enwiki_sample, "chunk_documents": 40})
    report = build_knowledge_base(params, progress=False)
    documents = pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE)
    paragraphs = pd.read_parquet(params.paths.kb_dir / PARAGRAPHS_FILE)
    assert report["documents"] == len(documents) == 98
    assert set(paragraphs["doc_id"]) == set(documents["doc_id"])
    assert (documents["category_source"] == "embedding").all()
    assert paragraphs["text"].str.len().min() >= params.kb.min_paragraph_chars
    assert paragraphs["text"].str.len().max() <= params.kb.max_paragraph_chars


def _corrupt_copies(enwiki_sample, tmp_path):
    data = enwiki_sample.read_bytes()
    truncated = tmp_path / "truncated.xml.bz2"
    truncated.write_bytes(data[: len(data) // 2])
    garbled = tmp_path / "garbled.xml.bz2"
    garbled.write_bytes(data[:1000] + bytes(255 - b for b in data[1000:3000]) + data[3000:])
    return truncated, garbled


@pytest.mark.reliability
def test_truncated_or_corrupt_dump_fails_clearly_and_writes_nothing(make_params, enwiki_sample, tmp_path):
    truncated, garbled = _corrupt_copies(enwiki_sample, tmp_path)
    plain_truncated = tmp_path / "truncated.xml"
    plain_truncated.write_bytes(bz2.decompress(enwiki_sample.read_bytes())[:100_000])
    for broken, problem in ((truncated, r"is truncated \(Compressed file ended"), (garbled, r"is corrupt \(Invalid data stream\)"),
                            (plain_truncated, r"is truncated \(no element found: line \d+")):
        params = make_params(kb={"source": "wikipedia-dump", "input": broken})
        with pytest.raises(SourceError, match=f"{broken.name}: {problem}.*; download it again and compare its checksum"):
            build_knowledge_base(params, progress=False)
        assert not params.paths.kb_dir.exists()
        assert not params.paths.kb_dir.with_name(params.paths.kb_dir.name + ".partial").exists()


@pytest.mark.reliability
def test_failed_rebuild_keeps_the_previous_knowledge_base(make_params, enwiki_sample, tmp_path):
    params = make_params(kb={"source": "enwiki-sample", "input": enwiki_sample, "max_documents": 5})
    build_knowledge_base(params, progress=False)
    before = (params.paths.kb_dir / DOCUMENTS_FILE).read_bytes()
    truncated, _ = _corrupt_copies(enwiki_sample, tmp_path)
    with pytest.raises(SourceError):
        build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": truncated}), progress=False)
    assert (params.paths.kb_dir / DOCUMENTS_FILE).read_bytes() == before


def _dump_xml(pages: dict[str, str], lang: str = "en", base: str = "https://en.wikipedia.org/wiki/Main_Page") -> str:
    """A MediaWiki export (format 0.11, as the dumps and Special:Export write it) of articles."""
    siteinfo = (f"<siteinfo><sitename>Wikipedia</sitename><dbname>{lang}wiki</dbname><base>{escape(base)}</base>"
                "<generator>MediaWiki 1.42</generator><case>first-letter</case><namespaces>"
                '<namespace key="0" case="first-letter" /><namespace key="14" case="first-letter">Category</namespace>'
                "</namespaces></siteinfo>")
    pages_xml = "".join(
        f"<page><title>{escape(title)}</title><ns>0</ns><id>{n}</id><revision><id>{n}</id>"
        "<timestamp>2024-05-01T00:00:00Z</timestamp><contributor><username>A</username><id>1</id></contributor>"
        "<model>wikitext</model><format>text/x-wiki</format>"
        f'<text bytes="{len(text.encode())}" xml:space="preserve">{escape(text)}</text></revision></page>'
        for n, (title, text) in enumerate(pages.items(), start=1))
    return (f'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="{lang}">'
            f"{siteinfo}{pages_xml}</mediawiki>\n")


def _write_dump(path, xml: str):
    data = xml.encode("utf-8")
    path.write_bytes(bz2.compress(data) if path.suffix == ".bz2" else data)
    return path


PROSE = "The river rises in the northern hills and flows south through farmland, forests and three small towns."
TABLE_PAGE = f"""'''Vale''' is a river <small>(≈ 120 km)</small> — "ünïcödé" & <b>bold</b> ✓ 🌊.

== Course ==
{PROSE}
{{| class="wikitable sortable" style="text-align:center;"
|+ Towns on the river
! scope="col" | Town !! scope="col" | Population
|-
! scope="row" rowspan="2" | Northam
| {{{{formatnum:12000}}}} &nbsp;&ndash; 2020<ref>{{{{cite web|url=http://x.example/?a=1&b=2}}}}</ref>
|-
| [[File:Northam.jpg|20px]] || colspan="2" | '''n/a'''
|}}
{PROSE}

== References ==
{{{{reflist}}}}
"""


@pytest.mark.reliability
@pytest.mark.parametrize("name", ["tables.xml.bz2", "tables.xml"])
def test_dump_with_table_markup_and_odd_characters_builds(make_params, tmp_path, name):
    dump = _write_dump(tmp_path / name, _dump_xml({"Vale (river)": TABLE_PAGE}))
    report = build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": dump}), progress=False)
    assert report["documents"] == 1 and report["language"] == "en" and report["warnings"] == []
    paragraphs = pd.read_parquet(tmp_path / "kb_dir" / PARAGRAPHS_FILE)
    assert paragraphs["section"].tolist() == ["Course"]
    assert paragraphs["text"].iloc[0] == f"{PROSE}\n\n{PROSE}"
    documents = pd.read_parquet(tmp_path / "kb_dir" / DOCUMENTS_FILE)
    assert documents["url"].tolist() == ["https://en.wikipedia.org/wiki/Vale_(river)"]


def test_a_table_the_parser_leaves_as_text_is_dropped_and_the_next_section_kept():
    # Cells with unclosed bold (Alaska's religion table): the parser reads the table as text, and the bold it opens runs
    # over the next heading, which would put "Economy" and its prose into the lead, behind "{| class=…".
    wikitext = f"""{PROSE}
{{| class="wikitable sortable" font-size:80%;"
|align=right| '''{{{{bartable|0.5||2||background:lightgreen}}}}
|align=right| '''{{{{bartable|4||2||background:lightgreen}}}}
|align=right| '''{{{{bartable|1||2||background:#A020F0}}}}
|}}
== Economy ==
{PROSE} It was featured in the series ''[[Great Little Railways]].''
"""
    assert wikitext_sections(wikitext) == [("", PROSE), ("Economy", f"{PROSE} It was featured in the series Great Little Railways.")]


def test_nested_tables_go_whole_and_what_closes_on_their_last_line_stays():
    wikitext = f"""{PROSE}
{{{{Quote box|quote=Towns of the river
{{|
|
{{| class="wikitable"
! Town !! 1990
|-
| Northam || 12
|}}
|}}}}}}
{PROSE}
"""
    assert wikitext_sections(wikitext) == [("", f"{PROSE}\n\n{PROSE}")]  # the quote box's "}}" closes it: nothing of it is left


@pytest.mark.reliability
def test_a_page_that_cannot_be_converted_is_skipped_and_named(make_params, tmp_path, monkeypatch, caplog):
    def parser_bug(wikitext, *args):
        if "BROKEN" in wikitext:
            raise mwparserfromhell.parser.ParserError("C tokenizer exited with BAD_ROUTE")
        return wikitext_sections(wikitext, *args)

    monkeypatch.setattr("sea.kb.dump.wikitext_sections", parser_bug)
    dump = _write_dump(tmp_path / "one-bad.xml.bz2", _dump_xml({"Vale (river)": TABLE_PAGE, "Bad page": f"{PROSE} BROKEN"}))
    report = build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": dump}), progress=False)
    assert report["documents"] == 1 and report["skipped"]["unconvertible wikitext"] == 1
    assert "skipped page 'Bad page': its wikitext could not be converted (ParserError: " in caplog.text


@pytest.mark.reliability
def test_a_file_that_is_not_a_bz2_xml_dump_says_so(make_params, tmp_path):
    gzip_named_bz2 = tmp_path / "gzip.xml.bz2"
    gzip_named_bz2.write_bytes(gzip.compress(b"<mediawiki/>"))
    not_xml = tmp_path / "page.xml.bz2"
    not_xml.write_bytes(bz2.compress(b"404 Not Found"))
    html = tmp_path / "page.xml"
    html.write_bytes(b"<html><body>Not Found</body></html>")
    for path, problem in ((gzip_named_bz2, r"is not bz2-compressed \(it starts with b'\\x1f\\x8b"),
                          (not_xml, r"is not XML \(syntax error: line 1, column 0\)"),
                          (html, r"is XML but not a MediaWiki dump \(its root element is <html>")):
        with pytest.raises(SourceError, match=f"{path.name}: {problem}.*"):
            build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": path}), progress=False)


@pytest.mark.reliability
def test_malformed_xml_is_reported_with_its_position(make_params, tmp_path):
    page = ("<mediawiki><siteinfo><sitename>x</sitename><namespaces><namespace key=\"0\" /></namespaces></siteinfo>"
            "<page><title>Bad</title><ns>0</ns><id>1</id><revision><id>1</id><text>caf\xe9</text></revision></page>"
            "</mediawiki>").encode("latin-1")
    latin1 = tmp_path / "latin1.xml.bz2"
    latin1.write_bytes(bz2.compress(page))
    entity = _write_dump(tmp_path / "entity.xml", _dump_xml({"Vale": PROSE}).replace(PROSE, "a&nbsp;b"))
    for path, problem in ((latin1, r"not well-formed \(invalid token\): line 1, column \d+"),
                          (entity, r"undefined entity: line 1, column \d+")):
        with pytest.raises(SourceError, match=rf"{path.name}: has malformed XML \({problem}\); download it again"):
            build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": path}), progress=False)


@pytest.mark.reliability
def test_a_bulgarian_dump_gets_bulgarian_urls_and_a_warning(make_params, tmp_path, caplog):
    text = f"'''София''' е столицата на България. {PROSE}\n\n== История ==\n{PROSE}\n\n== Източници ==\n{PROSE}\n"
    xml = _dump_xml({"Столична община": text}, lang="bg", base="https://bg.wikipedia.org/wiki/Начална_страница")
    report = build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": _write_dump(tmp_path / "bgwiki.xml.bz2", xml)}),
                                  progress=False)
    documents = pd.read_parquet(tmp_path / "kb_dir" / DOCUMENTS_FILE)
    assert documents["url"].tolist() == ["https://bg.wikipedia.org/wiki/Столична_община"]
    assert report["language"] == "bg" and report["site_base_url"] == "https://bg.wikipedia.org/wiki/"
    warning = "sections are not filtered by name for language 'bg'"
    assert len(report["warnings"]) == 1 and warning in report["warnings"][0] and warning in caplog.text
    paragraphs = pd.read_parquet(tmp_path / "kb_dir" / PARAGRAPHS_FILE)
    assert paragraphs["section"].tolist() == ["", "История", "Източници"]  # kept, as the warning says
