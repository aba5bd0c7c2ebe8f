"""Where the heavy stages' Prefect tasks run, as `compute.*` says: in this process, one task at
a time, or on a Dask cluster through prefect-dask's DaskTaskRunner (whose workers the Prefect UI
shows). A task that fails is retried by Prefect; one lost with a killed worker is rerun by Dask."""

from __future__ import annotations

from prefect.task_runners import ThreadPoolTaskRunner

from sea.errors import ParamsError
from sea.settings import ComputeSettings


def check_scheduler(compute: ComputeSettings) -> None:
    """Fail in seconds, naming the setting, when the configured scheduler does not answer."""
    from distributed import Client

    try:
        Client(compute.address, timeout=compute.connect_timeout_s).close()
    except (OSError, TimeoutError) as error:
        raise ParamsError(f"compute.address: no Dask scheduler answers at {compute.address!r} within "
                          f"{compute.connect_timeout_s:g} s ({type(error).__name__}); start one (`dask scheduler`, then "
                          "`dask worker <address>` on each machine) or fix the address, or set compute.runner: local") from None


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
