"""A blind review by reading: a seeded sample of the questions a run asked, judged against their
paragraphs on four criteria, and the counts.

    python benchmarks/question_review.py draw --round N [--run default] --seed S [--exclude ROUND ...] [--unread-articles]
        -> reports/question_review-N.csv (a reviewer fills the four criteria with y/n, a note for every n)
    python benchmarks/question_review.py count --round N [--run default]   -> reports/question_review-N.md
    python benchmarks/question_review.py standing [--run default] [--since 13]
        -> reports/question_review-standing-RUN.md: the earlier rounds' verdicts on the questions the run asks now
    python benchmarks/question_review.py unread-kb
        -> data/cache/enwiki-unread/: the enwiki excerpt plus the articles of gensim's second dump sample that it lacks,
           built into a knowledge base; `draw --unread-articles` then samples only articles no round's sheet shows

Each round's seed is chosen before any of its questions is read (round 1: 20261130, round 2:
20261201, round 3: 20261202, round 4: 20261203, round 5: 20261204,
round 6: 20261205, round 7: 20261206, round 8: 20261207, round 9: 20261208, round 10: 20261209, round 11: 20261210, round 12: 20261211, round 13: 20261212, round 14: 20261213, round 15: 20261214, round 16: 20261215, round 17: 20261216, round 18: 20261217, round 19: 20261218, round 20: 20261219, round 21: 20261220, round 22: 20261221, round 23: 20261222, round 24: 20261223, round 25: 20261224, round 26: 20261225, round 27: 20261226, round 28: 20261227, round 29: 20261228, round 30: 20261229, round 31: 20261230, round 32: 20261231, round 33: 20270101, round 34: 20270102, round 35: 20270103, round 36: 20270104, round 37: 20270105, round 38: 20270106, round 39: 20270107, round 40: 20270108, round 41: 20270109, round 42: 20270110, round 43: 20270111, round 44: 20270112, round 45: 20270113, round 46: 20270114, round 47: 20270115, round 48: 20270116, round 49: 20270117, round 50: 20270118, round 51: 20270119, round 52: 20270120, round 53: 20270121, round 54: 20270122, round 55: 20270123, round 56: 20270124, round 57: 20270125, round 58: 20270126, round 59: 20270127, round 60: 20270128, round 61: 20270129, round 62: 20270130, drawn from runs review62b and review62c together: search seeds 27 and 28 of 5045722's generator;
round 63: 20270131, from runs review63a and review63b together: search seeds 29 and 30 of 778d78b's generator;
round 64: 20270201, from runs review64a and review64b together: search seeds 31 and 32 of 222b6e2's generator;
round 65: 20270202, from runs review65a to review65e together: search seeds 33 to 37 of 7865134's generator; the first
two alone asked 61 questions rounds 24-64 did not judge, the first four 99;
round 66: 20270203, from runs review66a to review66n together: search seeds 38 to 51 of 7865134's generator, g to n the
sea arm alone; a to f alone asked 61 questions rounds 24-65 did not judge, all fourteen 64, so round 66 was not drawn);
rounds 67, 68 and 69: 20270204, 20270205 and 20270206, from run review67 (7865134's generator on the enwiki excerpt, whose
questions no round had read: its knowledge base built by benchmarks/questions.py's enwiki_generator under
data/cache/enwiki-excerpt, then `sea audit --set kb.source=enwiki-sample --set kb.input=data/packaged/enwiki-sample.xml.bz2
--set paths.X=data/cache/enwiki-excerpt/X` for kb_dir, embeddings_dir, index_dir and cache_dir), 68 excluding 67 and 69
both; rounds 70, 71 and 72: 20270207, 20270208 and 20270209, from run review70 (632ab62's generator on the enwiki excerpt
rebuilt with 5abb0b6's, 332babc's and 45b018b's dump fixes under data/cache/enwiki-excerpt-2, the same commands), each
excluding rounds 67-69 and the rounds before it on that run; the rules since round 69 were drawn from this knowledge
base's failures, so these questions are unread but not out of sample; rounds 73, 74 and 75: 20270210, 20270211 and
20270212, from run review73 (230509f's generator, which adds the pronoun rule taken from rounds 70-72, on the same
knowledge base, --run-id review73: 982 base questions asked, 696 that rounds 67-72 did not judge), each excluding rounds
67-72 and the rounds before it on that run); round 76: 20270213, from run review76 (2918a3c's generator on the knowledge
base `unread-kb` builds: the excerpt plus the articles of gensim's second dump sample that it lacks; every question asked
by the command it prints, --run-id review76), drawn with --unread-articles: every question on an article no sheet had shown,
fewer than 100, so the seed only orders them); round 77: 20270214, from the default run made by 74c07ef's generator,
which asks a sentence that ends on the blank as a direct question, excluding the sheets of every earlier round (1-65 and
67-76): the default run's questions no reader has seen, most of them those now asked directly (a new wording gives a
question a new id); their facts and distractors are those of the knowledge base the rules came from, so the round
measures the direct wording, not questions out of sample; round 78: 20270215, from run whole74c (every vital10k question
of the same generator: `sea audit --set budget.testee_calls=8000 --set "search.arms=[random]" --set search.seed=52
--run-id whole74c`), excluding the sheets of every earlier round (1-65 and 67-77): the rest of the questions now asked
directly; round 79: 20270216, from run whole74c again, excluding the sheets of every earlier round (1-65 and 67-78): more
of vital10k's questions no reader has seen, by the same generator; round 80: 20270217, from the default run (74c07ef's
generator), excluding the sheets of every earlier round (1-65 and 67-79): the default audit's questions no reader has
seen yet. One phrasing per base question is drawn: two
phrasings of one question are one item
(round 1 was drawn before this rule, per phrasing, and holds one question twice).
The sheet shows what the testee saw plus the paragraph and the gold answer; nothing about how
the question was made. Each reader gets the text of benchmarks/question_review_instructions.md
(from round 13 on; earlier rounds' readers were given other, stricter instructions)."""

