from .kernels import copy, bump

TABLE = {"k": copy}
TABLE.update(k=bump)
