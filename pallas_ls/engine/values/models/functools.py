"""Models of `functools` (see `pallas_ls.engine.values.models`): read as source, never imported.

`partial`, `partialmethod`, `wraps`, `cache` / `lru_cache` and `cached_property` are modelled
natively by the interpreter (they make values of their own kinds); what is here is evaluated."""

from typing import Any


def reduce(function: Any, iterable: Any, *initial: Any) -> Any:
    items = iter(iterable)
    value = initial[0] if initial else next(items)
    for item in items:
        value = function(value, item)
    return value


class singledispatch:
    """A generic function: a call may run any registered implementation.  The implementations
    are stores into the dispatcher object (one per `@singledispatch`), as the heap sees them."""

    def __init__(self, func: Any) -> None:
        self.implementation = func

    def register(self, cls: Any, func: Any = None) -> Any:
        if func is not None:
            self.implementation = func
            return func
        self.implementation = cls  # `@f.register` with an annotated function: `cls` is it
        return self._add

    def _add(self, func: Any) -> Any:
        self.implementation = func
        return func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.implementation(*args, **kwargs)


def update_wrapper(wrapper: Any, wrapped: Any, *args: Any, **kwds: Any) -> Any:
    return wrapper
