from .dispatch import dispatch
from .kernels import copy, bump

dispatch.table["plain"] = copy
dispatch.table["fast"] = bump
