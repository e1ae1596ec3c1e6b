from .kernels import copy, bump
from .registry import register


def install():
    register(copy)
    register(bump)
