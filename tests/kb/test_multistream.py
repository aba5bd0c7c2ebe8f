"""A multistream dump built shard by shard, on this process and on a 2-worker Dask cluster,
against the streaming build of the same pages."""

import bz2
import json
import logging
import time
from dataclasses import asdict

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from flows.compute import check_scheduler
from flows.embed import embed_sharded
from flows.kb_build import build_sharded
from sea.embeddings import embed_documents, load_document_vectors
from sea.errors import ParamsError, SourceError
from sea.files import write_json, write_parquet
from sea.kb.build import build_knowledge_base, rows_of
from sea.kb.multistream import Shard, plan_shards, read_header, shard_documents, stream_offsets, write_multistream
from sea.kb.schema import (DOCUMENT_SCHEMA, DOCUMENTS_FILE, PARAGRAPH_SCHEMA, PARAGRAPHS_FILE, SkipCounts, SourceDocument, SourceNotes,
                           doc_id_for)
from sea.kb.sharded import _part, documents_in, merge_shards

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def multistream(enwiki_sample, tmp_path_factory):
    """The packaged enwiki excerpt (206 pages) as Wikimedia lays out a multistream dump: a header
    stream, streams of 5 pages, a footer stream, and the offset:page_id:title index."""
    folder = tmp_path_factory.mktemp("multistream")
    dump = folder / "enwiki-test-pages-articles-multistream.xml.bz2"
    index = folder / "enwiki-test-pages-articles-multistream-index.txt.bz2"
    write_multistream(bz2.decompress(enwiki_sample.read_bytes()), dump, index, pages_per_stream=5)
    return dump, index


@pytest.fixture(scope="module")
def streaming(enwiki_sample, tmp_path_factory):
    from sea.settings import parse_params

    root = tmp_path_factory.mktemp("streaming")
    params = parse_params({"paths": {"kb_dir": str(root / "kb"), "cache_dir": str(root / "cache")},
                           "kb": {"source": "wikipedia-dump", "input": str(enwiki_sample)}})
    report = build_knowledge_base(params, progress=False)
    return read(params), report


def read(params) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE), pd.read_parquet(params.paths.kb_dir / PARAGRAPHS_FILE)


def test_the_index_names_every_stream(multistream):
    dump, index = multistream
    header_end, shards = plan_shards(str(dump), str(index), streams_per_shard=4)
    assert header_end > 0 and len(shards) == 11  # 206 pages, 5 per stream: 42 streams, 4 per shard
    assert shards[0].start == header_end and shards[-1].end == dump.stat().st_size
    assert all(a.end == b.start for a, b in zip(shards, shards[1:]))


