"""What stops an audit before it starts (sea.audit.validate), on the 500-article sample."""

import shutil

import pytest

from sea.audit.validate import check_knowledge_base
from sea.errors import ParamsError
from sea.files import DamagedFile


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
