"""What changed between two audits of a model ("what changed since last week"): their error rates
side by side, and the earlier audit's source paragraphs re-asked to the current testee on the
same questions, within a budget of their own — which the model now answers (fixed), which it
still fails — and the sources that are new. Written to the current run's annotations, so a report can show
it again without asking any model."""

from __future__ import annotations

import logging

from sea.audit.outputs import summarise
from sea.audit.rundir import COMPARE_DIR, CONFIG_FILE, FIXED, NOT_ASKED, QUESTIONS, STILL_FAILING, RunDir
from sea.audit.steps import closed_book_prompt
from sea.errors import ParamsError, SeaError
from sea.audit.workspace import Workspace
from sea.files import write_json, write_parquet
from sea.questions.grading import answers_table, ask_once_each
from sea.questions.model import Question, question_from_record
from sea.search.loop import fit_to_budget, paragraph_error_rates

log = logging.getLogger(__name__)

_COUNT_KEYS = {FIXED: "fixed", STILL_FAILING: "still_failing", NOT_ASKED: "not_reasked"}


def found_sources(run: RunDir, testee: str) -> dict[int, list[Question]]:
    """Every source paragraph a run found for a testee (in any arm), with the questions asked about it."""
    asked: dict[int, dict[str, Question]] = {}
    sources: set[int] = set()
    for arm in run.arms():
        if arm.testee != testee:
            continue
        state = arm.load_state()
        sources |= state.sources
        for step in range(state.step):
            for record in arm.read(step, QUESTIONS).to_pylist():
                if record["para_id"] in state.sources:
                    asked.setdefault(record["para_id"], {})[record["question_id"]] = question_from_record(record)
    return {p: list(asked[p].values()) for p in sorted(sources) if p in asked}


def previous_run(current: RunDir) -> RunDir | None:
    """The latest run before `current` in the same runs directory that audited the same testee to the end,
    over the same knowledge base. A damaged run is passed over with a warning: it must not fail the
    audit that has just finished. So is the latest run over another knowledge base, when it is later than the
    one chosen: else the comparison would be with an older run without a word."""
    testee = current.params.models.testee.model
    candidates, other_kb = [], []
    for config in current.root.parent.glob(f"*/{CONFIG_FILE}"):
        if config.parent == current.root:
            continue
        try:
            run = RunDir(config.parent)
            if run.params.models.testee.model != testee or run.config["created"] >= current.config["created"]:
                continue
            if knowledge_base_changes(run, current):
                other_kb.append(run)
            elif all(arm.load_state().finished for arm in run.arms()):
                candidates.append(run)
        except SeaError as error:
            log.warning("not comparing with %s: %s", config.parent, error)
    chosen, skipped = max(candidates, key=_created, default=None), max(other_kb, key=_created, default=None)
    if skipped is not None and (chosen is None or _created(skipped) > _created(chosen)):
        log.warning("not comparing with %s: it audited another knowledge base (%s)%s", skipped.root,
                    ", ".join(knowledge_base_changes(skipped, current)),
                    f"; comparing with the earlier {chosen.run_id}" if chosen else "")
    return chosen


def _created(run: RunDir) -> str:
    return run.config["created"]


