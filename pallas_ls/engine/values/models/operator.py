"""Models of `operator` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


def attrgetter(*names: str) -> Any:
    if len(names) == 1:
        name = names[0]

        def get_one(obj: Any) -> Any:
            return getattr(obj, name)

        return get_one

    def get_all(obj: Any) -> Any:
        return tuple(getattr(obj, name) for name in names)

    return get_all


def itemgetter(*items: Any) -> Any:
    if len(items) == 1:
        item = items[0]

        def get_one(obj: Any) -> Any:
            return obj[item]

        return get_one

    def get_all(obj: Any) -> Any:
        return tuple(obj[item] for item in items)

    return get_all


def methodcaller(name: str, *args: Any, **kwargs: Any) -> Any:
    def call(obj: Any) -> Any:
        return getattr(obj, name)(*args, **kwargs)

    return call


def getitem(a: Any, b: Any) -> Any:
    return a[b]
