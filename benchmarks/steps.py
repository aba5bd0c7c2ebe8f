"""`make bench-steps`: where an audit's time goes (-> reports/benchmarks/steps.json and .md).

1. The default audit (vital10k, offline generator, simulated testee) at a smaller budget, as a
   Prefect flow: seconds per step split by the six tasks, read from Prefect's own task-run
   records, and the orchestration overhead (flow wall time outside the task bodies).
2. The same audit replayed (same run id): every step is read back from the run directory.
3. Orchestration overhead when the testee takes 0.5 s a call: a fake OpenAI-compatible server
   on 127.0.0.1 with 0.5 s latency as the testee, 8 calls in flight."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

from benchmarks.report import write_report  # noqa: E402
from flows.audit import sea_audit  # noqa: E402
from sea.llm.fake_server import FakeLLMServer  # noqa: E402
from tasks.steps import STEP_TASKS  # noqa: E402

RUNS = Path("runs/bench-steps")
TASKS = [t.name for t in STEP_TASKS]
DEFAULT = {"budget.testee_calls": 2000, "search.arms": ["sea"], "audit.runs_dir": str(RUNS),
           "audit.mlflow_tracking_uri": f"sqlite:///{RUNS}/mlflow.db"}


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
    default = timed_flow(overrides=DEFAULT, run_id="default")
    replay_started = time.perf_counter()
    sea_audit(overrides=DEFAULT, run_id="default")
    replay = round(time.perf_counter() - replay_started, 2)
    with FakeLLMServer(latency_s=0.5) as server:
        slow = timed_flow(overrides={**DEFAULT, "budget.testee_calls": 1200, "models.testee.model": "openai-compatible:fake",
                                     "models.testee.base_url": server.base_url + "/v1", "models.testee.max_in_flight": 8},
                          run_id="slow-testee")
    report = {"command": "make bench-steps", "default_audit": {**DEFAULT, "result": default}, "replay_s": replay,
              "testee_0_5s": slow, "target": "orchestration overhead <= 5% of a step's wall time with a 0.5 s testee"}
    rows = "\n".join(f"| {name} | {default['per_step_s'].get(name, 0):.3f} | {slow['per_step_s'].get(name, 0):.3f} |" for name in TASKS)
    markdown = (f"# Where the time goes\n\nCommand: `make bench-steps`. Seconds per step, from Prefect's task-run records.\n\n"
                f"| task | default audit (simulated testee) | testee at 0.5 s a call |\n| --- | --- | --- |\n{rows}\n"
                f"| whole step (wall) | {default['step_s']:.3f} | {slow['step_s']:.3f} |\n"
                f"| orchestration overhead | {default['orchestration_overhead_s_per_step']:.3f} "
                f"({default['orchestration_share']:.1%}) | {slow['orchestration_overhead_s_per_step']:.3f} "
                f"({slow['orchestration_share']:.1%}; target <= 5%) |\n\n"
                f"Default audit: {default['steps']} steps in {default['wall_s']} s (budget 2,000, sea arm). "
                f"Replaying the finished audit (same run id): {replay} s, no model call.\n")
    write_report("steps", report, markdown)


if __name__ == "__main__":
    main()
