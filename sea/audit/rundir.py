"""The layout of runs/<run_id>/ and the checks that let a run be resumed safely.

    runs/<run_id>/config.json                  params as validated, data versions, a nonce
    runs/<run_id>/bank/<para_id>.json          questions written once per paragraph
    runs/<run_id>/<testee>/<arm>/state.json    the search state after the last complete step
    runs/<run_id>/<testee>/<arm>/steps/0003/   batch.json, evaluation.json, updated.json,
                                               questions/answers/paragraphs.parquet, metrics.json
    runs/<run_id>/<testee>/<arm>.sent-calls.jsonl   calls sent to a paid testee (sea.llm.ledger.SentCalls)
    runs/<run_id>/audit.lock                   while an audit runs: its process id, under an flock (audit_lock)

What is added to a run after its audit lives in annotations/<run_id>/ (audit.annotations_dir, RunDir.annotations):
reviewers' verdicts and sheets (review/) and comparisons with earlier runs (compare/), these recorded with the run's
nonce (RunDir.comparisons).

A step's files are written in order and state.json last, so state.json names the last complete
step and anything newer is the interrupted step's partial work, redone on resume."""

from __future__ import annotations

import csv
import fcntl
import hashlib
import logging
import os
import re
import shlex
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import yaml

from sea.errors import ParamsError, SeaError
from sea.files import DamagedFile, read_json, read_table, write_json
from sea.search.state import SearchState
from sea.settings import FindingsSettings, Params, parse_params

log = logging.getLogger(__name__)

CONFIG_FILE = "config.json"
LOCK_FILE = "audit.lock"  # held by the process auditing the run (audit_lock)
COMPARE_DIR = "compare"  # compare/<earlier run>.json: what changed since that audit (sea.audit.compare)
FIXED, STILL_FAILING, NOT_ASKED = "fixed", "still failing", "not re-asked"  # an earlier source's status in it
REVIEW_DIR = "review"  # reviewers' sheets and verdicts (sea.review)
BATCH, EVALUATION, UPDATED, METRICS = "batch.json", "evaluation.json", "updated.json", "metrics.json"
STEPS_CSV = "steps.csv"  # an arm's gathered table of its completed steps' metrics, a row a step (sea.audit.outputs)
QUESTIONS, ANSWERS, PARAGRAPHS = "questions.parquet", "answers.parquet", "paragraphs.parquet"
# the rows of a step's (and an arm's) paragraphs.parquet: the paragraphs evaluated
PARAGRAPH_SCHEMA = pa.schema([
    ("para_id", pa.int64()), ("doc_id", pa.int64()), ("title", pa.string()), ("section", pa.string()),
    ("category", pa.string()), ("step", pa.int32()), ("error_rate", pa.float64()),  # null: no askable question
    ("questions", pa.int32()), ("source", pa.bool_()), ("retrieved_by", pa.list_(pa.int64())),
])
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
# Sections that may change between a run and its resumption without changing its result.
_RESUMABLE_CHANGES = ("audit.mlflow_tracking_uri", "audit.mlflow_experiment", "audit.annotations_dir",
                      "findings.")  # findings: read after the audit
# How a model is reached, not what it is asked or answers: `--set` may change them when a run is resumed (a rate limit
# that was too high, a timeout too short, the variable holding the key). Not base_url: replies are cached by endpoint.
PACING_AND_RETRIES = ("timeout_s", "max_in_flight", "requests_per_minute", "tokens_per_minute", "max_attempts",
                      "stop_after_failures", "backoff_base_s", "backoff_cap_s", "max_retry_after_s", "api_key_env")


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


