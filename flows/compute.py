"""Where the heavy stages' Prefect tasks run, as `compute.*` says: in this process, one task at
a time, or on a Dask cluster through prefect-dask's DaskTaskRunner (whose workers the Prefect UI
shows). A task that fails is retried by Prefect; one lost with a killed worker is rerun by Dask."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from prefect.task_runners import ThreadPoolTaskRunner

from sea.errors import ParamsError
from sea.settings import ComputeSettings, Params

log = logging.getLogger(__name__)


def check_scheduler(compute: ComputeSettings) -> None:
    """Fail in seconds, naming the setting, when the configured scheduler does not answer. The deadline is
    kept here: distributed's own timeout does not cover a server that accepts the connection and then says
    nothing, or something else than a scheduler (the check then hung, or failed deep inside)."""
    from distributed import Client

    failure: list[str] = ["no answer"]
    workers: list[int] = []

    def connect() -> None:
        try:
            with Client(compute.address, timeout=compute.connect_timeout_s) as client:
                workers.append(len(client.scheduler_info()["workers"]))
            failure.clear()
        except Exception as error:  # whatever an address that is not a scheduler's makes the client raise
            failure[:] = [f"{type(error).__name__}: {str(error)[:200]}"]

    attempt = threading.Thread(target=connect, name="dask-scheduler-check", daemon=True)  # a hung one is left behind
    attempt.start()
    attempt.join(compute.connect_timeout_s + 5)
    if failure:
        raise ParamsError(f"compute.address: no Dask scheduler answers at {compute.address!r} within "
                          f"{compute.connect_timeout_s:g} s ({failure[0]}); start one (`dask scheduler`, then "
                          "`dask worker <address>` on each machine) or fix the address, or set compute.runner: local")
    if workers == [0]:  # an adaptive cluster may start them on demand: said, not refused
        log.warning("compute.address: the Dask scheduler at %r has no workers yet; its tasks wait until one joins "
                    "(`dask worker %s` on each machine)", compute.address, compute.address)


def for_workers(params: Params) -> Params:
    """params as the tasks get them: every path absolute, against this process's working directory. A
    worker started in another directory (`dask worker` from $HOME, a Slurm job's folder) resolved a
    relative one against its own, and converted the dump into a cache the merge here could not find, or
    did not find the model. What this process records (the build report, the sidecars) keeps them as given.
    (Not kb.input: the embedding stage does not read kb.*, and dvc.yaml does not rerun it when kb changes;
    the knowledge base's flow makes the dump's path absolute itself.)"""
    paths = {name: value.absolute() for name, value in params.paths}
    from sea.embeddings import resolve_model

    embedding = params.embedding
    location, local = resolve_model(embedding.model)
    if local and location == embedding.model and not Path(location).expanduser().is_absolute():  # a model folder here
        embedding = embedding.model_copy(update={"model": str(Path(location).expanduser().absolute())})
    return params.model_copy(update={"paths": params.paths.model_copy(update=paths), "embedding": embedding})


def task_runner(compute: ComputeSettings):
    """The runner compute.* names: one task at a time in this process, or a Dask cluster."""
    if compute.runner == "local":
        return ThreadPoolTaskRunner(max_workers=1)
    from prefect_dask import DaskTaskRunner

    if compute.address:
        check_scheduler(compute)
        return DaskTaskRunner(address=compute.address)
    # One thread per worker process, torch's included: N workers then share N cores instead of
    # each spawning a thread per core (which on 2 cores made 2 workers no faster than 1 process).
    return DaskTaskRunner(cluster_kwargs={"n_workers": compute.workers, "threads_per_worker": 1, "processes": True,
                                          "env": {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}})
