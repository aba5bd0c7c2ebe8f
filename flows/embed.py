"""`sea-embed` on a cluster: documents embedded part by part (one row group each) as Prefect tasks
on `compute.*`, then assembled in document order; finished parts are not recomputed."""

from __future__ import annotations

import time

from prefect import flow

from flows.compute import for_workers, task_runner
from sea.settings import Params
from sea.sharded_embeddings import assemble_parts, parts_folder
from tasks.embed import embed_documents_part


@flow(name="sea-embed", description="Embed the knowledge base's documents, part by part.")
def _embed(params: dict, progress: bool) -> dict:
    settings = Params.model_validate(params)
    started = time.perf_counter()
    folder, parts = parts_folder(settings)
    shipped, where = for_workers(settings).model_dump(mode="json"), str(folder.absolute())  # what a worker in another directory finds
    futures = [embed_documents_part.submit(shipped, number, where) for number in range(parts)]
    computed = sum(future.result() for future in futures)
    return assemble_parts(settings, folder, parts, computed, time.perf_counter() - started, progress)


def embed_sharded(params: Params, progress: bool = True) -> dict:
    """The embedding stage's files, computed part by part on compute.*; returns the sidecar."""
    return _embed.with_options(task_runner=task_runner(params.compute))(params.model_dump(mode="json"), progress)
