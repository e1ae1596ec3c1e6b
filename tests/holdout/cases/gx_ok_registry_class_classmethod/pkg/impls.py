from .kernels import copy, bump
from .registry import Registry

Registry.add(copy)
Registry.add(bump)
