"""The orchestration layer: the Prefect flows that compose tasks/ (and own MLflow logging), the
`sea` command line, the recurring-audit deployment and the Prefect server it needs."""
