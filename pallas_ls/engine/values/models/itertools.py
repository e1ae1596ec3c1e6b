"""Models of `itertools` (see `pallas_ls.engine.models`): read as source, never imported."""

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
    yield from iterable


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
    yield from iterable


def starmap(function: Any, iterable: Any) -> Any:
    for args in iterable:
        yield function(*args)


def product(*iterables: Any, repeat: Any = 1) -> Any:
    yield tuple(next(iter(iterable)) for iterable in iterables)


def zip_longest(*iterables: Any, fillvalue: Any = None) -> Any:
    yield tuple(next(iter(iterable), fillvalue) for iterable in iterables)


def compress(data: Any, selectors: Any) -> Any:
    return [item for item, selected in zip(data, selectors, strict=False) if selected]
