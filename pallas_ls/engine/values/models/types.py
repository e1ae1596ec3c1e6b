"""Models of `types` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


class SimpleNamespace:
    """Its instances are made by the interpreter itself (`Interpreter.external_call`): each keyword
    argument a field of its own, as dataclass fields are; this class gives them their identity."""


def MappingProxyType(mapping: Any) -> Any:  # noqa: N802  (the library's name)
    # A read-only view: every read is the mapping's (and sees what is stored into it later).
    return mapping


def MethodType(function: Any, instance: Any) -> Any:  # noqa: N802  (the library's name)
    # A method bound by hand: calling it calls the function with the instance first.
    import functools

    return functools.partial(function, instance)


class ModuleType:
    """A module made at run time (`ops = types.ModuleType("ops")`, then `ops.tanh = _tanh`): its
    attributes are the fields of an instance, as a namespace's are."""

    def __init__(self, name: str, doc: Any = None) -> None:
        self.__name__ = name
        self.__doc__ = doc
