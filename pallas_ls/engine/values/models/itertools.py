"""Models of `itertools` (see `pallas_ls.engine.models`): read as source, never imported."""

import functools as _functools
import operator as _operator
from typing import Any


class chain:
    def __init__(self, *iterables: Any) -> None:
        self.iterables = iterables

    def __iter__(self) -> Any:
        for iterable in self.iterables:
            yield from iterable

    @staticmethod
    def from_iterable(iterables: Any) -> Any:
        # a list, not a lazy generator: the elements of known groups stay in order
        return [item for iterable in iterables for item in iterable]


def islice(iterable: Any, *args: Any) -> Any:
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    else:
        start, stop, step = args[0] or 0, args[1], (args[2] if len(args) > 2 else None) or 1
    if isinstance(iterable, cycle):
        # an endless cycle sliced: position i holds the (i mod n)th element
        saved = iterable.saved
        if stop is None:
            # endless: its first 16 items, in order (what next() and a zip with fewer names read)
            return [saved[i % len(saved)] for i in range(start, start + 16 * step, step)]
        return [saved[i % len(saved)] for i in range(start, stop, step)]
    return list(iterable)[start:stop:step]


class cycle:
    def __init__(self, iterable: Any) -> None:
        self.saved = list(iterable)

    def __iter__(self) -> Any:
        while self.saved:
            yield from self.saved


def repeat(value: Any, times: Any = None) -> Any:
    # the same object `times` times (`*repeat(ref, 2)` passes one Ref twice)
    return _forever(value) if times is None else [value] * times


def _forever(value: Any) -> Any:
    while True:
        yield value


def accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Any:
    # a list, in order: each prefix folded (`accumulate([1, 1])` is [1, 2])
    items = list(iterable) if initial is None else [initial, *iterable]
    combine = _operator.add if func is None else func
    return [_functools.reduce(combine, items[: i + 1]) for i in range(len(items))]


def takewhile(predicate: Any, iterable: Any) -> Any:
    # a list, in order: the items before the first the predicate rejects
    items = list(iterable)
    failed = [not predicate(item) for item in items]
    stop = failed.index(True) if True in failed else len(items)
    return items[:stop]


def dropwhile(predicate: Any, iterable: Any) -> Any:
    # a list, in order: the items from the first the predicate rejects
    items = list(iterable)
    failed = [not predicate(item) for item in items]
    start = failed.index(True) if True in failed else len(items)
    return items[start:]


def filterfalse(predicate: Any, iterable: Any) -> Any:
    # a list, in order: the items the predicate rejects (None: the false items)
    return [item for item in iterable if not (item if predicate is None else predicate(item))]


def starmap(function: Any, iterable: Any) -> Any:
    # a list, in order
    return [function(*args) for args in iterable]


def product(*iterables: Any, repeat: Any = 1) -> Any:
    # a list, in order, for up to three pools
    pools = [list(pool) for pool in iterables] * repeat
    if len(pools) == 1:
        return [(a,) for a in pools[0]]
    if len(pools) == 2:
        return [(a, b) for a in pools[0] for b in pools[1]]
    if len(pools) == 3:
        return [(a, b, c) for a in pools[0] for b in pools[1] for c in pools[2]]
    # more pools: each tuple holds some member of each pool; how many tuples, and in which order,
    # is not followed (`id(...)` is a number the interpreter does not know: cheap, and no guess)
    return [tuple(pool[id(pool) % len(pool)] for pool in pools) for _ in range(id(pools))]


def zip_longest(*iterables: Any, fillvalue: Any = None) -> Any:
    # a list, in order: the shorter iterables padded with `fillvalue`
    lists = [list(iterable) for iterable in iterables]
    longest = max([len(items) for items in lists]) if lists else 0
    return [tuple(items[i] if i < len(items) else fillvalue for items in lists) for i in range(longest)]


def pairwise(iterable: Any) -> Any:
    # a list, in order: each item with the next
    items = list(iterable)
    return [(items[i], items[i + 1]) for i in range(len(items) - 1)]


def compress(data: Any, selectors: Any) -> Any:
    return [item for item, selected in zip(data, selectors, strict=False) if selected]


class count:  # noqa: N801  (the library's name)
    """`count(start, step)`: endless.  Zipped with known sequences it numbers them
    (`dict(zip(count(), FNS))`, `iteration._with_counts_numbered`); iterated alone, its items are numbers."""

    def __init__(self, start: Any = 0, step: Any = 1) -> None:
        self.start = start
        self.step = step

    def __iter__(self) -> Any:
        n = self.start
        while True:
            yield n
            n += self.step
