"""`sea transfer RUN_ID`: whether one testee's blind spots are another's (the paper's Knowl 8).

Every testee of a run answers the questions of every other testee's source paragraphs (its error
subset). They are the run's own questions, so no generator is called; an answer a testee already
gave in the run is reused, the rest are asked within findings.transfer_calls calls per testee,
whole paragraphs in a seeded order. The result: the accuracy of testee i on testee j's error
subset, the correlation of their per-paragraph error rates there (per direction: the subsets
differ, so it need not be symmetric), which of j's error clusters i fails too, and for a
simulated testee the accuracy its planted blind spots predict."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sea.audit.figures import plt, png
from sea.audit.ground_truth import planted_for
from sea.audit.rundir import RunDir, slug
from sea.audit.steps import closed_book_prompt
from sea.audit.workspace import Workspace
from sea.errors import ParamsError
from sea.files import replacing, write_json, write_parquet, write_text
from sea.findings.analysis import Evaluated, evaluated
from sea.llm.simulated import expected_error
from sea.questions.grading import answers_table, ask_once_each
from sea.questions.model import Outcome, question_from_record
from sea.search.loop import fit_to_budget
from sea.settings import FindingsSettings, Params

MIN_CORRELATED = 3  # paragraphs needed for a correlation


@dataclass(frozen=True)
class Answers:
    """One testee's answers that count (failed calls left out) and where they came from."""
    outcomes: pd.Series  # question_id -> outcome
    counts: dict  # reused, asked, failed, not_asked (the budget ran out first)


def error_subset(seen: Evaluated) -> pd.DataFrame:
    """The questions a testee was asked about its source paragraphs, with their article and category."""
    if seen.asked.empty:
        return pd.DataFrame(columns=["question_id", "para_id", "outcome", "doc_id", "category"])
    sources = seen.paragraphs.loc[seen.paragraphs["source"], ["para_id", "doc_id", "category"]]
    return seen.asked[seen.asked["outcome"] != Outcome.FAILED].merge(sources, on="para_id")


def transfer(run: RunDir, settings: FindingsSettings, out: Path, clusters: dict | None = None, progress: bool = True) -> dict:
    """Every testee on every other's error subset (see the module docstring); writes transfer.json,
    transfer.md, transfer.png and each testee's new answers (Parquet) into `out`. `clusters`: a
    `sea findings` result, for the shared and unique clusters."""
    testees = compared_testees(run)
    seen = {t: evaluated(run, t) for t in testees}
    subsets = {t: error_subset(seen[t]) for t in testees}
    answers = {i: _answers(run, i, seen[i], [subsets[j] for j in testees if j != i], settings, out, progress) for i in testees}
    truth = {t: _ground_truth(run.params, t) for t in testees}
    result = {"run_id": run.run_id, "run_steps": run.progress(), "testees": testees, "tau": run.params.search.tau,
              "calls": {t: answers[t].counts for t in testees},
              "pairs": [on_error_subset(i, j, subsets[j], answers[i].outcomes, truth[i]) for j in testees for i in testees],
              "clusters": _shared_clusters(clusters, subsets, answers, run.params.search.tau) if clusters else None}
    write_json(out / "transfer.json", result)
    write_text(out / "transfer.md", transfer_markdown(result))
    with replacing(out / "transfer.png") as partial:
        partial.write_bytes(heat_map(result))
    return result


def compared_testees(run: RunDir) -> list[str]:
    testees = [t.model for t in run.params.testee_settings()]
    if len(testees) < 2:
        raise ParamsError(f"run {run.run_id} audited one testee ({testees[0]}); transfer compares two or more: audit "
                          f"them together with audit.testees, e.g. --set 'audit.testees=[local:smollm2-135m]'")
    return testees


