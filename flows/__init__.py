"""Prefect flows that compose the tasks in tasks/ and own MLflow logging (the audit flow comes next)."""
