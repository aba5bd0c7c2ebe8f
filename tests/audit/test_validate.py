"""What stops an audit before it starts (sea.audit.validate), on the 500-article sample."""

import re
import shutil

import pytest

from sea.audit.validate import check_audit, check_knowledge_base
from sea.errors import ParamsError
from sea.files import DamagedFile
from sea.llm.client import input_token_bound
from sea.questions import prompts
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


def test_a_knowledge_base_not_found_is_named_with_the_folder_looked_in(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # paths.kb_dir is relative to the current directory, not to the params file
    with pytest.raises(ParamsError, match=rf"^no knowledge base in {re.escape(str(tmp_path / 'data' / 'kb'))} "):
        check_knowledge_base(parse_params({"paths": {"kb_dir": "data/kb"}}))


def test_testees_that_would_share_a_run_folder_are_refused():
    endpoint = {"model": "openai-compatible:llama3.1:8b", "base_url": "http://127.0.0.1:9/v1"}
    check_audit(parse_params({"models": {"testee": endpoint}, "audit": {"testees": ["openai-compatible:llama3.1-70b"]}}))
    with pytest.raises(ParamsError, match=r"audit\.testees: openai-compatible:llama3\.1:8b and openai-compatible:llama3\.1-8b "
                                          r"would share the run folder 'openai-compatible-llama3\.1-8b' .*; audit them in "
                                          r"separate runs"):
        check_audit(parse_params({"models": {"testee": endpoint}, "audit": {"testees": ["openai-compatible:llama3.1-8b"]}}))


def test_a_token_or_dollar_budget_must_pay_for_the_prompts_of_one_batch_not_only_the_answers():
    """The client reserves a call's prompt bound plus max_tokens before sending it: a budget for the answers alone
    let the arm make no call, exit 0 and say nothing."""
    one_batch = {"search": {"batch_size": 10}, "questions": {"per_paragraph": 2, "variants": 1}}  # 20 calls
    priced = {"prices": {"openai-compatible:llama3": {"input": 1.0, "output": 1.0}},
              "models": {"testee": {"model": "openai-compatible:llama3", "base_url": "http://127.0.0.1:9/v1"}}}
    max_tokens = parse_params({}).models.testee.max_tokens
    question = prompts.testee_messages("Which river flows through Paris?", ["Seine", "Loire", "Rhône", "Garonne"])
    reserved_for_a_batch = 20 * (input_token_bound(question) + max_tokens)  # what a batch of such questions reserves
    for budget, unit in (({"tokens": 20 * max_tokens}, ""), ({"dollars": 20 * max_tokens / 1e6}, r"\$")):
        answers_only = parse_params({**one_batch, **priced, "budget": {"testee_calls": None, **budget}})
        key = next(iter(budget))
        with pytest.raises(ParamsError, match=rf"budget\.{key}: .* cannot pay for one batch .*20 calls, each reserving at "
                                              rf"least \d+ prompt tokens and {max_tokens} output tokens, "
                                              rf"models\.testee\.max_tokens: {unit}[\d.]+.*\); raise it to at least") as error:
            check_audit(answers_only)
        least = float(re.search(r"raise it to at least ([\d.]+)", str(error.value)).group(1))
        assert 20 * max_tokens < least * (1e6 if unit else 1) <= reserved_for_a_batch
        check_audit(parse_params({**one_batch, **priced, "budget": {"testee_calls": None, key: least}}))


def test_a_gate_that_is_on_needs_a_verifier_before_the_audit_starts():
    with pytest.raises(ParamsError, match=r"^questions\.gate: on needs a verifier; set models\.verifier"):
        check_audit(parse_params({"questions": {"gate": "on"}}))
    check_audit(parse_params({"questions": {"gate": "on"}, "models": {"verifier": {"model": "openai:gpt-4o-mini"}}}))
    check_audit(parse_params({"questions": {"gate": "auto"}}))  # offline questions: no gate
