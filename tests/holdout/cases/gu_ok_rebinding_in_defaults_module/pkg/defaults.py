from .kernels import copy, bump

DEFAULT = bump
DEFAULT = copy
