"""Models of `heapq` (see `pallas_ls.engine.values.models`): read as source, never imported."""

from typing import Any


def nsmallest(n: Any, iterable: Any, key: Any = None) -> Any:
    if key is None:
        return sorted(iterable)[:n]
    return sorted(iterable, key=key)[:n]


def nlargest(n: Any, iterable: Any, key: Any = None) -> Any:
    if key is None:
        return sorted(iterable, reverse=True)[:n]
    return sorted(iterable, key=key, reverse=True)[:n]