from __future__ import annotations

import argparse
import bz2
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.questions import build_dump_kb  # noqa: E402
from sea.audit.rundir import QUESTIONS, RunDir  # noqa: E402
from sea.choices import LETTERS  # noqa: E402
from sea.files import replacing, write_text  # noqa: E402
from sea.kb.fetch import PACKAGED_SOURCES, PackagedSource, fetch  # noqa: E402
from sea.paragraphs import ParagraphStore  # noqa: E402
from sea.settings import load_params  # noqa: E402

SAMPLE = 100
UNREAD_KB = Path("data/cache/enwiki-unread")
SECOND_DUMP_SAMPLE = PackagedSource("enwiki-table-markup", "gensim==4.4.0", "gensim/test/test_data/enwiki-table-markup.xml.bz2",
                                    "enwiki-table-markup.xml.bz2")  # 5 pages; 1 of them is also in the excerpt
SHOWN = ["title", "paragraph", "question", *(f"option_{letter}" for letter in LETTERS), "gold"]  # what a reader sees
CRITERIA = {
    "supported": "the gold answer is what the paragraph states",
    "self_contained": "the question makes sense on its own and has exactly one right option",
    "distractors": "the three wrong options are plausible and of the gold answer's kind",
    "factual": "it asks about a real fact, not wording or arithmetic",
}


def asked_questions(run: RunDir) -> pd.DataFrame:
    """Every question the run asked (any arm, any step), once."""
    tables = [pd.read_parquet(path) for arm in run.arms() for path in sorted(arm.root.glob(f"steps/*/{QUESTIONS}"))]
    questions = pd.concat(tables).sort_values("question_id")
    return questions.drop_duplicates("base_question_id").reset_index(drop=True)


def sheet(round_: int, suffix: str) -> Path:
    return Path(f"reports/question_review-{round_}.{suffix}")


