import dataclasses
import functools

from .bodies import scaled_add


@dataclasses.dataclass(frozen=True)
class OpConfig:
    body: object = functools.partial(scaled_add, scale=0.5)
    num_inputs: int = 2
