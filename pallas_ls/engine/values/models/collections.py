"""Models of `collections` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


class ChainMap:
    def __init__(self, *maps: Any) -> None:
        self.maps = list(maps) or [{}]

    def __getitem__(self, key: Any) -> Any:
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        return default

    def new_child(self, m: Any = None) -> Any:
        return ChainMap(m if m is not None else {}, *self.maps)

    @property
    def parents(self) -> Any:
        return ChainMap(*self.maps[1:])


class Counter:
    """Counts of hashable items, kept in first-seen order (as a dict keeps its keys)."""

    def __init__(self, iterable: Any = ()) -> None:
        items = list(iterable)
        self._counts = {item: len([other for other in items if other == item]) for item in items}

    def __getitem__(self, key: Any) -> Any:
        return self._counts.get(key, 0)

    def most_common(self, n: Any = None) -> Any:
        # by count, the most first; ties in first-seen order (sorted is stable)
        ranked = sorted(self._counts.items(), key=lambda pair: -pair[1])
        return ranked if n is None else ranked[:n]

    def keys(self) -> Any:
        return self._counts.keys()

    def values(self) -> Any:
        return self._counts.values()

    def items(self) -> Any:
        return self._counts.items()
