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
