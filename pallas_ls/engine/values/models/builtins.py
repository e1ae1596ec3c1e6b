"""Models of builtins (see `pallas_ls.engine.models`): read as source, never imported.

A builtin called by its bare name (`filter(...)`) is looked up here when the interpreter has no
native rule for it."""

from typing import Any


def filter(function: Any, iterable: Any) -> Any:  # noqa: A001  (the builtin's name)
    # A list rather than a lazy generator: a comprehension over a known sequence keeps the
    # elements whose condition is decided true, and only those.
    if function is None:
        return [item for item in iterable if item]
    return [item for item in iterable if function(item)]
