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
