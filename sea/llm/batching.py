"""Micro-batching: concurrent single requests run together as one batch in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Request = TypeVar("Request")
Result = TypeVar("Result")


class MicroBatcher(Generic[Request, Result]):
    """Requests submitted while a batch is running queue up and form the next batch (up to
    max_batch), so a model that is faster per item in batches gets batches under concurrency
    without callers having to batch. `run_batch` runs in a worker thread, off the event loop."""

    def __init__(self, run_batch: Callable[[Sequence[Request]], Sequence[Result]], max_batch: int):
        self._run_batch = run_batch
        self._max_batch = max_batch
        self._pending: list[tuple[Request, asyncio.Future]] = []
        self._worker: asyncio.Task | None = None

    async def submit(self, request: Request) -> Result:
        future = asyncio.get_running_loop().create_future()
        self._pending.append((request, future))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[: self._max_batch], self._pending[self._max_batch:]
            try:
                results = await asyncio.to_thread(self._run_batch, [request for request, _ in batch])
            except Exception as error:  # noqa: BLE001 — handed to every waiting caller
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)