def slug(model: str) -> str:
    """A directory name for a model string: 'openai:gpt-4o-mini' -> 'openai-gpt-4o-mini'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-")


def flatten(data: dict, prefix: str = "") -> dict[str, object]:
    """{'a': {'b': 1}} -> {'a.b': 1}; lists stay values."""
    flat: dict[str, object] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def data_versions(params: Params) -> dict[str, str]:
    """Fingerprints of the knowledge base, embeddings and index a run reads (their sidecar
    files), and their DVC hashes when they are the outputs dvc.lock records."""
    sidecars = {"kb": params.paths.kb_dir / "build_report.json", "embeddings": params.paths.embeddings_dir / "embeddings.json",
                "index": params.paths.index_dir / "index.json"}
    versions = {name: hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest() if path.is_file() else "missing"
                for name, path in sidecars.items()}
    outputs = dvc_outputs()
    for name, folder in (("kb", params.paths.kb_dir), ("index", params.paths.index_dir)):
        made = outputs.get(folder.resolve())
        if made is not None:
            versions[f"{name}_dvc_md5"] = made[1].get("md5", "")
    return versions


def dvc_output(folder: Path) -> tuple[str, dict] | None:
    """The stage of this project's dvc.lock whose output the folder is, and the output's record; None when it is no
    stage's, or no dvc.lock is here."""
    return dvc_outputs().get(Path(folder).resolve())


def dvc_outputs() -> dict[Path, tuple[str, dict]]:
    """Every output of this project's dvc.lock (in the working directory, where DVC runs the commands), by its
    resolved path, with its stage's name; empty without a dvc.lock."""
    lock = Path("dvc.lock")
    if not lock.is_file():
        return {}
    stages = (yaml.safe_load(lock.read_text(encoding="utf-8")) or {}).get("stages", {})
    return {Path(out["path"]).resolve(): (name, out) for name, stage in stages.items() for out in stage.get("outs", [])}


def analysis_commands(run: RunDir, findings_dir: Path | None = None, page: Path | None = None) -> tuple[str, str]:
    """`sea findings` and then `sea report` of the run as a hint gives them, writing findings_dir and page, by default
    in the run's folder, or for one a DVC stage makes (runs/default), in which sea refuses to write, in reports/, where
    the pipeline's stages write them; each command with the flags it needs for that, and only those."""
    folder = run.root if dvc_output(run.root) is None else Path("reports")
    findings_dir = findings_dir or folder / "findings"
    page = page or folder / "audit.html"
    read_from = "" if findings_dir == run.root / "findings" else f" --findings {shlex.quote(str(findings_dir))}"
    run_id = shlex.quote(run.run_id)
    return (f"sea findings {run_id}{out_flag(run, findings_dir, 'findings')}",
            f"sea report {run_id}{read_from}{out_flag(run, page, 'audit.html')}")


def out_flag(run: RunDir, path: Path, name: str) -> str:
    """' --out PATH' for a suggested command that writes `name` of the run at path; '' where path is its default."""
    return "" if path == run.root / name else f" --out {shlex.quote(str(path))}"