def _answers(run: RunDir, testee: str, seen: Evaluated, others: list[pd.DataFrame], settings: FindingsSettings,
             out: Path, progress: bool) -> Answers:
    known = {} if seen.asked.empty else dict(seen.asked.loc[seen.asked["outcome"] != Outcome.FAILED,
                                                             ["question_id", "outcome"]].itertuples(index=False))
    needed = pd.concat(others).drop_duplicates("question_id")
    reused = needed["question_id"].isin(list(known))
    missing = needed[~reused]
    counts = missing.groupby("para_id").size().to_dict()
    order = list(np.random.default_rng(settings.seed).permutation(sorted(counts)))
    chosen = set(fit_to_budget([int(p) for p in order], counts, settings.transfer_calls))
    questions = [question_from_record(r) for r in missing[missing["para_id"].isin(chosen)].to_dict("records")]
    records = []
    if questions:
        workspace = Workspace.of(run.root)
        client = workspace.testee(testee)
        prompts = [closed_book_prompt(workspace, q) for q in questions]
        records = ask_once_each(client, questions, prompts, f"transfer {run.nonce}", f"transfer · {testee}", out,
                                progress)
    write_parquet(out / f"transfer-{slug(testee)}.answers.parquet", answers_table(records))
    new = {r["question_id"]: r["outcome"] for r in records if r["outcome"] != Outcome.FAILED}
    return Answers(pd.Series({**known, **new}, dtype=object),
                   {"reused": int(reused.sum()), "asked": len(records), "failed": len(records) - len(new),
                    "not_asked": len(missing) - len(records)})


def _ground_truth(params: Params, testee: str) -> tuple | None:
    planted = planted_for(params, testee)
    return None if planted is None else (params.simulated[testee.partition(":")[2]], planted)


def on_error_subset(testee: str, subset_of: str, subset: pd.DataFrame, outcomes: pd.Series, truth: tuple | None) -> dict:
    """Testee on subset_of's error subset: accuracy over the questions it answered, and the
    correlation of the two testees' per-paragraph error rates over the paragraphs both answered."""
    answered = subset[subset["question_id"].isin(outcomes.index)]
    theirs = answered["outcome"] != Outcome.CORRECT
    mine = outcomes.reindex(answered["question_id"]).to_numpy() != Outcome.CORRECT
    rates = pd.DataFrame({"para_id": answered["para_id"].to_numpy(), "theirs": theirs.to_numpy(), "mine": mine}
                         ).groupby("para_id").mean()
    expected = None
    if truth is not None and testee != subset_of and len(answered):  # on its own subset, selection biases any prediction
        profile, planted = truth
        expected = float(np.mean([1 - expected_error(profile, planted, c, d)
                                  for c, d in zip(answered["category"], answered["doc_id"], strict=True)]))
    sources = subset.drop_duplicates("para_id")
    return {"testee": testee, "subset_of": subset_of, "sources": len(sources), "paragraphs": len(rates),
            "questions": len(answered), "accuracy": float(1 - mine.mean()) if len(answered) else None,
            "expected_accuracy": expected, "correlation": _correlation(rates["theirs"], rates["mine"]),
            "inside_blind_spots": float(sources["doc_id"].isin(list(truth[1])).mean()) if truth and len(sources) else None}


def _correlation(a: pd.Series, b: pd.Series) -> float | None:
    if len(a) < MIN_CORRELATED or a.std() == 0 or b.std() == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def _shared_clusters(clusters: dict, subsets: dict[str, pd.DataFrame], answers: dict[str, Answers], tau: float) -> list[dict]:
    """Per error cluster of each testee: every other testee's error rate on its questions; the
    cluster is shared with those above tau, unique when there is none."""
    rows = []
    for found in clusters["testees"]:
        owner = found["testee"]
        if owner not in subsets:
            continue
        cluster_of = {int(p): c for p, c in found["assignments"].items()}
        subset = subsets[owner].assign(cluster=lambda frame: frame["para_id"].map(cluster_of))
        for described in found["clusters"]:
            questions = subset[subset["cluster"] == described["cluster"]]
            others = {}
            for other, given in answers.items():
                if other != owner:
                    outcomes = given.outcomes.reindex(questions["question_id"]).dropna()
                    others[other] = float((outcomes != Outcome.CORRECT).mean()) if len(outcomes) else None
            rows.append({"testee": owner, "cluster": described["cluster"], "name": described.get("name"), "terms": described["terms"],
                         "titles": described["titles"], "sources": described["sources"],
                         "error_rate": described["error_rate"], "others": others,
                         "shared_with": [o for o, rate in others.items() if rate is not None and rate > tau]})
    return rows