def compare_runs(previous: RunDir, current: RunDir, calls: int, progress: bool = True) -> dict:
    """Re-asks the previous run's sources (at most `calls` questions) to the current testee and writes
    compare/<previous>.json, in the current run's annotations, and the answers beside it; returns the
    comparison. A run compared with itself or with a later run, and runs over different knowledge bases
    (the earlier paragraphs are not in today's), are refused before any call."""
    if previous.root.resolve() == current.root.resolve():
        raise ParamsError(f"run {current.run_id!r} cannot be compared with itself; name an earlier run of the same "
                          f"testee: `sea compare EARLIER_RUN {current.run_id}`")
    if previous.config["created"] > current.config["created"]:  # else the earlier run would say "since" the later
        raise ParamsError(f"{previous.run_id} started at {previous.config['created']}, after {current.run_id} "
                          f"(started at {current.config['created']}): name the earlier run first, "
                          f"`sea compare {current.run_id} {previous.run_id}`")
    changes = knowledge_base_changes(previous, current)
    if changes:
        raise ParamsError(f"runs {previous.run_id!r} and {current.run_id!r} audited different knowledge bases "
                          f"({', '.join(changes)}), so the earlier run's paragraphs cannot be re-asked; compare "
                          f"{current.run_id!r} with an earlier run over the same knowledge base (config.json's data_versions)")
    testee = current.params.models.testee.model
    sources = found_sources(previous, previous.params.models.testee.model)
    chosen = fit_to_budget(list(sources), {p: len(q) for p, q in sources.items()}, calls)
    asked = [q for p in chosen for q in sources[p]]
    workspace = Workspace.of(current.root)
    client = workspace.testee(testee)
    # Its own budget, and its own cache scope: the questions were the earlier audit's, the
    # answers must be today's.
    prompts = [closed_book_prompt(workspace, q) for q in asked]
    records = ask_once_each(client, asked, prompts, f"compare {current.nonce}", f"compare · {testee}",
                            current.annotations / COMPARE_DIR, progress)
    para_of = {q.question_id: q.para_id for q in asked}
    now = paragraph_error_rates([(para_of[r["question_id"]], r["outcome"]) for r in records])
    tau, before = current.params.search.tau, _error_rates(previous, previous.params.models.testee.model)
    current_sources = set(found_sources(current, testee))
    rows = []
    for para_id in sources:
        rate = now.get(para_id)
        status = NOT_ASKED if rate is None else STILL_FAILING if rate > tau else FIXED
        rows.append({"para_id": para_id, "title": _title(workspace, para_id), "category": _category(workspace, para_id),
                     "error_before": before.get(para_id), "error_now": rate, "status": status})
    new = sorted(current_sources - set(sources))
    result = {
        "previous": previous.run_id, "current": current.run_id, "run_nonce": current.nonce,
        "testee_before": previous.params.models.testee.model,
        "testee": testee, "calls": len(records),
        "arms": {"previous": _error_rates_by_arm(previous), "current": _error_rates_by_arm(current)},
        "counts": {"sources_before": len(sources), **{key: sum(r["status"] == status for r in rows)
                                                       for status, key in _COUNT_KEYS.items()}, "new_sources": len(new)},
        "by_category": _by_category(rows, [{"category": _category(workspace, p)} for p in new]),
        "sources": rows,
        "new_sources": [{"para_id": p, "title": _title(workspace, p), "category": _category(workspace, p)} for p in new],
    }
    directory = current.annotations / COMPARE_DIR
    write_json(directory / f"{previous.run_id}.json", result)
    write_parquet(directory / f"{previous.run_id}.answers.parquet", answers_table(records))
    return result


def knowledge_base_changes(previous: RunDir, current: RunDir) -> list[str]:
    """The knowledge-base data versions the two runs recorded differently, as 'kb OLD -> NEW'."""
    before, now = previous.config["data_versions"], current.config["data_versions"]
    return [f"{name} {before[name]} -> {now[name]}" for name in sorted(before.keys() & now.keys())
            if name.startswith("kb") and before[name] != now[name]]


def _error_rates(run: RunDir, testee: str) -> dict[int, float]:
    rates: dict[int, float] = {}
    for arm in run.arms():
        if arm.testee == testee:
            rates.update(arm.load_state().error_rates)
    return rates


def _error_rates_by_arm(run: RunDir) -> dict[str, dict]:
    return {row["arm"]: {"error_rate": row["cumulative_error_rate"], "vs_random": row["error_rate_vs_random"],
                         "sources": row["cumulative_sources"]}
            for row in summarise(run)["arms"] if row["testee"] == run.params.models.testee.model}


def _title(workspace: Workspace, para_id: int) -> str:
    return str(workspace.paragraphs.store.row(para_id)["title"])


def _category(workspace: Workspace, para_id: int) -> str:
    return workspace.categories.get(workspace.doc_of[para_id], "")


def _by_category(rows: list[dict], new: list[dict]) -> list[dict]:
    categories = sorted({r["category"] for r in rows} | {n["category"] for n in new})
    return [{"category": c, **{key: sum(r["category"] == c and r["status"] == status for r in rows)
                               for status, key in _COUNT_KEYS.items() if status != NOT_ASKED},
             "new_sources": sum(n["category"] == c for n in new)} for c in categories]


def format_comparison(result: dict) -> str:
    counts = result["counts"]
    lines = [f"{result['previous']} ({result['testee_before']})  ->  {result['current']} ({result['testee']})", "",
             f"{'arm':11} {'error before':>12} {'error now':>10} {'× random before':>16} {'× random now':>13}"]
    for arm, now in result["arms"]["current"].items():
        then = result["arms"]["previous"].get(arm, {})
        lines.append(f"{arm:11} {_num(then.get('error_rate')):>12} {_num(now['error_rate']):>10} "
                     f"{_num(then.get('vs_random')):>16} {_num(now['vs_random']):>13}")
    lines += ["", f"earlier sources re-asked on their questions ({result['calls']} calls): {counts['fixed']} fixed, "
                  f"{counts['still_failing']} still failing, {counts['not_reasked']} not re-asked (budget); "
                  f"{counts['new_sources']} new sources", "",
              f"{'category':32} {'fixed':>6} {'still failing':>14} {'new':>5}"]
    lines += [f"{row['category'][:32]:32} {row['fixed']:>6} {row['still_failing']:>14} {row['new_sources']:>5}"
              for row in result["by_category"]]
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