@dataclass(frozen=True)
class ArmDir:
    root: Path
    testee: str  # the model string
    arm: str
    seed: int

    @property
    def state_path(self) -> Path:
        return self.root / "state.json"

    @property
    def sent_calls_path(self) -> Path:
        """The arm's record of calls sent to a paid testee (sea.llm.ledger.SentCalls): beside the arm's
        folder, so it outlives the arm's deletion to be redone."""
        return self.root.parent / f"{self.arm}.sent-calls.jsonl"

    @property
    def served_path(self) -> Path:
        return self.root / "served-models.json"

    def served_models(self) -> list[str]:
        """The model names the testee's endpoint said answered (none for a testee whose replies name none)."""
        return read_json(self.served_path) if self.served_path.is_file() else []

    def note_served(self, names: frozenset[str]) -> None:
        known = set(self.served_models())
        if not names <= known:
            write_json(self.served_path, sorted(known | names))

    def step_dir(self, step: int) -> Path:
        return self.root / "steps" / f"{step:04d}"

    def load_state(self) -> SearchState:
        """The arm's search state; a fresh one before its first step completes. Missing once a step completed, it
        is damaged: read as an arm that never ran, a summary or report would print another arm's figures."""
        if not self.state_path.is_file():
            later = self.past_first_step()
            if later:
                steps = f"steps/{later[0]}" + (f" to steps/{later[-1]}" if len(later) > 1 else "")
                raise DamagedFile(self.state_path, f"missing, though the arm went past its first step ({steps})",
                                  self._redo_arm)
            if self.gathered_steps():  # gathered from a saved state only: an arm of one step that lost it
                raise DamagedFile(self.state_path, f"missing, though the arm's {STEPS_CSV} records a completed step",
                                  self._redo_arm)
            return SearchState(arm=self.arm, seed=self.seed)
        try:
            return SearchState.from_json(read_json(self.state_path))
        except DamagedFile as damaged:
            raise DamagedFile(self.state_path, damaged.problem, self._redo_arm) from None
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DamagedFile(self.state_path, f"not a search state: {type(error).__name__} {error}", self._redo_arm) from None

    def read(self, step: int, name: str):
        """A step file: JSON as parsed, Parquet as a pyarrow Table; a damaged or missing one is named with its fix."""
        path = self.step_dir(step) / name
        try:
            return read_json(path) if name.endswith(".json") else read_table(path)
        except DamagedFile as damaged:
            raise DamagedFile(path, damaged.problem, self.fix_for(step)) from None
        except FileNotFoundError:  # read only once written (a phase writes its files before the next reads them)
            raise DamagedFile(path, "missing", self.fix_for(step)) from None

    def fix_for(self, step: int) -> str:
        """How to recover from a damaged file of this step: redo the step while it is the one in
        progress, else the arm (whose state already builds on it). Redone work costs no paid call:
        every reply is in the response cache."""
        in_progress = self.state_path.is_file() and step >= self.load_state().step
        if in_progress:
            return f"delete {self.step_dir(step)} and resume (`sea audit --resume {self.run_id}`); the step is redone"
        return self._redo_arm

    @property
    def _redo_arm(self) -> str:
        return (f"delete {self.root} and resume (`sea audit --resume {self.run_id}`): the arm is redone, every model "
                f"call answered from the response cache, so no paid call is repeated")

    @property
    def run_id(self) -> str:
        return self.root.parent.parent.name

    def past_first_step(self) -> list[str]:
        """The arm's step folders after the first: step 1 begins only once step 0's state.json is saved. Not
        step 0's files: a run killed between step 0's metrics.json and its state.json has them and no state,
        and its resume redoes step 0. Nor the files gathered at an arm's end: a report gathers them for an
        arm that has not started too."""
        return sorted(path.name for path in self.root.glob("steps/*") if path.is_dir() and path.name != f"{0:04d}")

    def gathered_steps(self) -> int | None:
        """How many steps the arm's whole-run tables were gathered from (steps.csv has a row a step); None if never gathered."""
        path = self.root / STEPS_CSV
        if not path.is_file():
            return None
        with path.open(encoding="utf-8", newline="") as rows:
            return sum(1 for _ in csv.DictReader(rows))

    def check(self) -> None:
        """The arm's state is readable (load_state), and every completed step's files are readable and agree
        with its metrics.json."""
        for step in range(self.load_state().step):
            metrics = self.read(step, METRICS)
            expected = {ANSWERS: metrics["questions_asked"] + metrics["failed_calls"], PARAGRAPHS: metrics["paragraphs"],
                        QUESTIONS: metrics["questions_asked"] + metrics["failed_calls"]}
            for name, rows in expected.items():
                found = self.read(step, name).num_rows
                if found != rows:
                    raise DamagedFile(self.step_dir(step) / name, f"{found} rows where the step's {METRICS} records {rows}",
                                      self.fix_for(step))

    @property
    def label(self) -> str:
        return f"{self.arm} · {self.testee}"


