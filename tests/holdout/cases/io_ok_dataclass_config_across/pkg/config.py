import dataclasses
import typing
from .kernels import copy


@dataclasses.dataclass
class Config:
    kernel: typing.Callable = copy
