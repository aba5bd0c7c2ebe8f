"""`make bench-steps`: where an audit's time goes (-> reports/benchmarks/steps.json and .md).

1. The default audit (vital10k, offline generator, simulated testee, its budget), `sea` arm only,
   as a Prefect flow: seconds per step split by the six tasks, read from Prefect's own task-run
   records, and the orchestration overhead (flow wall time outside the task bodies). Run twice
   on one empty cache folder: first as on a new machine (every paragraph tagged and embedded
   afresh), then under another run id as a later audit sees it (what was tagged read back).
2. The later audit replayed (same run id): every step is read back from the run directory.
3. Orchestration overhead when the testee takes 0.5 s a call: a fake OpenAI-compatible server
   on 127.0.0.1 with 0.5 s latency as the testee, 8 calls in flight."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

from benchmarks.report import write_report  # noqa: E402
from flows.audit import sea_audit  # noqa: E402
from sea.llm.fake_server import FakeLLMServer  # noqa: E402
from sea.questions.entities import forget_tagged  # noqa: E402
from sea.settings import load_params  # noqa: E402
from tasks.steps import STEP_TASKS  # noqa: E402

RUNS = Path("runs/bench-steps")
TASKS = [t.name for t in STEP_TASKS]
DEFAULT = {"search.arms": ["sea"], "audit.runs_dir": str(RUNS), "audit.mlflow_tracking_uri": f"sqlite:///{RUNS}/mlflow.db"}


async def _task_seconds(flow_run_id) -> dict[str, list[float]]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    seconds: dict[str, list[float]] = defaultdict(list)
    async with get_client() as client:
        offset = 0
        while True:
            runs = await client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])),
                                               limit=200, offset=offset)
            for run in runs:
                seconds[run.name.rsplit("-", 1)[0]].append(run.total_run_time.total_seconds())
            if len(runs) < 200:
                return seconds
            offset += 200


def timed_flow(**kwargs) -> dict:
    started = time.perf_counter()
    state = sea_audit(**kwargs, return_state=True)
    wall = time.perf_counter() - started
    summary = state.result()
    seconds = asyncio.run(_task_seconds(state.state_details.flow_run_id))
    steps = sum(row["steps"] for row in summary["arms"])
    in_tasks = sum(sum(v) for v in seconds.values())
    return {"wall_s": round(wall, 2), "steps": steps, "in_tasks_s": round(in_tasks, 2),
            "per_step_s": {name: round(sum(seconds.get(name, [])) / steps, 3) for name in TASKS} if steps else {},
            "step_s": round(wall / steps, 3) if steps else None,
            "orchestration_overhead_s_per_step": round((wall - in_tasks) / steps, 3) if steps else None,
            "orchestration_share": round((wall - in_tasks) / wall, 4)}


def main() -> None:
    shutil.rmtree(RUNS, ignore_errors=True)
    budget = load_params().budget.testee_calls
    with tempfile.TemporaryDirectory(prefix="sea-bench-caches-") as caches:
        audit = {**DEFAULT, "paths.cache_dir": caches}
        first = timed_flow(overrides=audit, run_id="first")
        forget_tagged()  # a later audit is a new process: what was tagged comes from the cache folder
        later = timed_flow(overrides=audit, run_id="later")
        replay_started = time.perf_counter()
        sea_audit(overrides=audit, run_id="later")
        replay = round(time.perf_counter() - replay_started, 2)
        with FakeLLMServer(latency_s=0.5) as server:
            slow = timed_flow(overrides={**audit, "budget.testee_calls": 1200, "models.testee.model": "openai-compatible:fake",
                                         "models.testee.base_url": server.base_url + "/v1", "models.testee.max_in_flight": 8},
                              run_id="slow-testee")
    columns = {"first audit (nothing cached)": first, "a later audit (tags and vectors cached)": later, "testee at 0.5 s a call": slow}
    report = {"command": "make bench-steps", "default_audit": {**DEFAULT, "budget.testee_calls": budget},
              "first_audit": first, "later_audit": later, "replay_s": replay, "testee_0_5s": slow,
              "target": "orchestration overhead <= 5% of a step's wall time with a 0.5 s testee"}
    def row(label: str, cell) -> str:
        return f"| {label} | {' | '.join(cell(result) for result in columns.values())} |"

    rows = [row(name, lambda r, name=name: f"{r['per_step_s'].get(name, 0):.3f}") for name in TASKS]
    rows.append(row("whole step (wall)", lambda r: f"{r['step_s']:.3f}"))
    rows.append(row("orchestration overhead (target <= 5% with the slow testee)",
                    lambda r: f"{r['orchestration_overhead_s_per_step']:.3f} ({r['orchestration_share']:.1%})"))
    markdown = (f"# Where the time goes\n\nCommand: `make bench-steps`. Seconds per step, from Prefect's task-run records: "
                f"the default audit's `sea` arm (budget {budget:,}, simulated testee) twice on one empty cache folder, "
                f"then against a testee at 0.5 s a call (budget 1,200).\n\n"
                f"| task | {' | '.join(columns)} |\n| --- |{' --- |' * len(columns)}\n" + "\n".join(rows) + "\n\n"
                f"The first audit: {first['steps']} steps in {first['wall_s']} s; the later one: {later['steps']} steps in "
                f"{later['wall_s']} s. Replaying the later audit (same run id): {replay} s, no model call.\n")
    write_report("steps", report, markdown)


if __name__ == "__main__":
    main()
