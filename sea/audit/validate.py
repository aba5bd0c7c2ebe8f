"""Everything that can make an audit fail before it starts, checked before any run directory,
Prefect server or model exists: params, budget, the built data, API keys and the run id."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sea.audit.rundir import existing_run, new_run_id, slug
import pyarrow as pa
import pyarrow.parquet as pq

from sea.choices import LETTERS
from sea.embeddings import SIDECAR_FILE, require_device, require_embeddings
from sea.errors import ParamsError
from sea.files import REBUILD, DamagedFile, read_json
from sea.index import check_index
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE
from sea.llm.client import input_token_bound
from sea.llm.keys import api_key
from sea.llm.registry import check_dollar_budget, price_table
from sea.questions.gate import gate_verifier
from sea.questions.prompts import testee_messages
from sea.search.arms import ARMS
from sea.settings import Params, load_params


SMALLER_BATCH = "lower search.batch_size / questions.per_paragraph / questions.variants"


@dataclass(frozen=True)
class AuditPlan:
    params: Params
    run_id: str
    resume: bool


def plan_audit(params_path: str | Path, overrides: dict | None, run_id: str | None, resume: bool) -> AuditPlan:
    """The audit to run, or a ParamsError naming what is wrong and the fix. Creates nothing."""
    if resume and not run_id:
        raise ParamsError("resume needs the id of the run to continue")
    run_id = new_run_id() if run_id is None else run_id  # an empty one is refused by existing_run
    params = load_params(params_path, overrides)
    run = existing_run(params.audit.runs_dir, run_id, None if resume else params)
    if run is not None:
        params = run.resumed_with(overrides if resume else None)  # a resumed run keeps the params it was started with
        run.check()
    check_audit(params)
    check_knowledge_base(params)
    check_embedder(params)
    for settings in [*params.testee_settings(), params.models.generator, params.models.verifier]:
        if settings is not None:
            api_key(settings)
    return AuditPlan(params, run_id, resume)


def check_audit(params: Params) -> None:
    """Params that validate one by one but cannot make an audit together."""
    budget, search, questions = params.budget, params.search, params.questions
    if budget.testee_calls is None and budget.tokens is None and budget.dollars is None:
        raise ParamsError("budget: an audit needs a limit; set budget.testee_calls (or tokens or dollars)")
    if not search.arms:
        raise ParamsError(f"search.arms: empty; list at least one of {', '.join(ARMS)}")
    for i, name in enumerate(search.arms):
        if name not in ARMS:
            raise ParamsError(f"search.arms.{i}: {name!r} is not allowed; use one of {', '.join(ARMS)}")
    testees = [settings.model for settings in params.testee_settings()]
    for key, names in (("search.arms", search.arms), ("audit.testees", testees)):
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ParamsError(f"{key}: {', '.join(twice)} listed twice; list each once")
    check_one_folder_per_testee(testees)
    gate_verifier(questions, params.models.generator, params.models.verifier)  # refuses gate: on with no verifier
    per_batch = search.batch_size * questions.per_paragraph * questions.variants
    if budget.testee_calls is not None and budget.testee_calls < per_batch:
        raise ParamsError(
            f"budget.testee_calls: {budget.testee_calls} cannot pay for one batch ({search.batch_size} paragraphs × "
            f"{questions.per_paragraph} questions × {questions.variants} phrasings = {per_batch} calls); raise it to at "
            f"least {per_batch} or {SMALLER_BATCH}"
        )
    check_dollar_budget(params)
    check_batch_budget(params, per_batch)


def check_batch_budget(params: Params, per_batch: int) -> None:
    """A token or dollar budget pays for one batch at what the client reserves before each call: the prompt's input
    bound plus max_tokens (sea/llm/client.py). Below that an arm makes no call at all."""
    budget, testee = params.budget, params.models.testee
    prompt_tokens = input_token_bound(testee_messages("", [""] * len(LETTERS)))  # the least any question's prompt holds
    per_call = (f"each reserving at least {prompt_tokens} prompt tokens and {testee.max_tokens} output tokens, "
                f"models.testee.max_tokens")
    least_tokens = per_batch * (prompt_tokens + testee.max_tokens)
    if budget.tokens is not None and budget.tokens < least_tokens:
        raise ParamsError(f"budget.tokens: {budget.tokens} cannot pay for one batch ({per_batch} calls, {per_call}: "
                          f"{least_tokens} tokens); raise it to at least {least_tokens} or {SMALLER_BATCH}")
    if budget.dollars is None:
        return
    prices = price_table(params)
    for settings in params.testee_settings():
        # never None: check_dollar_budget refused a testee without a price
        least_dollars = per_batch * prices.cost(settings.model, prompt_tokens, settings.max_tokens)
        if budget.dollars < least_dollars:
            raise ParamsError(f"budget.dollars: {budget.dollars:g} cannot pay for one batch of {settings.model} "
                              f"({per_batch} calls, {per_call}: ${least_dollars:.6g}); raise it to at least "
                              f"{least_dollars:.6g} or {SMALLER_BATCH}")


def check_one_folder_per_testee(testees: list[str]) -> None:
    """A testee's run folder is its model string with the characters a folder name cannot hold made '-':
    'llama3.1:8b' and 'llama3.1-8b' would share one, the second answered by the first's results."""
    by_folder: dict[str, list[str]] = {}
    for model in testees:
        by_folder.setdefault(slug(model), []).append(model)
    for folder, models in by_folder.items():
        if len(models) > 1:
            raise ParamsError(f"audit.testees: {' and '.join(models)} would share the run folder {folder!r} (their names "
                              f"differ only in characters a folder name cannot hold); audit them in separate runs")


def check_knowledge_base(params: Params) -> None:
    """The knowledge base's Parquet files are there and readable: a copy cut short would otherwise
    fail deep inside the first step, with the Parquet library's words."""
    for name in (DOCUMENTS_FILE, PARAGRAPHS_FILE):
        path = params.paths.kb_dir / name
        if not path.is_file():
            raise ParamsError(f"no knowledge base in {params.paths.kb_dir.absolute()} ({name} is missing); build it with "
                              f"`dvc repro` (or `sea kb build`)")
        try:
            pq.ParquetFile(path).close()
        except (OSError, pa.ArrowException) as error:
            raise DamagedFile(path, f"not readable Parquet: {error}", REBUILD) from None


def check_embedder(params: Params) -> None:
    """The knowledge base's document vectors and the index must come from the configured embedder
    (vectors of two models are not comparable) and the index from the configured factory."""
    require_embeddings(params.paths.embeddings_dir)
    sidecar = params.paths.embeddings_dir / SIDECAR_FILE
    require_device(params.embedding.device)
    built_with = read_json(sidecar)["model"]
    if built_with != params.embedding.model:
        raise ParamsError(f"embedding.model is {params.embedding.model!r} but the knowledge base's embeddings in "
                          f"{params.paths.embeddings_dir} were made with {built_with!r}; rebuild with `dvc repro` "
                          f"or set embedding.model back")
    check_index(params)