def sharded_params(root, dump, **compute):
    from sea.settings import parse_params

    return parse_params({"paths": {name: str(root / name) for name in ("kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
                         "kb": {"source": "wikipedia-dump", "input": str(dump), "streams_per_shard": 4, "chunk_documents": 25},
                         "compute": compute})


@pytest.fixture(scope="module")
def on_dask(multistream, tmp_path_factory, prefect_server):
    """The sharded build on a LocalCluster of 2 worker processes, one of which is SIGKILLed once
    3 shards are done: Dask reruns what it held. Returns the params, the build report and the
    part files finished before the kill with their modification times."""
    import threading

    import psutil

    params = sharded_params(tmp_path_factory.mktemp("dask"), multistream[0], runner="dask", workers=2)
    report: dict = {}
    builder = threading.Thread(target=lambda: report.update(build_sharded(params, progress=False)))
    builder.start()
    parts = params.paths.cache_dir / "kb-shards"
    while builder.is_alive() and len(list(parts.rglob("*.json"))) < 3:
        time.sleep(0.05)
    before = {p: p.stat().st_mtime_ns for p in parts.rglob("*.json")}
    workers = [p for p in psutil.Process().children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
    assert workers, "no Dask worker process found to kill"
    workers[0].kill()
    builder.join(timeout=600)
    return params, report, before


def test_sharded_build_on_two_dask_workers_one_killed_equals_the_streaming_build(on_dask, streaming):
    (documents, paragraphs), report = streaming
    params, sharded, before = on_dask
    got_documents, got_paragraphs = read(params)
    pd.testing.assert_frame_equal(got_documents, documents)
    pd.testing.assert_frame_equal(got_paragraphs, paragraphs)
    assert sharded["skipped"] == report["skipped"] and sharded["documents"] == report["documents"] == 98
    assert 3 <= len(before) < 11  # the worker was killed mid-build
    assert all(p.stat().st_mtime_ns == stamp for p, stamp in before.items())  # shards done before it were not redone


def test_in_process_sharded_build_equals_it_too_and_reuses_finished_shards(multistream, streaming, tmp_path, prefect_server):
    params = sharded_params(tmp_path, multistream[0], runner="local")
    build_sharded(params, progress=False)
    pd.testing.assert_frame_equal(read(params)[1], streaming[0][1])
    parts = sorted((params.paths.cache_dir / "kb-shards").rglob("*.json"))
    stamps = [p.stat().st_mtime_ns for p in parts]
    build_sharded(params, progress=False)  # every shard done: none is converted again
    assert len(parts) == 11 and [p.stat().st_mtime_ns for p in parts] == stamps
    (params.paths.kb_dir / "notes.txt").write_text("kept", encoding="utf-8")
    with pytest.raises(ParamsError, match=r"holds notes\.txt, which building the knowledge base would delete"):
        build_sharded(params, progress=False)  # refused before any shard is planned
    assert (params.paths.kb_dir / "notes.txt").is_file()


def test_a_capped_build_converts_only_the_shards_it_needs(multistream, streaming, tmp_path, prefect_server):
    params = sharded_params(tmp_path, multistream[0], runner="local")
    params = params.model_copy(update={"kb": params.kb.model_copy(update={"max_documents": 5})})
    report = build_sharded(params, progress=False)
    converted = list((params.paths.cache_dir / "kb-shards").rglob("*.json"))
    assert report["documents"] == 5 and 1 <= len(converted) < 11  # 11 shards in all
    documents, paragraphs = read(params)
    full_documents, full_paragraphs = streaming[0]
    pd.testing.assert_frame_equal(documents, full_documents.head(5))
    pd.testing.assert_frame_equal(paragraphs, full_paragraphs[full_paragraphs["doc_id"].isin(documents["doc_id"])].reset_index(drop=True))


def test_a_dump_warning_is_said_once_not_once_a_shard(enwiki_sample, tmp_path, prefect_server, caplog):
    """A bug hunt: a non-English dump's warning came once per shard (about 7,000 lines for the full dump)."""
    dump, index = tmp_path / "xxwiki-pages-articles-multistream.xml.bz2", tmp_path / "xxwiki-pages-articles-multistream-index.txt.bz2"
    write_multistream(bz2.decompress(enwiki_sample.read_bytes()).replace(b'xml:lang="en"', b'xml:lang="xx"', 1), dump, index,
                      pages_per_stream=5)
    params = sharded_params(tmp_path, dump, runner="local")
    params = params.model_copy(update={"kb": params.kb.model_copy(update={"max_documents": 30})})  # three shards or so
    with caplog.at_level(logging.WARNING):
        build_sharded(params, progress=False)
    assert len(list((params.paths.cache_dir / "kb-shards").rglob("*.json"))) > 1
    assert caplog.text.count("sections are not filtered by name for language 'xx'") == 1


def test_a_title_in_two_shards_in_two_unicode_normalisations_is_one_document(tmp_path):
    """As the streaming build: "Café" in one shard and "Cafe\u0301" (e plus a combining accent) in the next are one
    article, kept once, with the first one's id."""
    params = sharded_params(tmp_path, tmp_path / "unused-multistream.xml.bz2")
    text = "A café is an establishment that serves coffee and light meals, and is often a place to meet and talk."
    shards = [Shard(number, 0, 0) for number in (0, 1)]
    for shard, title in zip(shards, ("Café", "Cafe\u0301"), strict=True):
        documents_part, paragraphs_part, done = _part(tmp_path / "parts", shard)
        rows = rows_of([SourceDocument(title, text, [("", text)])], (["Science"], ["embedding"]), "wikipedia-dump")
        documents_part.parent.mkdir(parents=True, exist_ok=True)
        write_parquet(documents_part, pa.table(rows.documents, schema=DOCUMENT_SCHEMA))
        write_parquet(paragraphs_part, pa.table(rows.paragraphs, schema=PARAGRAPH_SCHEMA))
        write_json(done, {"shard": asdict(shard), "documents": 1, "skipped": {}, "notes": asdict(SourceNotes())})
    report = merge_shards(params, shards, tmp_path / "parts", started=0.0, progress=False)
    documents, paragraphs = read(params)
    assert documents["title"].tolist() == ["Café"] and documents["doc_id"].tolist() == [doc_id_for("Café")]
    assert paragraphs["doc_id"].tolist() == [doc_id_for("Café")]
    assert report["skipped"] == {"duplicate title": 1} and documents_in(tmp_path / "parts", shards) == 1


def test_shards_converted_under_another_index_or_conversion_code_are_not_reused(multistream, tmp_path, monkeypatch):
    import os

    from sea.kb import sharded

    dump, index = multistream
    params = sharded_params(tmp_path, dump, runner="local")
    before = sharded.parts_dir(params)
    copy = tmp_path / "index-copy.txt.bz2"
    copy.write_bytes(index.read_bytes())
    os.utime(copy, ns=(0, 0))
    assert sharded.parts_dir(params.model_copy(update={"kb": params.kb.model_copy(update={"multistream_index": str(copy)})})) != before
    edited = tmp_path / "sections.py"
    edited.write_text("NON_PROSE_SECTIONS = {'history'}\n")
    monkeypatch.setattr(sharded, "_CONVERSION_CODE", (*sharded._CONVERSION_CODE, edited))
    assert sharded.parts_dir(params) != before
    monkeypatch.undo()
    assert sharded.parts_dir(params) == before

    header_end, shards = plan_shards(str(dump), str(index), streams_per_shard=4)
    header = read_header(str(dump), header_end)
    folder = tmp_path / "parts"
    first = sharded.build_shard(params, shards[0], header, folder)
    record = folder / "shard-000001.json"
    record.write_text(json.dumps({**first, "shard": {"number": 1, "start": 0, "end": 1}}))  # a record of another plan
    assert sharded.build_shard(params, shards[1], header, folder)["shard"]["start"] == shards[1].start  # converted again


def test_an_edit_to_the_embedder_that_assigns_categories_converts_the_shards_again(multistream, tmp_path, monkeypatch):
    """Categories are chosen by embedding titled_text(…) (sea/embeddings.py, a kb dependency in dvc.yaml):
    an edit there made `dvc repro` merge the old parts again, with the old categories."""
    import ast
    from pathlib import Path

    from sea.kb import sharded

    params = sharded_params(tmp_path, multistream[0], runner="local")
    before = sharded.parts_dir(params)
    real = Path(sharded.__file__).parents[1] / "embeddings.py"
    edited = tmp_path / "embeddings.py"
    edited.write_text(real.read_text().replace('f"{title}. {body}"', 'f"{title}: {body}"'))
    monkeypatch.setattr(sharded, "_CONVERSION_CODE", tuple(edited if p == real else p for p in sharded._CONVERSION_CODE))
    assert sharded.parts_dir(params) != before
    monkeypatch.undo()

    # every project module the conversion imports is in the key, but for the settings (in the key by
    # value) and the error messages and file writing
    sea = real.parent
    seen, todo = set(), [Path(sharded.__file__)]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sea."):
                module = sea.parent.joinpath(*node.module.split("."))
                todo += [c for c in (module.with_suffix(".py"), module / "__init__.py") if c.is_file()]
    assert seen - set(sharded._CONVERSION_CODE) <= {sea / "settings.py", sea / "errors.py", sea / "files.py"}


def test_tasks_run_in_another_working_directory_with_relative_paths(multistream, tmp_path, monkeypatch, prefect_server):
    """A Dask worker started elsewhere resolved relative paths against its own directory: the shards went
    to a cache the merge could not find, or the dump was not found. Each task here runs in another
    directory than the driver's; what the build records keeps the paths as given."""
    import os
    import shutil

    import tasks.embed
    import tasks.kb
    from sea.settings import parse_params

    driver, elsewhere = tmp_path / "driver", tmp_path / "elsewhere"
    (driver / "dumps").mkdir(parents=True)
    elsewhere.mkdir()
    for path in multistream:
        shutil.copy(path, driver / "dumps" / path.name)
    monkeypatch.chdir(driver)
    params = parse_params({"paths": {name: name for name in ("kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
                           "kb": {"source": "wikipedia-dump", "input": f"dumps/{multistream[0].name}",
                                  "streams_per_shard": 4, "chunk_documents": 25, "max_documents": 5},
                           "compute": {"runner": "local"}})
    seen = []

    def in_another_directory(task):
        def run(params, *args):
            seen.append(params)
            os.chdir(elsewhere)
            try:
                return task(params, *args)
            finally:
                os.chdir(driver)
        return run

    monkeypatch.setattr(tasks.kb, "build_shard", in_another_directory(tasks.kb.build_shard))
    monkeypatch.setattr(tasks.embed, "embed_part", in_another_directory(tasks.embed.embed_part))
    report = build_sharded(params, progress=False)
    embed_sharded(params, progress=False)
    assert report["documents"] == 5 and report["input"] == f"dumps/{multistream[0].name}"
    assert len(load_document_vectors(driver / "embeddings_dir")[1]) == 5
    assert seen and all(p.paths.kb_dir.is_absolute() and p.paths.cache_dir.is_absolute() for p in seen)
    assert seen[0].kb.input.is_absolute()
    assert not list(elsewhere.iterdir())  # nothing written under the task's working directory


def test_embeddings_part_by_part_on_dask_equal_the_single_process_ones(on_dask):
    params, _, _ = on_dask
    embed_sharded(params, progress=False)
    again = embed_sharded(params, progress=False)
    assert again["from_cache"] == 98 and again["documents_per_second"] is None  # every part was done: none embedded again
    parts, part_ids, _ = load_document_vectors(params.paths.embeddings_dir)
    single = params.model_copy(update={"paths": params.paths.model_copy(update={"embeddings_dir": params.paths.embeddings_dir.with_name("single")})})
    embed_documents(single, progress=False)
    vectors, ids, _ = load_document_vectors(single.paths.embeddings_dir)
    assert len(list((params.paths.cache_dir / "embedding-parts").rglob("*.npz"))) == 4  # 98 documents, 25 per row group
    np.testing.assert_array_equal(part_ids, ids)
    np.testing.assert_allclose(parts, vectors, atol=1e-5)
    queries = np.asarray(vectors[:5])
    assert (np.argsort(-(queries @ np.asarray(parts).T), axis=1)[:, :10] == np.argsort(-(queries @ np.asarray(vectors).T), axis=1)[:, :10]).all()


def test_a_dump_without_its_index_or_with_another_dumps_index_is_refused(multistream, make_params, tmp_path):
    dump, index = multistream
    alone = tmp_path / "enwiki-x-pages-articles-multistream.xml.bz2"
    alone.write_bytes(dump.read_bytes())
    with pytest.raises(SourceError, match="multistream-index.txt.bz2"):
        build_sharded(make_params(kb={"source": "wikipedia-dump", "input": alone}), progress=False)
    wrong = tmp_path / "shifted-index.txt.bz2"
    wrong.write_bytes(bz2.compress(b"\n".join(b"%d:1:T" % (int(line.split(b":")[0]) + 7)
                                              for line in bz2.decompress(index.read_bytes()).splitlines())))
    with pytest.raises(SourceError, match="does not match"):
        build_sharded(make_params(kb={"source": "wikipedia-dump", "input": dump, "multistream_index": str(wrong)}),
                      progress=False)


def test_an_index_without_the_first_page_stream_is_refused_not_its_pages_dropped(multistream, tmp_path):
    """The first offset an index names is taken as the header's end: an index cut at its head made the
    first page stream part of the header, and its pages (Anarchism among them) were dropped silently."""
    from sea.kb.sharded import plan

    dump, index = multistream
    lines = bz2.decompress(index.read_bytes()).splitlines(keepends=True)
    first = lines[0].split(b":")[0]
    cut = tmp_path / "cut-index.txt.bz2"
    cut.write_bytes(bz2.compress(b"".join(line for line in lines if line.split(b":")[0] != first)))
    params = sharded_params(tmp_path, dump, runner="local")
    assert plan(params)[0].count(b"<page>") == 0
    params = params.model_copy(update={"kb": params.kb.model_copy(update={"multistream_index": str(cut)})})
    with pytest.raises(SourceError, match=rf"{cut}: does not name the first page stream of .*published with this dump"):
        plan(params)


def test_a_dump_cut_inside_its_last_stream_is_refused_before_any_shard(multistream, tmp_path):
    """Cut 200 bytes short (past the last offset the index names), the dump was refused only when the
    last shard was converted, after every other one: hours on the full dump."""
    dump, index = multistream
    cut = tmp_path / dump.name
    cut.write_bytes(dump.read_bytes()[:-200])
    size, last = cut.stat().st_size, stream_offsets(str(index))[-1]
    with pytest.raises(SourceError, match=rf"bytes {last}-{size} do not decompress \(the last stream is cut short\)"):
        plan_shards(str(cut), str(index), streams_per_shard=4)


def test_a_corrupt_stream_inside_a_shard_or_a_cut_dump_is_an_error_not_fewer_pages(multistream, tmp_path):
    dump, index = multistream
    offsets = stream_offsets(str(index))
    corrupt = bytearray(dump.read_bytes())
    middle = (offsets[1] + offsets[2]) // 2  # in the second stream of the first shard, of 4 streams
    corrupt[middle] ^= 0xFF
    damaged = tmp_path / dump.name
    damaged.write_bytes(bytes(corrupt))
    header_end, shards = plan_shards(str(damaged), str(index), streams_per_shard=4)
    header = read_header(str(damaged), header_end)
    assert list(shard_documents(str(dump), shards[0], header, SkipCounts(), SourceNotes()))  # the intact dump reads
    with pytest.raises(SourceError, match=f"bytes {shards[0].start}-{shards[0].end} do not decompress"):
        list(shard_documents(str(damaged), shards[0], header, SkipCounts(), SourceNotes()))
    damaged.write_bytes(dump.read_bytes()[:offsets[-2]])
    with pytest.raises(SourceError, match="cut short"):
        plan_shards(str(damaged), str(index), streams_per_shard=4)


def test_an_unreachable_scheduler_fails_fast_naming_the_setting(multistream, make_params):
    import socket

    params = make_params(kb={"source": "wikipedia-dump", "input": multistream[0]},
                         compute={"runner": "dask", "address": "tcp://127.0.0.1:9", "connect_timeout_s": 2})
    with pytest.raises(ParamsError, match="compute.address"):
        build_sharded(params, progress=False)
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, then never says a word (it once hung the check)
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        with pytest.raises(ParamsError, match=f"no Dask scheduler answers at '{address}' within 2 s"):
            check_scheduler(params.compute.model_copy(update={"address": address}))
        assert time.monotonic() - started < 10



def test_a_scheduler_without_workers_is_said_before_its_tasks_wait(make_params, caplog):
    """A bug hunt: a scheduler with no worker left the build waiting, with nothing on the screen."""
    from distributed import LocalCluster

    compute = make_params().compute
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with caplog.at_level(logging.WARNING, logger="flows.compute"):
            check_scheduler(compute.model_copy(update={"runner": "dask", "address": cluster.scheduler_address}))
        assert "has no workers yet" in caplog.text
        cluster.scale(1)
        cluster.wait_for_workers(1)
        caplog.clear()
        check_scheduler(compute.model_copy(update={"runner": "dask", "address": cluster.scheduler_address}))
        assert "no workers" not in caplog.text


def test_a_worker_without_the_model_is_a_clear_error_not_retried(on_dask):
    params, _, _ = on_dask
    missing = params.model_copy(update={"embedding": params.embedding.model_copy(update={"model": "/nowhere/no-such-model"}),
                                        "compute": params.compute.model_copy(update={"runner": "local"})})
    started = time.perf_counter()
    with pytest.raises(ParamsError, match="embedding.model: cannot load"):
        embed_sharded(missing, progress=False)
    assert time.perf_counter() - started < 10  # no retry waits on a problem a retry cannot fix


def test_an_audit_runs_on_the_sharded_knowledge_base(on_dask, tmp_path):
    """The sharded build's knowledge base, embedded part by part, indexed and audited in process: by
    retrieval (sea) and by uniform exploration over the whole store (random)."""
    from sea.audit.rundir import open_run
    from sea.audit.steps import in_process, run_steps
    from sea.audit.workspace import Workspace
    from sea.index import build_index
    from tests.audit.conftest import small_audit

    params, _, _ = on_dask
    embed_sharded(params, progress=False)  # parts already made by the embedding test are reused
    build_index(params)
    audit = small_audit(params, tmp_path / "runs", budget__testee_calls=30, search__arms=["sea", "random"], search__batch_size=3,
                        search__k_documents=2, questions__neighbours=1)  # an excerpt article has dozens of paragraphs, each embedded when retrieved
    workspace = Workspace.of(open_run(audit.audit.runs_dir, "sharded", audit).root)
    for arm in workspace.run.arms():
        records = run_steps(arm, in_process(workspace))
        assert records and arm.load_state().finished
        assert arm.load_state().spent["calls"] <= 30