_SAID_STALE: set[Path] = set()  # comparison files already said to be another run's


def restore_config(root: Path) -> str:
    """The fix for a run whose config.json is damaged or missing. Never the file alone: a run id whose folder
    holds steps but no config would be audited again as a new run with whatever params, continuing the
    old arms' state under them (a mixed audit)."""
    return f"restore {CONFIG_FILE} from a backup, or delete the whole run folder {root} to start the audit over"


class RunDir:
    def __init__(self, root: Path):
        self.root = root
        try:
            self.config = read_json(root / CONFIG_FILE)
        except DamagedFile as damaged:  # not "delete it": the run's steps would be continued under other params
            raise DamagedFile(damaged.path, damaged.problem, restore_config(root)) from None
        recorded = self.config.get("params") if isinstance(self.config, dict) else None
        if not isinstance(recorded, dict) or not {"created", "nonce"} <= set(self.config):
            raise DamagedFile(root / CONFIG_FILE, "is not a run's configuration (no params, created or nonce)",
                              restore_config(root))
        # The findings section is read from the current params after the audit (_RESUMABLE_CHANGES): a key a later
        # version dropped (findings.distance_threshold) must not make an older run unreadable.
        findings = {key: value for key, value in recorded.get("findings", {}).items() if key in FindingsSettings.model_fields}
        started = parse_params({**recorded, "findings": findings}, str(root / CONFIG_FILE))
        # A run moved or copied to another folder continues where it is now, not where it started.
        self.params = started.model_copy(update={"audit": started.audit.model_copy(update={"runs_dir": root.parent})})

    @property
    def run_id(self) -> str:
        return self.root.name

    @property
    def nonce(self) -> str:
        """Unique to this run directory: cached task results of a deleted run never serve a new one."""
        return self.config["nonce"]

    @property
    def bank_dir(self) -> Path:
        return self.root / "bank"

    @property
    def annotations(self) -> Path:
        """annotations/<run_id>/: what is added to the run after its audit (reviews, comparisons). Not in the run
        folder: `dvc repro` restores that from its cache and so deleted them. A run that still holds them there
        (written by an earlier SEA) is refused until they are moved, rather than read from two places."""
        folder = self.params.audit.annotations_dir / self.run_id
        inside = [self.root / name for name in (REVIEW_DIR, COMPARE_DIR) if (self.root / name).exists()]
        if inside:
            moved = [path for path in inside if not (folder / path.name).exists()]
            fixes = [f"mkdir -p {folder} && mv {' '.join(map(str, moved))} {folder}/"] if moved else []
            fixes += [f"{folder / path.name} is there already (mv would stop: Directory not empty), so merge {path}'s "
                      f"files into it (a file both hold: keep the newer; verdicts.jsonl: the lines of both, ordered by "
                      f"recorded_at, as a later verdict on a question replaces an earlier one), then delete {path}"
                      for path in inside if path not in moved]
            raise SeaError(f"{' and '.join(map(str, inside))}: kept in {folder} now, out of the run folder that "
                           f"`dvc repro` restores; move them there first: {'; '.join(fixes)}")
        return folder

    def arms(self) -> list[ArmDir]:
        search = self.params.search
        return [ArmDir(self.root / slug(testee.model) / arm, testee.model, arm, search.seed)
                for testee in self.params.testee_settings() for arm in search.arms]

    def resumed_with(self, overrides: dict[str, object]) -> Params:
        """The run's params with `--set` overrides of PACING_AND_RETRIES applied (any other override is refused)."""
        if not overrides:
            return self.params
        changed = parse_params(self.params.model_dump(mode="json"), str(self.root / CONFIG_FILE), overrides)
        refused = [key for key in differences(self.params, changed)
                   if not (key.startswith("models.") and key.rsplit(".", 1)[-1] in PACING_AND_RETRIES)]
        if refused:
            raise ParamsError(f"--set {', '.join(refused)}: a resumed run keeps the params it was started with; only how "
                              f"its models are reached may change ({', '.join(PACING_AND_RETRIES)} of a models.* role). "
                              f"Start a new run (another --run-id) for the rest")
        return changed

    def keep_params(self, params: Params) -> None:
        """Record the params the run continues with (resumed_with's), so every later step reads them."""
        if params != self.params:
            self.config = {**self.config, "params": params.model_dump(mode="json")}
            write_json(self.root / CONFIG_FILE, self.config)
            self.params = params

    def progress(self) -> dict[str, int]:
        """The complete steps of each testee/arm: what an analysis of the run (findings, retest, transfer) was
        made from, so that a report can tell one made before the run went on."""
        return {f"{arm.testee}/{arm.arm}": arm.load_state().step for arm in self.arms()}

    def unfinished(self) -> list[ArmDir]:
        """The arms with budget left: still running, or stopped before the end."""
        return [arm for arm in self.arms() if not arm.load_state().finished]

    def comparisons(self) -> list[dict]:
        """What sea.audit.compare found against earlier audits, as saved for this run: each records the run's nonce
        (one without is an earlier SEA's, taken as this run's). A run deleted and audited again under the same id, or
        rerun by `dvc repro`, finds those made for the earlier one, whose answers are gone: they are left out, said
        once with the command that makes them again."""
        folder = self.annotations / COMPARE_DIR
        saved = [(path, read_json(path)) for path in sorted(folder.glob("*.json"))]
        stale = [path for path, record in saved if record.get("run_nonce", self.nonce) != self.nonce]
        if stale and not _SAID_STALE.issuperset(stale):
            _SAID_STALE.update(stale)
            log.warning("%s: made for an earlier run %r, since audited again under this id: left out; compare again with "
                        "`sea compare PREVIOUS %s`", ", ".join(map(str, stale)), self.run_id, self.run_id)
        return [record for path, record in saved if path not in stale]

    def check(self) -> None:
        """Refuses a run whose files are damaged or disagree, naming the file and the fix."""
        for arm in self.arms():
            arm.check()

    def arm(self, testee: str, arm: str) -> ArmDir:
        for candidate in self.arms():
            if candidate.testee == testee and candidate.arm == arm:
                return candidate
        raise ParamsError(f"run {self.run_id} has no arm {arm!r} for testee {testee!r}")


