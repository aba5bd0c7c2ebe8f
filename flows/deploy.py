"""A recurring audit: the sea_audit flow as a Prefect deployment on a cron schedule.

`make schedule` serves it from this process (python -m flows.deploy) against a real Prefect server
— the one PREFECT_API_URL names, or one started here with its scheduler and stopped with this
process. With a long-lived server and a work pool, `prefect deploy flows/audit.py:sea_audit` does the same
(README: "Recurring audits"). Every scheduled run gets a new run id and its own
MLflow run, tagged with the schedule, so audits of the same model line up over time."""

from __future__ import annotations

import argparse
import math
import signal
import sys
from contextlib import suppress
from datetime import UTC, datetime, timedelta

from prefect import serve
from prefect.deployments.runner import RunnerDeployment
from pydantic import ValidationError

from flows.audit import sea_audit
from flows.server import prefect_api
from flows.tracking import check_tracking
from sea.audit.validate import plan_audit
from sea.errors import SeaError
from sea.settings import load_params

DEPLOYMENT_NAME = "recurring-audit"
SCHEDULE_HINT = ("give --cron (or audit.schedule_cron) as five cron fields, e.g. '0 6 * * 1', "
                 "or --interval as a positive number of seconds")


def audit_deployment(params_path: str = "params.yaml", cron: str | None = None,
                     interval_s: float | None = None) -> RunnerDeployment:
    """The deployment on `cron` (default audit.schedule_cron), or every `interval_s` seconds."""
    if interval_s is not None and not 0 < interval_s < math.inf:  # Prefect would take 0 for no interval and serve the cron
        raise SeaError(f"the schedule: --interval {interval_s:g} is not a number of seconds greater than 0; {SCHEDULE_HINT}")
    schedule = {"interval": timedelta(seconds=interval_s)} if interval_s is not None else {
        "cron": cron or load_params(params_path).audit.schedule_cron}
    label = f"every {interval_s:g} s" if interval_s is not None else schedule["cron"]
    return sea_audit.to_deployment(name=DEPLOYMENT_NAME, tags=["sea", "audit"], **schedule,
                                   parameters={"params_path": params_path, "schedule": label},
                                   description="SEA audit of the configured testee(s) on a schedule; results in MLflow.")


def drop_missed_runs() -> int:
    """Of the audits that fell due while nothing served the deployment, keep the latest and delete
    the others, so that serving again runs one catch-up audit rather than every missed one back to
    back, each a full budget (Prefect keeps past-due runs when a deployment is applied again, the
    runs of a schedule since replaced included). Returns how many were deleted."""
    from prefect import get_client
    from prefect.client.schemas.filters import (FlowRunFilter, FlowRunFilterDeploymentId, FlowRunFilterNextScheduledStartTime,
                                                FlowRunFilterState, FlowRunFilterStateType)
    from prefect.client.schemas.objects import StateType
    from prefect.exceptions import ObjectNotFound

    with get_client(sync_client=True) as client:
        try:
            deployment = client.read_deployment_by_name(f"{sea_audit.name}/{DEPLOYMENT_NAME}")
        except ObjectNotFound:
            return 0
        due = client.read_flow_runs(flow_run_filter=FlowRunFilter(
            deployment_id=FlowRunFilterDeploymentId(any_=[deployment.id]),
            state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[StateType.SCHEDULED])),
            next_scheduled_start_time=FlowRunFilterNextScheduledStartTime(before_=datetime.now(UTC))))
        missed = sorted((run for run in due if run.run_count == 0), key=lambda run: run.next_scheduled_start_time)
        for run in missed[:-1]:
            client.delete_flow_run(run.id)
    return max(len(missed) - 1, 0)


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM stops serving as Ctrl-C does, and the server started here with it


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the recurring SEA audit until interrupted.")
    parser.add_argument("--params", default="params.yaml")
    parser.add_argument("--cron", help="override audit.schedule_cron, e.g. '0 */6 * * *'")
    parser.add_argument("--interval", type=float, help="every this many seconds instead of a cron schedule")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _stop)
    try:
        deployment = audit_deployment(args.params, args.cron, args.interval)
        check_tracking(plan_audit(args.params, overrides=None, run_id=None, resume=False).params)  # said now, not in every run's log
        with prefect_api(load_params(args.params).paths.cache_dir / "prefect-server.log") as url:
            print(f"Prefect API: {url}   UI: {url.removesuffix('/api')}", flush=True)
            if dropped := drop_missed_runs():
                print(f"{dropped + 1} audits fell due while nothing served the schedule: the latest runs now, "
                      f"the {dropped} before it are dropped", flush=True)
            # Prefect's serve returns on Ctrl-C or SIGTERM; one audit at a time; left unpaused, the
            # deployment keeps its scheduled runs, and the one that falls due while stopped runs on restart
            with suppress(KeyboardInterrupt):  # one that comes before Prefect's runner catches it
                serve(deployment, limit=1, pause_on_shutdown=False)
            print("stopped serving the recurring audit", flush=True)
    except SeaError as error:
        _fail(str(error))
    except ValidationError as error:  # the schedule, as Prefect reads it
        problem = error.errors()[0]["msg"].removeprefix("Value error, ")
        _fail(f"the schedule: {problem}; {SCHEDULE_HINT}")


def _fail(message: str) -> None:
    print(f"sea: error: {message}", file=sys.stderr)
    sys.exit(2)  # as the sea command does for a user error


if __name__ == "__main__":
    main()
