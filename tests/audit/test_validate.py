"""What stops an audit before it starts (sea.audit.validate), on the 500-article sample."""

import shutil

import pytest

from sea.audit.validate import check_audit, check_knowledge_base
from sea.errors import ParamsError
from sea.files import DamagedFile
from sea.settings import parse_params


def with_kb_copy(params, tmp_path):
    copy = tmp_path / "kb"
    shutil.copytree(params.paths.kb_dir, copy)
    return params.model_copy(update={"paths": params.paths.model_copy(update={"kb_dir": copy})}), copy


def test_a_knowledge_base_cut_short_is_named_with_the_fix(audit_params, tmp_path):
    params, kb = with_kb_copy(audit_params, tmp_path)
    check_knowledge_base(params)
    paragraphs = kb / "paragraphs.parquet"
    paragraphs.write_bytes(paragraphs.read_bytes()[: paragraphs.stat().st_size // 2])  # a copy cut short
    with pytest.raises(DamagedFile, match=r"paragraphs.parquet is damaged \(not readable Parquet: .+\); rebuild it with `dvc repro`"):
        check_knowledge_base(params)


def test_a_missing_knowledge_base_names_the_build(audit_params, tmp_path):
    params, kb = with_kb_copy(audit_params, tmp_path)
    (kb / "documents.parquet").unlink()
    with pytest.raises(ParamsError, match=r"no knowledge base in .+kb \(documents.parquet is missing\); build it with `dvc repro`"):
        check_knowledge_base(params)


def test_testees_that_would_share_a_run_folder_are_refused():
    endpoint = {"model": "openai-compatible:llama3.1:8b", "base_url": "http://127.0.0.1:9/v1"}
    check_audit(parse_params({"models": {"testee": endpoint}, "audit": {"testees": ["openai-compatible:llama3.1-70b"]}}))
    with pytest.raises(ParamsError, match=r"audit\.testees: openai-compatible:llama3\.1:8b and openai-compatible:llama3\.1-8b "
                                          r"would share the run folder 'openai-compatible-llama3\.1-8b' .*; audit them in "
                                          r"separate runs"):
        check_audit(parse_params({"models": {"testee": endpoint}, "audit": {"testees": ["openai-compatible:llama3.1-8b"]}}))
