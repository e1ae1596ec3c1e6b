from lib.base import Kernel


class Copy(Kernel):
    def __call__(self, x_ref, o_ref):
        o_ref[...] = x_ref[...]


class Bump(Kernel):
    pass
