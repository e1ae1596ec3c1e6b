from .kernels import copy, bump

DEFAULT = copy
DEFAULT = bump
