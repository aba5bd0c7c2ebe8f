"""A recurring audit: the sea_audit flow as a Prefect deployment on a cron schedule.

`make schedule` serves it from this process (python -m flows.deploy) against a real Prefect server
— the one PREFECT_API_URL names, or one started here with its scheduler and stopped with this
process. With a long-lived server and a work pool, `prefect deploy flows/audit.py:sea_audit` does the same
(README: "Recurring audits"). Every scheduled run gets a new run id and its own
MLflow run, tagged with the schedule, so audits of the same model line up over time."""

from __future__ import annotations

import argparse
import signal
import sys
from datetime import timedelta

from prefect import serve
from prefect.deployments.runner import RunnerDeployment
from pydantic import ValidationError

from flows.audit import sea_audit
from flows.server import prefect_api
from sea.errors import SeaError
from sea.settings import load_params

DEPLOYMENT_NAME = "recurring-audit"


def audit_deployment(params_path: str = "params.yaml", cron: str | None = None,
                     interval_s: float | None = None) -> RunnerDeployment:
    """The deployment on `cron` (default audit.schedule_cron), or every `interval_s` seconds."""
    schedule = {"interval": timedelta(seconds=interval_s)} if interval_s else {
        "cron": cron or load_params(params_path).audit.schedule_cron}
    label = f"every {interval_s:g} s" if interval_s else schedule["cron"]
    return sea_audit.to_deployment(name=DEPLOYMENT_NAME, tags=["sea", "audit"], **schedule,
                                   parameters={"params_path": params_path, "schedule": label},
                                   description="SEA audit of the configured testee(s) on a schedule; results in MLflow.")


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
        with prefect_api(load_params(args.params).paths.cache_dir / "prefect-server.log") as url:
            print(f"Prefect API: {url}   UI: {url.removesuffix('/api')}", flush=True)
            try:
                serve(deployment, limit=1)  # one audit at a time
            except KeyboardInterrupt:
                print("stopped serving the recurring audit", flush=True)
    except SeaError as error:
        _fail(str(error))
    except ValidationError as error:  # the schedule, as Prefect reads it
        problem = error.errors()[0]["msg"].removeprefix("Value error, ")
        _fail(f"the schedule: {problem}; give --cron (or audit.schedule_cron) as five cron fields, e.g. '0 6 * * 1', "
              f"or --interval as a positive number of seconds")


def _fail(message: str) -> None:
    print(f"sea: error: {message}", file=sys.stderr)
    sys.exit(2)  # as the sea command does for a user error


if __name__ == "__main__":
    main()
