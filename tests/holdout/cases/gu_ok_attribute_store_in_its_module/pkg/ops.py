from .kernels import copy, bump


class Op:
    def __init__(self):
        self.kernel = copy


OP = Op()
OP.kernel = copy