def check_run_id(run_id: str) -> None:
    if not _RUN_ID.match(run_id):
        raise ParamsError(f"run id {run_id!r}: use letters, digits, '.', '_' or '-' (at most 100 characters)")


class RunBusy(SeaError):
    """Another process is auditing the run."""


_HELD: dict[Path, list] = {}  # lock file -> [its descriptor, the folders made for it, how many blocks of this process hold it]
_HELD_LOCK = threading.Lock()


@contextmanager
def audit_lock(runs_dir: Path, run_id: str) -> Iterator[None]:
    """The run is this process's to audit while the block runs: an exclusive flock on runs/<run_id>/audit.lock.
    Another process auditing the run (new or resumed) is refused at once with RunBusy: two would both write
    its steps, state and MLflow runs. The OS releases the lock when the process ends, however it ends, so a
    killed audit leaves none behind. Reentrant within a process (the CLI holds it around the flow, which
    takes it too). The run folder, when the block leaves it empty (an audit refused or failed before its
    config.json), is removed again, and so is a runs folder made for it: nothing is left of such an audit."""
    check_run_id(run_id)
    path = (runs_dir / run_id / LOCK_FILE).absolute()
    with _HELD_LOCK:
        if path in _HELD:
            _HELD[path][2] += 1
        else:
            made = [folder for folder in path.parent.parents if not folder.exists()]
            _HELD[path] = [_acquire(path, run_id), made, 1]
    try:
        yield
    finally:
        with _HELD_LOCK:
            held = _HELD[path]
            held[2] -= 1
            if held[2] == 0:
                del _HELD[path]
                _release(path, held[0], held[1])


