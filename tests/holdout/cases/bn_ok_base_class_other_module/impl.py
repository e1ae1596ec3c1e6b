from base import Op
from kernels import copy


class Impl(Op):
    kernel = staticmethod(copy)
