"""Models of `inspect` (see `pallas_ls.engine.models`): read as source, never imported."""

import types as _types
from typing import Any


def getmembers(obj: Any, predicate: Any = None) -> Any:
    # (name, value) pairs sorted by name, as `dir` sorts them
    if predicate is None:
        return [(name, getattr(obj, name)) for name in dir(obj)]
    return [(name, getattr(obj, name)) for name in dir(obj) if predicate(getattr(obj, name))]


def isfunction(obj: Any) -> Any:
    return isinstance(obj, _types.FunctionType)


def ismethod(obj: Any) -> Any:
    return isinstance(obj, _types.MethodType)


def isclass(obj: Any) -> Any:
    return isinstance(obj, type)