def _acquire(path: Path, run_id: str) -> int:
    while True:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:  # the folder was removed by a process that just released it
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            by = f" (process {holder})" if holder.isdigit() else ""
            raise RunBusy(f"run {run_id!r} is being audited by another process{by}; wait for it to end, or stop it and "
                          f"continue the run with `sea audit --resume {run_id}`") from None
        # The file may have been unlinked by the holder that released it between our open and our flock:
        # a lock on that file would guard nothing, so the one now at the path is opened again.
        try:
            now = os.stat(path)
        except FileNotFoundError:
            now = None
        mine = os.fstat(fd)
        if now is not None and (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
            return fd
        os.close(fd)


def _release(path: Path, fd: int, made: list[Path]) -> None:
    """The lock file is removed while still locked (a process about to lock it then finds it gone and opens
    a new one), then unlocked; so are the run folder and the folders made for it, while nothing else is in them."""
    try:
        path.unlink(missing_ok=True)
        for folder in [path.parent, *made]:
            try:
                folder.rmdir()
            except OSError:  # not empty: the run, or other runs
                break
    finally:
        os.close(fd)


def existing_run(runs_dir: Path, run_id: str, params: Params | None) -> RunDir | None:
    """The run with this id, checked to continue with `params` (and the same data): anything else
    would mix two audits; None when there is none yet. With params None the run must exist and
    continues with its own params. Creates nothing."""
    check_run_id(run_id)
    root = runs_dir / run_id
    if not (root / CONFIG_FILE).is_file():
        # config.json is the first file a run writes: anything else there is an audit that lost it
        left = sorted(entry.name for entry in root.glob("*") if entry.name != LOCK_FILE and not
                      (entry.name.startswith(f"{CONFIG_FILE}.") and entry.name.endswith(".partial")))
        if left:
            raise DamagedFile(root / CONFIG_FILE, f"missing, but the run folder holds an audit's files: {', '.join(left)}",
                              restore_config(root))
        if params is None:
            known = ", ".join(sorted(p.name for p in runs_dir.glob("*") if (p / CONFIG_FILE).is_file())) or "none"
            raise ParamsError(f"no run {run_id!r} in {runs_dir.absolute()} (runs there: {known}); start one with "
                              f"`sea audit`")
        return None
    run = RunDir(root)
    if params is not None:
        changed = differences(run.params, params)
        if changed:
            raise ParamsError(f"run {run_id!r} was started with other params ({', '.join(changed)}); resume it with "
                              f"`sea audit --resume {run_id}`, or start a new run with another --run-id")
    versions = data_versions(run.params)  # a DVC hash not readable here (no dvc.lock in this directory) is no change
    stale = [name for name, value in run.config["data_versions"].items() if name in versions and versions[name] != value]
    if stale:
        raise ParamsError(f"run {run_id!r} was made with another {', '.join(stale)} than is built now; its results would "
                          f"not match the data. Start a new run with another --run-id")
    return run


def open_run(runs_dir: Path, run_id: str, params: Params | None) -> RunDir:
    """The run directory: the existing one (see existing_run), or a new one made for `params`."""
    run = existing_run(runs_dir, run_id, params)
    if run is not None:
        return run
    root = runs_dir / run_id
    write_json(root / CONFIG_FILE, {"run_id": run_id, "nonce": uuid.uuid4().hex, "created": datetime.now(UTC).isoformat(),
                                    "params": params.model_dump(mode="json"), "data_versions": data_versions(params)})
    return RunDir(root)


def differences(old: Params, new: Params) -> list[str]:
    before, after = flatten(old.model_dump(mode="json")), flatten(new.model_dump(mode="json"))
    return sorted(key for key in before.keys() | after.keys()
                  if before.get(key) != after.get(key) and not key.startswith(_RESUMABLE_CHANGES))
