"""When a Prefect task is retried."""

from __future__ import annotations

from sea.errors import SeaError

RETRIES = {"retries": 2, "retry_delay_seconds": 10}


def retry_unless_user_error(task, task_run, state) -> bool:
    """A SeaError (a failing endpoint, a damaged file, a missing model) names a problem that a retry cannot fix."""
    return not isinstance(state.data, SeaError)
