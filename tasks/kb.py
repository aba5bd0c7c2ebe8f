"""A multistream dump's shard converted into its part files, as a Prefect task (flows/kb_build.py)."""

from __future__ import annotations

from pathlib import Path

from prefect import task

from sea.kb.multistream import Shard
from sea.kb.sharded import build_shard
from sea.settings import Params
from tasks.retries import RETRIES, retry_unless_user_error


@task(name="convert-shard", task_run_name="convert-shard-{shard.number}", **RETRIES, retry_condition_fn=retry_unless_user_error)
def convert_shard(params: dict, shard: Shard, header: bytes, folder: str) -> dict:
    return build_shard(Params.model_validate(params), shard, header, Path(folder))
