"""Models of `types` (see `pallas_ls.engine.models`): read as source, never imported."""

from typing import Any


class SimpleNamespace:
    # The interpreter makes its instances itself (`Interpreter._namespace`): each keyword argument
    # is a field of its own, as dataclass fields are, which a loop over kwargs would blur.
    def __init__(self, **kwargs: Any) -> None:
        for name, value in kwargs.items():
            setattr(self, name, value)
