"""Models of `itertools` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


def chain(*iterables: Any) -> Any:
    for iterable in iterables:
        yield from iterable


def islice(iterable: Any, *args: Any) -> Any:
    yield from iterable


def cycle(iterable: Any) -> Any:
    yield from iterable


def repeat(value: Any, times: Any = None) -> Any:
    yield value


def accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Any:
    yield from iterable


def takewhile(predicate: Any, iterable: Any) -> Any:
    yield from iterable


def dropwhile(predicate: Any, iterable: Any) -> Any:
    yield from iterable


def filterfalse(predicate: Any, iterable: Any) -> Any:
    yield from iterable
