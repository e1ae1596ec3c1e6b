from .base import Op
from .kernels import bump


class Fast(Op, name="fast"):
    kernel = staticmethod(bump)
