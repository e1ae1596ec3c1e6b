from .base import Op
from .kernels import bump


class FastOp(Op):
    kernel = staticmethod(bump)
