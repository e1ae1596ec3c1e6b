"""Models of `operator` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


def _dotted_attribute(obj: Any, name: str) -> Any:
    # `attrgetter("ops.fused")` reads `obj.ops.fused`: one attribute per dotted part.
    head, dot, rest = name.partition(".")
    if dot:
        return _dotted_attribute(getattr(obj, head), rest)
    return getattr(obj, name)


def attrgetter(*names: str) -> Any:
    if len(names) == 1:
        name = names[0]

        def get_one(obj: Any) -> Any:
            return _dotted_attribute(obj, name)

        return get_one

    def get_all(obj: Any) -> Any:
        return tuple(_dotted_attribute(obj, name) for name in names)

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


# The operators as functions (`functools.reduce(operator.or_, layers)`): each is its operator.
def add(a: Any, b: Any) -> Any:
    return a + b


def sub(a: Any, b: Any) -> Any:
    return a - b


def mul(a: Any, b: Any) -> Any:
    return a * b


def floordiv(a: Any, b: Any) -> Any:
    return a // b


def truediv(a: Any, b: Any) -> Any:
    return a / b


def mod(a: Any, b: Any) -> Any:
    return a % b


def or_(a: Any, b: Any) -> Any:
    return a | b


def and_(a: Any, b: Any) -> Any:
    return a & b


def concat(a: Any, b: Any) -> Any:
    return a + b


def eq(a: Any, b: Any) -> Any:
    return a == b


def ne(a: Any, b: Any) -> Any:
    return a != b


def lt(a: Any, b: Any) -> Any:
    return a < b


def le(a: Any, b: Any) -> Any:
    return a <= b


def gt(a: Any, b: Any) -> Any:
    return a > b


def ge(a: Any, b: Any) -> Any:
    return a >= b


def is_(a: Any, b: Any) -> Any:
    return a is b


def is_not(a: Any, b: Any) -> Any:
    return a is not b


def not_(a: Any) -> Any:
    return not a


def contains(a: Any, b: Any) -> Any:
    return b in a
