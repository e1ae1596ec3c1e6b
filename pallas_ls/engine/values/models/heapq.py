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


def heappop(heap: Any) -> Any:
    # a heap keeps its smallest item first, and heappop returns it (its change of the list is
    # not followed: the list's contents are unknown after it, values/unseen_changes.py)
    return heap[0]