def read_titles() -> set[str]:
    """The articles some round's sheet has shown a reader."""
    return {title for path in Path("reports").glob("question_review-*.csv")
            for title in pd.read_csv(path, dtype=str, usecols=["title"])["title"]}


def draw(run_ids: list[str], round_: int, seed: int, exclude: list[int], unread_articles: bool = False) -> None:
    """The sample, none of it a question that the sheets of the `exclude` rounds hold (another round on the same run), from
    what the runs asked together: one default run now asks fewer than SAMPLE questions earlier rounds did not judge.
    With `unread_articles`, only questions on articles no sheet has shown, all of them where they are fewer than SAMPLE:
    the rules were drawn from the readers' verdicts, so only such questions are out of sample."""
    runs = [RunDir(Path("runs") / run_id) for run_id in run_ids]
    asked = pd.concat([asked_questions(run) for run in runs]).sort_values("question_id", kind="stable")
    asked = asked.drop_duplicates("base_question_id").reset_index(drop=True)
    run, run_id = runs[0], " + ".join(run_ids)
    store = ParagraphStore(run.params.paths.kb_dir)
    judged = {q for other in exclude for q in pd.read_csv(sheet(other, "csv"), dtype=str)["question_id"]}
    fresh = asked[~asked["question_id"].isin(judged)]
    if unread_articles:
        titles = store.rows(fresh["para_id"].drop_duplicates())["title"]
        fresh = fresh[~fresh["para_id"].map(titles).isin(read_titles())]
        if fresh.empty:
            raise SystemExit(f"run {run_id} asked no question on an article that no round's sheet shows: every one has been "
                             "read; a round out of sample needs a knowledge base with other articles (see `unread-kb`)")
    elif len(fresh) < SAMPLE:
        raise SystemExit(f"run {run_id} asked {len(fresh)} questions that rounds {', '.join(map(str, exclude))} did not judge, "
                         f"fewer than {SAMPLE}: draw from another run (sea audit --set search.seed=N --run-id NEW), from several "
                         "(--run A B), or exclude fewer rounds")
    sample = fresh.sample(min(SAMPLE, len(fresh)), random_state=seed)
    paragraphs = store.rows(sample["para_id"].drop_duplicates())  # two questions of one paragraph: one row
    rows = []
    for q in sample.itertuples():
        paragraph = paragraphs.loc[q.para_id]
        options = list(q.options)
        rows.append({"question_id": q.question_id, "title": paragraph["title"], "paragraph": paragraph["text"],
                     "question": q.question, **{f"option_{letter}": option for letter, option in zip(LETTERS, options, strict=True)},
                     "gold": q.gold_letter, **dict.fromkeys(CRITERIA, ""), "note": ""})
    write_text(sheet(round_, "csv"), pd.DataFrame(rows).to_csv(index=False))
    print(f"{sheet(round_, 'csv')}: {len(rows)} questions of run {run_id} (seed {seed}); fill {', '.join(CRITERIA)} with y/n")


