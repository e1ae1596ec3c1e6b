"""Running analysis off the message loop: a worker thread, per-key coalescing and debounce.

`Worker` runs jobs on one daemon thread.  Jobs have a key (a document URI); a job submitted for a
key that is still waiting replaces the waiting one, so an edit storm analyses only the newest text.
A job may come with a cancellation token (a threading.Event): submitting another job for its key
while it runs sets it, and the job stops at its next check (engine/cancel.py) so the newer one
runs without waiting for an analysis that would be dropped.  Results come back on the event loop
through `loop.call_soon_threadsafe`.

`Debouncer` delays a per-key action until no new request for that key has arrived for a while.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

log = logging.getLogger(__name__)

Callback = Callable[[Any, BaseException | None], None]

# The event loop keeps only weak references to its tasks: one nobody holds can be collected before
# it has run to its end (asyncio's documentation of create_task).
_BACKGROUND_TASKS: set[asyncio.Future] = set()


def spawn(awaitable: Awaitable[Any]) -> asyncio.Future:
    """Run `awaitable` on the loop without awaiting it, held until it is done."""
    task = asyncio.ensure_future(awaitable)
    _BACKGROUND_TASKS.add(task)
    task.add_done_callback(_BACKGROUND_TASKS.discard)
    return task


class Worker:
    def __init__(self, loop: asyncio.AbstractEventLoop, name: str) -> None:
        self._loop = loop
        self._pending: OrderedDict[Hashable, tuple[Callable[[], Any], Callback, threading.Event | None]] = OrderedDict()
        self._running: tuple[Hashable, threading.Event | None] | None = None  # the key and token of the job running
        self._condition = threading.Condition()
        self._stopped = False
        self.idle = threading.Event()  # set while nothing is queued or running
        self.idle.set()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(
        self,
        key: Hashable,
        job: Callable[[], Any],
        callback: Callback,
        token: threading.Event | None = None,
        cancel_running: bool = True,
    ) -> None:
        """Queue `job` for `key` (replacing a queued one, and cancelling a running one, its token
        set, unless `cancel_running` is false); `callback(result, error)` runs on the loop."""
        with self._condition:
            if key in self._pending:
                del self._pending[key]
            running = self._running
            if cancel_running and running is not None and running[0] == key and running[1] is not None:
                running[1].set()
            self._pending[key] = (job, callback, token)
            self.idle.clear()
            self._condition.notify()

    def discard(self, key: Hashable) -> None:
        with self._condition:
            self._pending.pop(key, None)

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._pending.clear()
            self._condition.notify_all()

    def _run(self) -> None:
        while True:
            with self._condition:
                while not self._pending and not self._stopped:
                    self.idle.set()
                    self._condition.wait()
                if self._stopped:
                    self.idle.set()
                    return
                key, (job, callback, token) = self._pending.popitem(last=False)
                self._running = (key, token)
            result: Any = None
            error: BaseException | None = None
            try:
                result = job()
            except BaseException as exc:  # noqa: BLE001 - reported to the callback, never fatal
                error = exc
            with self._condition:
                self._running = None
            self._deliver(callback, result, error)

    def _deliver(self, callback: Callback, result: Any, error: BaseException | None) -> None:
        def call() -> None:
            try:
                callback(result, error)
            except Exception:  # noqa: BLE001
                log.exception("a worker callback failed")

        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is exiting
            self._loop.call_soon_threadsafe(call)


class Debouncer:
    """`schedule(key, delay, action)`: run `action` once `delay` seconds pass without a newer call."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._timers: dict[Hashable, asyncio.Handle] = {}

    def schedule(self, key: Hashable, delay: float, action: Callable[[], None]) -> None:
        self.cancel(key)

        def fire() -> None:
            self._timers.pop(key, None)
            try:
                action()
            except Exception:  # noqa: BLE001
                log.exception("a scheduled action failed")

        if delay <= 0:
            fire()  # no debounce: the worker still coalesces jobs queued for the same key
        else:
            self._timers[key] = self._loop.call_later(delay, fire)

    def pending(self, key: Hashable) -> bool:
        return key in self._timers

    def cancel(self, key: Hashable) -> None:
        handle = self._timers.pop(key, None)
        if handle is not None:
            handle.cancel()
