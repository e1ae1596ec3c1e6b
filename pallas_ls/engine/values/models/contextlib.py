"""Models of `contextlib` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


def contextmanager(func: Any) -> Any:
    def helper(*args: Any, **kwds: Any) -> Any:
        return _GeneratorContextManager(func, args, kwds)

    return helper


class _GeneratorContextManager:
    def __init__(self, func: Any, args: Any, kwds: Any) -> None:
        self.gen = func(*args, **kwds)

    def __enter__(self) -> Any:
        return next(self.gen)

    def __exit__(self, *exc: object) -> None:
        return None  # the generator's code after its `yield` is not followed


class nullcontext:  # noqa: N801  (the library's name)
    def __init__(self, enter_result: Any = None) -> None:
        self.enter_result = enter_result

    def __enter__(self) -> Any:
        return self.enter_result

    def __exit__(self, *exc: object) -> None:
        return None


class closing:  # noqa: N801  (the library's name)
    """`with closing(thing) as t`: t is thing; leaving the block calls `thing.close()`."""

    def __init__(self, thing: Any) -> None:
        self.thing = thing

    def __enter__(self) -> Any:
        return self.thing

    def __exit__(self, *exc: object) -> None:
        self.thing.close()


class ExitStack:
    """`with ExitStack() as stack: k = stack.enter_context(cm)`: what `cm.__enter__()` gives."""

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def enter_context(self, cm: Any) -> Any:
        return cm.__enter__()

    def callback(self, callback: Any, *args: Any, **kwds: Any) -> Any:
        return callback