def count(round_: int, run_ids: list[str]) -> None:
    path, run_id = sheet(round_, "csv"), " ".join(run_ids)
    verdicts = pd.read_csv(path, dtype=str, keep_default_na=False)
    unjudged = verdicts[~verdicts[list(CRITERIA)].isin(["y", "n"]).all(axis=1)]
    if len(unjudged):
        raise SystemExit(f"{path}: {len(unjudged)} questions lack a y/n verdict on every criterion, e.g. {unjudged['question_id'].iloc[0]}")
    passed = (verdicts[list(CRITERIA)] == "y").all(axis=1)
    lines = [f"# Blind review of {'the default' if run_id == 'default' else 'an'} audit's questions, round {round_}", "",
             f"{len(verdicts)} questions {'the default run' if run_id == 'default' else f'run `{run_id}`' if len(run_ids) == 1 else 'runs ' + ' and '.join(f'`{r}`' for r in run_ids)} asked, drawn by "
             f"`python benchmarks/question_review.py draw --round {round_}{'' if run_id == 'default' else f' --run {run_id}'}` "
             f"with a seed fixed before reading, each judged against its paragraph. Verdicts: `{path}`.", "",
             "| criterion | passed |", "| --- | --- |",
             *[f"| {text} | {(verdicts[name] == 'y').sum()} / {len(verdicts)} |" for name, text in CRITERIA.items()],
             f"| **all four** | **{passed.sum()} / {len(verdicts)}** |", ""]
    second = sheet(round_, "csv").with_name(f"question_review-{round_}-second-reader.csv")
    if second.is_file():  # another reader judged the same sample independently
        other = pd.read_csv(second, dtype=str, keep_default_na=False).set_index("question_id")
        columns = [column for column in SHOWN if column in other.columns]  # round 3's second sheet kept only the titles
        shown = verdicts.set_index("question_id")[columns]
        if set(other.index) != set(shown.index) or not other.loc[shown.index, columns].equals(shown):
            raise SystemExit(f"{second} does not show the questions {path} shows (a reader's sheet was changed beyond its verdicts): "
                             f"copy the drawn text back and keep only that reader's {', '.join(CRITERIA)} and note")
        other = other.loc[verdicts["question_id"]]
        other_passed = (other[list(CRITERIA)] == "y").all(axis=1).to_numpy()
        lines += [f"A second reader judged the same {len(verdicts)} questions independently (`{second}`): "
                  f"{other_passed.sum()} pass all four; the two readers agree on {(other_passed == passed.to_numpy()).sum()} "
                  f"of {len(verdicts)} all-four verdicts.", ""]
    lines += ["## The failures", ""]
    for row in verdicts[~passed].itertuples():
        failed = ", ".join(name for name in CRITERIA if getattr(row, name) == "n")
        lines.append(f"- `{row.question_id}` ({row.title}; {failed}): {row.note}")
    write_text(sheet(round_, "md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


def standing(run_ids: list[str], since: int) -> None:
    """What the readers of rounds `since` on said of the questions the runs ask now, the latest round's verdicts where two
    judged one. A question's id is a hash of its text and options, so one the generator has changed since is unjudged. The
    rules were drawn from these verdicts, so this is the run's questions as they stand, not an estimate for unread ones."""
    runs = [RunDir(Path("runs") / run_id) for run_id in run_ids]
    asked = set(pd.concat([asked_questions(run) for run in runs])["question_id"])
    rounds = sorted(int(path.stem.split("-")[1]) for path in Path("reports").glob("question_review-*-second-reader.csv"))
    latest = {}
    for round_ in (r for r in rounds if r >= since):  # a round counts once both readers' sheets are in
        first = pd.read_csv(sheet(round_, "csv"), dtype=str, keep_default_na=False).set_index("question_id")
        second = pd.read_csv(sheet(round_, "csv").with_name(f"question_review-{round_}-second-reader.csv"), dtype=str,
                             keep_default_na=False).set_index("question_id")
        for question_id in first.index.intersection(list(asked)):
            latest[question_id] = (round_, first.loc[question_id], second.loc[question_id])
    passes = [[(verdict[list(CRITERIA)] == "y").all() for verdict in (a, b)] for _, a, b in latest.values()]
    firsts, seconds = (sum(p[reader] for p in passes) for reader in (0, 1))
    runs_named = " and ".join(f"`{r}`" for r in run_ids)
    lines = [f"# The questions run {runs_named} asks, as the readers of rounds {since}–{rounds[-1]} judged them", "",
             f"`python benchmarks/question_review.py standing --run {' '.join(run_ids)} --since {since}`: of the {len(asked)} "
             f"questions the run asks, {len(latest)} were judged in a blind round (the latest round's two readers where "
             f"several judged one). The rules were drawn from these verdicts: this is where the run's questions stand, "
             "not an estimate for questions no one has read.", "",
             "| reader | pass all four |", "| --- | --- |",
             f"| first | {firsts} / {len(latest)} ({firsts / len(latest):.1%}) |",
             f"| second | {seconds} / {len(latest)} ({seconds / len(latest):.1%}) |", "",
             f"The readers agree on {sum(a == b for a, b in passes)} of {len(latest)}. Still asked and failed by a reader:", ""]
    for (question_id, (round_, a, b)), (a_passed, b_passed) in sorted(zip(latest.items(), passes), key=lambda item: item[0][1][0]):
        if not (a_passed and b_passed):
            notes = "; ".join(f"{reader}: {verdict['note']}" for reader, verdict, ok in (("first", a, a_passed), ("second", b, b_passed)) if not ok)
            lines.append(f"- `{question_id}` (round {round_}, {a['title']}): {notes}")
    write_text(Path(f"reports/question_review-standing-{'-'.join(run_ids)}.md"), "\n".join(lines) + "\n")
    print("\n".join(lines[:12]))


def merged_dump(first: str, second: str) -> str:
    """The first MediaWiki export with the second's pages whose titles it lacks added at its end."""
    pages = re.findall(r"<page>.*?</page>", second, re.DOTALL)
    titles = set(re.findall(r"<title>(.*?)</title>", first))
    added = [page for page in pages if re.search(r"<title>(.*?)</title>", page).group(1) not in titles]
    end = first.rindex("</mediawiki>")
    return first[:end] + "".join(f"  {page}\n" for page in added) + first[end:]


def unread_kb() -> Path:
    """gensim's wheel carries a second dump sample beside the excerpt; its articles that the excerpt lacks have never been
    read. They are too few for a knowledge base of their own (distractors need articles that define them), so they join
    the excerpt's. The audit command that asks every question of it is printed."""
    params = load_params()
    dumps = [fetch(source, UNREAD_KB) for source in (PACKAGED_SOURCES["enwiki-sample"], SECOND_DUMP_SAMPLE)]
    first, second = (bz2.decompress(path.read_bytes()).decode("utf-8") for path in dumps)
    merged = UNREAD_KB / "dump.xml.bz2"
    with replacing(merged) as partial:  # a build interrupted mid-write leaves no half dump to read next time
        partial.write_bytes(bz2.compress(merged_dump(first, second).encode("utf-8")))
    build_dump_kb(params, UNREAD_KB, merged)  # the audit command below makes the questions
    paths = " ".join(f"--set paths.{name}={UNREAD_KB / name}" for name in ("kb_dir", "embeddings_dir", "index_dir", "cache_dir"))
    print(f"{merged}: built under {UNREAD_KB}; ask every question with\n  sea audit --set kb.source=enwiki-sample "
          f"--set kb.input={merged} {paths} --set budget.testee_calls=8000 --set 'search.arms=[random]' --run-id NAME")
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    draw_command = commands.add_parser("draw")
    draw_command.add_argument("--seed", type=int, required=True, help="chosen before reading any question of the round")
    draw_command.add_argument("--exclude", type=int, nargs="*", default=[], metavar="ROUND",
                              help="rounds drawn from the same run whose questions this one must not repeat")
    draw_command.add_argument("--unread-articles", action="store_true",
                              help="only questions on articles no round's sheet shows (all of them if fewer than 100)")
    for command in (draw_command, commands.add_parser("count")):
        command.add_argument("--round", type=int, required=True)
        command.add_argument("--run", nargs="+", default=["default"], help="the run or runs the round's questions were drawn from")
    standing_command = commands.add_parser("standing")
    standing_command.add_argument("--run", nargs="+", default=["default"], help="the run or runs whose questions to look up")
    standing_command.add_argument("--since", type=int, default=13, help="the first round counted (13: the instructions used since)")
    commands.add_parser("unread-kb")
    args = parser.parse_args()
    if args.command == "draw":
        draw(args.run, args.round, args.seed, args.exclude, args.unread_articles)
    elif args.command == "count":
        count(args.round, args.run)
    elif args.command == "standing":
        standing(args.run, args.since)
    else:
        unread_kb()


if __name__ == "__main__":
    main()
