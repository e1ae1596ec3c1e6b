from .kernels import copy, bump

TABLE = {"k": copy}
TABLE.update(j=bump)
