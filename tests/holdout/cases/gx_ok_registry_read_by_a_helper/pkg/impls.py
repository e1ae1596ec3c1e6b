from .kernels import copy, bump
from .registry import register

register(copy)
register(bump)
