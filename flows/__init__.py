"""The orchestration layer: the Prefect flows that compose tasks/ (and own MLflow logging), the
`sea` command line, the recurring-audit deployment and the Prefect server it needs.

Importing it opts out of the libraries' usage reporting, MLflow's INFO lines and the hub's
progress bars for every entry point (the CLI, DVC's stages, a served deployment), not only under
make: set before Prefect, MLflow or transformers is imported, and a value the user set wins."""

import os

QUIET_ENVIRONMENT = {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "MLFLOW_LOGGING_LEVEL": "WARNING",  # not "Creating initial MLflow database tables..." on a first audit
    "DVC_NO_ANALYTICS": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # transformers' "Loading weights" bar, drawn into the audit's own
}
for _name, _value in QUIET_ENVIRONMENT.items():
    os.environ.setdefault(_name, _value)
