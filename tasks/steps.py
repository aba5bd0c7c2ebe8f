"""The six SEA phases of a step as Prefect tasks, thin wrappers over sea.audit.steps.

Each takes the run directory, its nonce, the testee, the arm and the step — small values, so the
cache key is cheap — and returns a small record; the data itself stays in the run's files.
Results are cached across flow runs (keyed on the inputs and on the source of the whole project,
persisted), so a resumed run skips the phases an interrupted one completed. The nonce is unique to a run directory: a deleted and
re-created run never gets another run's cached results. Phases that call models retry; the
response cache makes a retry re-pay nothing."""

from __future__ import annotations

import hashlib
from functools import cached_property
from pathlib import Path

from prefect import task
from prefect.cache_policies import INPUTS, TASK_SOURCE, CachePolicy

from sea.audit import steps
from sea.audit.rundir import ArmDir, RunDir
from sea.audit.workspace import Workspace
from tasks.retries import RETRIES, retry_unless_user_error


class ProjectCode(CachePolicy):
    """Keys on the source of every module of the project (sea/, flows/, tasks/), read once per
    process: TASK_SOURCE sees only a wrapper's few lines, so a changed phase behind an unchanged
    wrapper would be served the result of the old code."""

    @cached_property
    def _digest(self) -> str:
        digest = hashlib.blake2b(digest_size=16)
        for path in sorted(p for package in _PACKAGES for p in package.rglob("*.py")):
            digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
        return digest.hexdigest()

    def compute_key(self, task_ctx, inputs, flow_parameters, **kwargs) -> str:
        return self._digest


_ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = (_ROOT / "sea", _ROOT / "flows", _ROOT / "tasks")
CACHED = {"cache_policy": INPUTS + TASK_SOURCE + ProjectCode(), "persist_result": True}
MODEL_CALLING = {**CACHED, **RETRIES, "retry_condition_fn": retry_unless_user_error}


# Six explicit bodies rather than one generated wrapper: TASK_SOURCE hashes a task's own source,
# so a shared wrapper would give all six phases of a step the same cache key.
def _locate(run_root: str, testee: str, arm: str) -> tuple[Workspace, ArmDir]:
    workspace = Workspace.of(Path(run_root))
    return workspace, workspace.run.arm(testee, arm)


@task(name="retrieve", **CACHED)
def retrieve(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.retrieve(*_locate(run_root, testee, arm), step)


@task(name="generate", **MODEL_CALLING)
def generate(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.generate(*_locate(run_root, testee, arm), step)


@task(name="rephrase", **MODEL_CALLING)
def rephrase(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.rephrase(*_locate(run_root, testee, arm), step)


@task(name="evaluate", **MODEL_CALLING)
def evaluate(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.evaluate(*_locate(run_root, testee, arm), step)


@task(name="update_dag", **CACHED)
def update_dag(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.update_dag(*_locate(run_root, testee, arm), step)


@task(name="prune", **CACHED)
def prune(run_root: str, nonce: str, testee: str, arm: str, step: int) -> dict:
    return steps.prune(*_locate(run_root, testee, arm), step)


STEP_TASKS = (retrieve, generate, rephrase, evaluate, update_dag, prune)
_TASK_OF = dict(zip(steps.PHASES, STEP_TASKS, strict=True))


def as_tasks(run: RunDir) -> steps.PhaseRunner:
    """Runs each phase as its Prefect task (sea.audit.steps.run_steps calls it)."""

    def run_phase(phase: steps.Phase, arm: ArmDir, step: int, fresh: bool) -> dict:
        return _TASK_OF[phase].with_options(refresh_cache=fresh)(str(run.root), run.nonce, arm.testee, arm.arm, step)

    return run_phase
