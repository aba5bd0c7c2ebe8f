"""A real local Prefect server — API, UI and the services a schedule needs (the scheduler above
all) — for a process that is given no PREFECT_API_URL.

Prefect's own fallback, a temporary server per process, runs no scheduler (a deployment's cron
never fires) and outlives a process killed with SIGKILL. This one is started once, used only
when healthy, stopped when the block ends and, on Linux, killed by the kernel with its parent."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sea.errors import SeaError

if TYPE_CHECKING:
    from prefect.exceptions import PrefectHTTPStatusError

_PR_SET_PDEATHSIG = 1


def healthy(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url.rstrip('/')}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    """In the child, before exec: the kernel sends SIGTERM when the parent dies, however it dies. (The
    server has a session of its own: a Ctrl-C in the terminal, or a signal to the whole process group,
    must not stop it before the flow it serves has recorded how it ended.)"""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@contextmanager
def prefect_api(log_path: Path, start_timeout_s: float = 120) -> Iterator[str]:
    """The API URL of a healthy Prefect server: the configured one (PREFECT_API_URL, or the active
    Prefect profile's) when it answers, else a server started here (its output in log_path) for
    the duration of the block. Processes started inside the block (flow runs) inherit the URL."""
    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    given = get_current_settings().api.url
    if given:
        if not healthy(given):
            raise SeaError(f"PREFECT_API_URL={given} does not answer; start that server (`prefect server start`) "
                           f"or unset PREFECT_API_URL to have SEA start one")
        yield given
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}/api"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    with open(log_path, "ab") as log:
        server = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                                   "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout_s
        while not healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SeaError(f"the local Prefect server did not start (see {log_path}); or start one yourself with "
                               f"`prefect server start` and set PREFECT_API_URL")
            time.sleep(0.5)
        os.environ["PREFECT_API_URL"] = url
        with temporary_settings({PREFECT_API_URL: url}):
            yield url
    finally:
        if "prefect.logging.handlers" in sys.modules:  # send the logs still queued while the server answers
            sys.modules["prefect.logging.handlers"].APILogWorker.drain_all(timeout=5)
        os.environ.pop("PREFECT_API_URL", None)
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def api_failure(error: PrefectHTTPStatusError) -> SeaError:
    """A Prefect API error that outlasted the client's own retries, as one line that says what to do."""
    request, status = error.request, error.response.status_code
    why = (" (a Prefect server on SQLite answers 503 while its database is locked by other writes: several audits or "
           "deployments on one server)" if status == 503 else "")
    return SeaError(f"the Prefect API answered {status} to {request.method} {request.url.copy_with(query=None)} through "
                    f"all its client's retries{why}; retry when the server is idle, or give the server "
                    f"a PostgreSQL database for concurrent audits")
