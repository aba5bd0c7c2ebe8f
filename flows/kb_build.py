"""`sea-kb-build`: a multistream dump converted shard by shard as Prefect tasks on `compute.*`,
then merged in dump order. A shard finished before (a killed build, a new `dvc repro`) is read
back from its part files. Ids and rows do not depend on the runner or the number of workers."""

from __future__ import annotations

import time

from prefect import flow

from flows.compute import for_workers, task_runner
from sea.kb.schema import require_replaceable
from sea.kb.sharded import documents_in, merge_shards, parts_dir, plan, require_index
from sea.settings import Params
from tasks.kb import convert_shard


@flow(name="sea-kb-build", description="Build the knowledge base from a multistream dump, shard by shard.")
def _build(params: dict, progress: bool) -> dict:
    settings = Params.model_validate(params)
    started = time.perf_counter()
    header, shards = plan(settings)
    folder = parts_dir(settings)
    # With kb.max_documents, shards are converted in dump order, a wave of compute.workers at a time, until
    # the documents are there: a trial on the full dump converts a few shards, not all of them.
    wave = len(shards) if settings.kb.max_documents is None else max(1, settings.compute.workers)
    # what a worker in another directory finds: the dump and the parts folder as absolute paths
    shipped = for_workers(settings)
    shipped = shipped.model_copy(update={"kb": shipped.kb.model_copy(update={"input": shipped.kb.input.absolute()})})
    shipped, parts = shipped.model_dump(mode="json"), str(folder.absolute())
    converted = []
    for start in range(0, len(shards), wave):
        futures = [convert_shard.submit(shipped, shard, header, parts) for shard in shards[start:start + wave]]
        for future in futures:
            future.result()
        converted += shards[start:start + wave]
        if settings.kb.max_documents is not None and documents_in(folder, converted) >= settings.kb.max_documents:
            break
    return merge_shards(settings, converted, folder, started, progress)


def build_sharded(params: Params, progress: bool = True) -> dict:
    """Build params.paths.kb_dir from the multistream dump params.kb.input; returns the build report."""
    require_index(params)  # before any cluster starts
    require_replaceable(params.paths.kb_dir)
    runner = task_runner(params.compute)
    return _build.with_options(task_runner=runner)(params.model_dump(mode="json"), progress)
