"""Cooperative cancellation of an analysis (issue 16).

The server's worker sets a job's token when a newer edit of the same document is submitted while
the job runs; the job hands `should_stop` (the token's `is_set`) to the engine, which calls
`stop_if(should_stop)` at cheap natural points (between top-level blocks while parsing and
modelling, between candidate calls while finding launches, before running the rules) and raises
`Cancelled` there.  Each such point is one where the caches can be left as they are or put back
(see IncrementalDocument._analyze, Project.findings_for and OpenDocuments.findings_for): a cancelled analysis leaves them as if
it had never run, or at the end of a complete analysis.

`Cancelled` is a BaseException, as asyncio.CancelledError is: the engine's `except Exception`
guards (a rule that fails, a file the interpreter cannot follow) must never swallow it and
report a half-made analysis as a whole one.
"""

from __future__ import annotations

from collections.abc import Callable

StopCheck = Callable[[], bool] | None  # None: never stop


class Cancelled(BaseException):
    """The analysis was asked to stop; it has no result."""


def stop_if(should_stop: StopCheck) -> None:
    if should_stop is not None and should_stop():
        raise Cancelled()
