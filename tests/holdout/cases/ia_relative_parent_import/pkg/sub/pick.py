from ..kernels import copy, bump

CHOSEN = bump