def transfer_metrics(result: dict) -> dict[str, float | None]:
    return {f"transfer.{slug(p['testee'])}.on.{slug(p['subset_of'])}.{key}": p[key]
            for p in result["pairs"] if p["testee"] != p["subset_of"] for key in ("accuracy", "correlation")}


def heat_map(result: dict) -> bytes:
    """Accuracy of each testee (rows) on each testee's error subset (columns), with the value
    ground truth predicts beneath where there is one."""
    testees = result["testees"]
    cells = {(p["testee"], p["subset_of"]): p for p in result["pairs"]}
    grid = np.array([[cells[i, j]["accuracy"] if cells[i, j]["accuracy"] is not None else np.nan for j in testees]
                     for i in testees])
    size = 1.9 * len(testees) + 2.2
    figure, ax = plt.subplots(figsize=(size, size * 0.8))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    for (r, i), (c, j) in ((ri, cj) for ri in enumerate(testees) for cj in enumerate(testees)):
        pair = cells[i, j]
        text = "-" if pair["accuracy"] is None else f"{pair['accuracy']:.2f}"
        if pair["expected_accuracy"] is not None:
            text += f"\nexpected {pair['expected_accuracy']:.2f}"
        ax.text(c, r, f"{text}\n{pair['questions']} q", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(testees)), [t.replace(":", ":\n") for t in testees], fontsize=8)
    ax.set_yticks(range(len(testees)), testees, fontsize=8)
    ax.set_xlabel("error subset of (its source paragraphs' questions)")
    ax.set_ylabel("answered by")
    ax.set_title("Accuracy on each other's blind spots", fontsize=10)
    figure.colorbar(image, ax=ax, shrink=0.8, label="accuracy")
    figure.tight_layout()
    return png(figure)


def transfer_markdown(result: dict) -> str:
    testees = result["testees"]
    cells = {(p["testee"], p["subset_of"]): p for p in result["pairs"]}
    lines = [f"# Transfer across the testees of `{result['run_id']}`", "",
             "Accuracy of each testee (rows) on each testee's error subset (columns: the questions of its source "
             "paragraphs); in brackets what the planted blind spots predict for a simulated testee.", "",
             "| answered by | " + " | ".join(f"{j}'s sources" for j in testees) + " |",
             "| --- |" + " --- |" * len(testees)]
    for i in testees:
        lines.append(f"| {i} | " + " | ".join(_cell(cells[i, j]) for j in testees) + " |")
    lines += ["", "| testee | on the error subset of | sources | questions | accuracy | expected | correlation of "
                  "per-paragraph error rates | sources inside its planted blind spots |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for p in result["pairs"]:
        if p["testee"] != p["subset_of"]:
            lines.append(f"| {p['testee']} | {p['subset_of']} | {p['sources']} | {p['questions']} | {_num(p['accuracy'])} | "
                         f"{_num(p['expected_accuracy'])} | {_num(p['correlation'])} | {_share(p['inside_blind_spots'])} |")
    lines += ["", "Calls per testee: " + "; ".join(
        f"{t}: {c['reused']} answers reused from the audit, {c['asked']} asked ({c['failed']} failed), "
        f"{c['not_asked']} not asked (transfer_calls)" for t, c in result["calls"].items()), ""]
    if result["clusters"] is not None:
        lines += [f"Error clusters and who else fails them (error rate above tau = {result['tau']}):", "",
                  "| testee | cluster | distinctive terms | sources | its error rate | others' error rates | shared with |",
                  "| --- | --- | --- | --- | --- | --- | --- |"]
        for c in result["clusters"]:
            others = ", ".join(f"{o} {_num(rate)}" for o, rate in c["others"].items())
            named = f"{c['name']}: " if c.get("name") else ""
            lines.append(f"| {c['testee']} | {c['cluster']} | {named}{', '.join(c['terms'])} | {c['sources']} | "
                         f"{_num(c['error_rate'])} | {others} | {', '.join(c['shared_with']) or 'unique'} |")
        lines.append("")
    return "\n".join(lines)


def _cell(pair: dict) -> str:
    expected = f" ({pair['expected_accuracy']:.2f})" if pair["expected_accuracy"] is not None else ""
    return f"{_num(pair['accuracy'])}{expected}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"
