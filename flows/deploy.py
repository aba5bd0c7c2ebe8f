"""A recurring audit: the sea_audit flow as a Prefect deployment on a cron schedule.

`make schedule` serves it from this process (python -m flows.deploy); with a Prefect server and a
work pool, `prefect deploy` does the same from prefect.yaml (README: "Recurring audits"). Every
scheduled run gets a new run id and its own MLflow run, tagged with the schedule, so audits of
the same model line up over time in the MLflow UI."""

from __future__ import annotations

import argparse

from prefect import serve
from prefect.deployments.runner import RunnerDeployment

from flows.audit import sea_audit
from sea.settings import load_params

DEPLOYMENT_NAME = "recurring-audit"


def audit_deployment(params_path: str = "params.yaml", cron: str | None = None) -> RunnerDeployment:
    cron = cron or load_params(params_path).audit.schedule_cron
    return sea_audit.to_deployment(name=DEPLOYMENT_NAME, cron=cron, tags=["sea", "audit"],
                                   parameters={"params_path": params_path, "schedule": cron},
                                   description="SEA audit of the configured testee(s) on a schedule; results in MLflow.")


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the recurring SEA audit until interrupted.")
    parser.add_argument("--params", default="params.yaml")
    parser.add_argument("--cron", help="override audit.schedule_cron, e.g. '0 */6 * * *'")
    args = parser.parse_args()
    serve(audit_deployment(args.params, args.cron))


if __name__ == "__main__":
    main()
