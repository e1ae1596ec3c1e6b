"""`json.loads` of a constant string: the data it parses, as values.

The text is data the program holds, not code: parsing it is not running the program.  A config
read this way (`CONFIG = json.loads('{"variant": 1}')`, then `KERNELS[CONFIG["variant"]]`) selects
as a dict display would.  Each dict and list it makes is an object of the heap, so later stores
into it (`CONFIG["variant"] = 0`) are seen."""

from __future__ import annotations

import json
from typing import Any

from .domain import Const, DictV, Seq, Value, only_value, union

# Longer texts are left Unknown: the parse and the values would cost more than they tell.
MAX_TEXT = 20_000


def loaded(text: frozenset[Value], site: int, toplevel: bool) -> frozenset[Value] | None:
    """What `json.loads(text)` gives when `text` is one constant string that parses; None if not."""
    constant = only_value(text)
    if not isinstance(constant, Const) or not isinstance(constant.value, str) or len(constant.value) > MAX_TEXT:
        return None
    try:
        data = json.loads(constant.value)
    except ValueError:
        return None  # what Python raises: nothing known
    return frozenset({_as_value(data, site, (), toplevel)})


def _as_value(data: Any, site: int, path: tuple[object, ...], toplevel: bool) -> Value:
    # The containers inside have sites of their own, made from the call's and their path.
    here = site if not path or not site else (hash((site, path)) | 1)
    if isinstance(data, dict):
        items = tuple((key, frozenset({_as_value(value, site, (*path, key), toplevel)})) for key, value in data.items())
        return DictV(items, union(v for _, v in items), here, toplevel)
    if isinstance(data, list):
        elements = tuple(frozenset({_as_value(value, site, (*path, i), toplevel)}) for i, value in enumerate(data))
        return Seq("list", elements, frozenset(), here)
    return Const(data)
