from .base import Op
from .kernels import copy


class Plain(Op, name="plain"):
    kernel = staticmethod(copy)
