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
    """A generic function: a call runs the implementation registered for its first argument's
    type, most derived first, else the function decorated (`@f.register` of an annotated function:
    under its first parameter's annotation)."""

    def __init__(self, func: Any) -> None:
        self.default = func
        self.registry = {}  # type: ignore[var-annotated]

    def register(self, cls: Any, func: Any = None) -> Any:
        if func is not None:
            self.registry[cls] = func
            return func
        if isinstance(cls, type):

            def add(func: Any) -> Any:
                self.registry[cls] = func
                return func

            return add
        self.registry[_annotated(cls)] = cls
        return cls

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.dispatch(args[0])(*args, **kwargs)

    def dispatch(self, arg: Any) -> Any:
        chosen = self.default
        best = object
        for cls, func in self.registry.items():
            if isinstance(arg, cls) and issubclass(cls, best):
                chosen = func
                best = cls
        return chosen


class singledispatchmethod(singledispatch):
    """A generic method: a call runs the implementation registered for the type of its first
    argument after `self` (`@pick.register` of a method annotated `arg: int`)."""

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        def method(*args: Any, **kwargs: Any) -> Any:
            return self.dispatch(args[0])(obj, *args, **kwargs)

        return method


def _annotated(func: Any) -> Any:
    """The type annotating a function's first parameter (as `register` reads it)."""
    return next(iter(func.__annotations__.values()))


def update_wrapper(wrapper: Any, wrapped: Any, *args: Any, **kwds: Any) -> Any:
    return wrapper
