from .kernels import copy


class Op:
    kernel = staticmethod(copy)
