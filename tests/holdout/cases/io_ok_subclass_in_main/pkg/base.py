from .kernels import copy


class Base:
    kernel = staticmethod(copy)
