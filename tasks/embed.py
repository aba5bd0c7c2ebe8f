"""One row group of documents embedded into its part file, as a Prefect task (flows/embed.py)."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from sea.settings import Params
from sea.sharded_embeddings import embed_part
from tasks.retries import RETRIES, retry_unless_user_error


@task(name="embed-part", task_run_name="embed-part-{number}", **RETRIES, retry_condition_fn=retry_unless_user_error)
def embed_documents_part(params: dict, number: int, folder: str) -> int:
    return embed_part(Params.model_validate(params), number, Path(folder))
